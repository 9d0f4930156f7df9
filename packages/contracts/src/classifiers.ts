import { z } from 'zod';
import { pageParams } from './query-params';

/**
 * Classifiers (spec 3): a query whose matching events get metadata attributes and flags at ingest, or
 * are dropped. Library classifiers are kept by provider staff and apply to every organisation before
 * the organisation's own; only the provider may pause them.
 */
export const CLASSIFIER_NAME_MAX_LENGTH = 200;
export const CLASSIFIER_DESCRIPTION_MAX_LENGTH = 1000;
/** The query language's own limit (packages/query QUERY_MAX_LENGTH). */
export const CLASSIFIER_QUERY_MAX_LENGTH = 2048;
export const CLASSIFIER_MAX_METADATA = 50;
export const CLASSIFIER_METADATA_KEY_MAX_LENGTH = 200;
export const CLASSIFIER_METADATA_VALUE_MAX_LENGTH = 1000;
/** Classifiers of one organisation, and of the library. */
export const CLASSIFIER_MAX_COUNT = 500;
/** Metadata keys: letters, numbers, underscores (spec 3 section 5). */
export const CLASSIFIER_METADATA_KEY_PATTERN = /^[A-Za-z0-9_]+$/;

/** The options of a classifier besides its metadata, in the order the spec lists them. */
export const CLASSIFIER_OPTIONS = [
  'dropEvent',
  'skipThreatMatch',
  'skipAnomalyDetection',
  'skipAssetDetection',
  'acceleratedArchive',
] as const;
export type ClassifierOption = (typeof CLASSIFIER_OPTIONS)[number];

const options = {
  dropEvent: z.boolean().default(false),
  skipThreatMatch: z.boolean().default(false),
  skipAnomalyDetection: z.boolean().default(false),
  skipAssetDetection: z.boolean().default(false),
  acceleratedArchive: z.boolean().default(false),
};

/**
 * POST and PUT of a classifier. Metadata keys and values are checked by the server so that each fault
 * gets its own message (CLASSIFIER_INVALID_METADATA_KEY and the like).
 */
export const classifierInputSchema = z.object({
  name: z.string().trim().min(1).max(CLASSIFIER_NAME_MAX_LENGTH),
  description: z.string().trim().max(CLASSIFIER_DESCRIPTION_MAX_LENGTH).default(''),
  query: z.string().trim().min(1).max(CLASSIFIER_QUERY_MAX_LENGTH),
  metadata: z.record(z.string(), z.string()).default({}),
  ...options,
});
export type ClassifierInput = z.input<typeof classifierInputSchema>;

export const classifierSchema = z.object({
  id: z.string(),
  library: z.boolean(),
  name: z.string(),
  description: z.string(),
  query: z.string(),
  metadata: z.record(z.string(), z.string()),
  dropEvent: z.boolean(),
  skipThreatMatch: z.boolean(),
  skipAnomalyDetection: z.boolean(),
  skipAssetDetection: z.boolean(),
  acceleratedArchive: z.boolean(),
  paused: z.boolean(),
  /** Place in the order of application, from 1. */
  position: z.number(),
  /** Whether the caller may change, pause or delete it. */
  editable: z.boolean(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Classifier = z.infer<typeof classifierSchema>;

/** GET of a list: in the order of application. */
export const classifierListQuerySchema = z.object({
  /** Part of the name, any case. */
  search: z.string().trim().max(CLASSIFIER_NAME_MAX_LENGTH).optional(),
  ...pageParams,
});
export type ClassifierListQuery = z.input<typeof classifierListQuerySchema>;

export const classifierListSchema = z.object({
  items: z.array(classifierSchema),
  total: z.number(),
  /** Whether the caller may add classifiers to this list and reorder it. */
  editable: z.boolean(),
});
export type ClassifierList = z.infer<typeof classifierListSchema>;

/** PUT of the order: every classifier of the list once, first applied first. */
export const classifierOrderSchema = z.object({
  ids: z.array(z.uuid()).max(CLASSIFIER_MAX_COUNT),
});
export type ClassifierOrder = z.infer<typeof classifierOrderSchema>;

export const classifierPausedSchema = z.object({ paused: z.boolean() });
export type ClassifierPaused = z.infer<typeof classifierPausedSchema>;
