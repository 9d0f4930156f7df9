import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ManagementMode, OrgSettings, ProductSku } from '@vigil/contracts';

export const orgs = pgTable('orgs', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  /** The provider's own organisation; exactly one exists. */
  isProvider: boolean().notNull().default(false),
  productSkus: text()
    .array()
    .$type<ProductSku[]>()
    .notNull()
    .default(sql`'{}'::text[]`),
  managementMode: text().$type<ManagementMode>().notNull().default('CLIENT_MANAGED'),
  /** Only the flags set for this org; the rest take the catalogue defaults. */
  featureFlags: jsonb().$type<Partial<Record<string, boolean>>>().notNull().default({}),
  settings: jsonb().$type<Partial<OrgSettings>>().notNull().default({}),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
