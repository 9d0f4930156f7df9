import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './limits';

/** Query strings carry booleans as text. */
export const queryFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** A list in a query string, comma-separated or repeated; blanks are dropped. */
export const queryList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter(Boolean),
  );

/** `pageSize` and `pageNumber` (from 1) of a paged list. */
export const pageParams = {
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  pageNumber: z.coerce.number().int().min(1).default(1),
};
