import { z } from 'zod';
import { controlSchema, riskSchema } from './risk';
import { inventoryItemSchema } from './risk-inventory';

/**
 * On a page of a provider library, each item says whether the organisation's register already holds
 * a copy of it, which a copy would skip.
 */
const inRegister = { inRegister: z.boolean() };

export const libraryRiskListSchema = z.object({
  items: z.array(riskSchema.extend(inRegister)),
  total: z.number(),
});
export const libraryControlListSchema = z.object({
  items: z.array(controlSchema.extend(inRegister)),
  total: z.number(),
});
export const libraryInventoryListSchema = z.object({
  items: z.array(inventoryItemSchema.extend(inRegister)),
  total: z.number(),
});
