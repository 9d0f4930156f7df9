import { z } from 'zod';
import { EVENT_FIELD_NAME_MAX_LENGTH } from './events';
import { pageParams } from './query-params';

/**
 * Watchlists (spec 2): an event field and a list of values that triggers and matching look for, in
 * the security domain or, with the fraud product, the fraud domain.
 */
export const WATCHLIST_DOMAINS = ['security', 'fraud'] as const;
export type WatchlistDomain = (typeof WATCHLIST_DOMAINS)[number];

export const WATCHLIST_MAX_ITEMS = 30_000;
/** From this many items the list is near its limit and the console warns. */
export const WATCHLIST_WARN_ITEMS = 29_000;
export const WATCHLIST_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
export const WATCHLIST_NAME_MAX_LENGTH = 200;
export const WATCHLIST_DESCRIPTION_MAX_LENGTH = 1000;
export const WATCHLIST_VALUE_MAX_LENGTH = 1000;

const domainSchema = z.enum(WATCHLIST_DOMAINS);

/** Values are trimmed; blank ones are dropped and repeats collapsed by the server. */
const valuesSchema = z.array(z.string().trim().max(WATCHLIST_VALUE_MAX_LENGTH));

/** PUT /watchlist/:id: the items change through their own routes. */
export const watchlistUpdateSchema = z.object({
  name: z.string().trim().min(1).max(WATCHLIST_NAME_MAX_LENGTH),
  description: z.string().trim().max(WATCHLIST_DESCRIPTION_MAX_LENGTH).default(''),
  field: z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH),
});
export type WatchlistUpdate = z.input<typeof watchlistUpdateSchema>;

/** POST /watchlist: a watchlist needs a field and at least one value. */
export const watchlistCreateSchema = watchlistUpdateSchema.extend({
  domain: domainSchema.default('security'),
  items: valuesSchema,
});
export type WatchlistCreate = z.input<typeof watchlistCreateSchema>;

export const watchlistSchema = z.object({
  id: z.string(),
  domain: domainSchema,
  name: z.string(),
  description: z.string(),
  field: z.string(),
  itemCount: z.number(),
  /** At least WATCHLIST_WARN_ITEMS items. */
  nearLimit: z.boolean(),
  createdBy: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Watchlist = z.infer<typeof watchlistSchema>;

/** GET /watchlists */
export const watchlistListQuerySchema = z.object({
  domain: domainSchema.default('security'),
  /** Part of the name, any case. */
  search: z.string().trim().max(WATCHLIST_NAME_MAX_LENGTH).optional(),
  ...pageParams,
});
export type WatchlistListQuery = z.input<typeof watchlistListQuerySchema>;

export const watchlistListSchema = z.object({ items: z.array(watchlistSchema), total: z.number() });
export type WatchlistList = z.infer<typeof watchlistListSchema>;

/** GET /watchlist/:id/items */
export const watchlistItemsQuerySchema = z.object({
  /** Part of the value, any case. */
  search: z.string().trim().max(WATCHLIST_VALUE_MAX_LENGTH).optional(),
  ...pageParams,
});
export type WatchlistItemsQuery = z.input<typeof watchlistItemsQuerySchema>;

export const watchlistItemsSchema = z.object({ items: z.array(z.string()), total: z.number() });
export type WatchlistItems = z.infer<typeof watchlistItemsSchema>;

/** POST and DELETE /watchlist/:id/items */
export const watchlistValuesSchema = z.object({ values: valuesSchema.min(1) });
export type WatchlistValues = z.input<typeof watchlistValuesSchema>;

export const WATCHLIST_UPLOAD_MODES = ['append', 'replace'] as const;
export type WatchlistUploadMode = (typeof WATCHLIST_UPLOAD_MODES)[number];

/** POST /watchlist/:id/upload */
export const watchlistUploadQuerySchema = z.object({
  mode: z.enum(WATCHLIST_UPLOAD_MODES).default('append'),
});

export const watchlistUploadResultSchema = z.object({
  watchlist: watchlistSchema,
  /** Distinct values the file held. */
  read: z.number(),
  /** Values that were not on the list before. */
  added: z.number(),
});
export type WatchlistUploadResult = z.infer<typeof watchlistUploadResultSchema>;
