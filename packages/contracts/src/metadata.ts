import { z } from 'zod';
import { pageParams, queryFlag } from './query-params';

/** Mantine colours a tag may carry. */
export const TAG_COLORS = [
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
] as const;
export type TagColor = (typeof TAG_COLORS)[number];

export const TAG_NAME_MAX_LENGTH = 50;
export const TAG_DESCRIPTION_MAX_LENGTH = 500;

/** A tag as a user enters it; the name is unique in its organisation, ignoring case. */
export const tagInputSchema = z.object({
  name: z.string().trim().min(1).max(TAG_NAME_MAX_LENGTH),
  color: z.enum(TAG_COLORS).default('gray'),
  description: z.string().trim().max(TAG_DESCRIPTION_MAX_LENGTH).default(''),
});
export type TagInput = z.input<typeof tagInputSchema>;

export const tagSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.enum(TAG_COLORS),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof tagSchema>;

export const tagListSchema = z.object({ items: z.array(tagSchema), total: z.number() });

/** GET /api/org/:orgId/tags: `search` matches names and descriptions; sorted by name. */
export const tagListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  ...pageParams,
  sortBy: z.enum(['name']).default('name'),
  desc: queryFlag.default(false),
});

/** One row of an organisation's activity (audit) log. */
export const activityLogEntrySchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  /** Dotted verb, e.g. `tag.created`. */
  action: z.string(),
  actorUserId: z.string().nullable(),
  actorName: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** Changes carry `before` and `after`. */
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

/** GET /api/org/:orgId/activity-logs, newest first. */
export const activityLogQuerySchema = z.object({
  actorUserId: z.uuid().optional(),
  /** Actions starting with this text, e.g. `tag.` */
  action: z.string().trim().max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Text found in the action, target type or target id. */
  query: z.string().trim().max(200).optional(),
  ...pageParams,
});

export const activityLogListSchema = z.object({ items: z.array(activityLogEntrySchema), total: z.number() });

/**
 * Notes of the activity log (spec 3: a top-level note or a reply, with a log type), kept on incidents,
 * tasks and other objects and shown as a timeline. The log type says what the note records.
 */
export const ACTIVITY_LOG_TYPES = ['NOTE', 'INVESTIGATION', 'REMEDIATION', 'COMMUNICATION'] as const;
export type ActivityLogType = (typeof ACTIVITY_LOG_TYPES)[number];
export const ACTIVITY_NOTE_MAX_LENGTH = 10_000;

/** A new note; `parentId` names the top-level note it replies to (replies to replies are refused). */
export const activityNoteInputSchema = z.object({
  body: z.string().trim().min(1).max(ACTIVITY_NOTE_MAX_LENGTH),
  logType: z.enum(ACTIVITY_LOG_TYPES).default('NOTE'),
  parentId: z.uuid().nullable().default(null),
});
export type ActivityNoteInput = z.input<typeof activityNoteInputSchema>;

export const activityReplySchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  logType: z.enum(ACTIVITY_LOG_TYPES),
  body: z.string(),
  authorId: z.string().nullable(),
  authorName: z.string().nullable(),
  createdOn: z.string(),
});
export type ActivityReply = z.infer<typeof activityReplySchema>;

/** A top-level note with its replies, oldest reply first. */
export const activityNoteSchema = activityReplySchema.extend({ replies: z.array(activityReplySchema) });
export type ActivityNote = z.infer<typeof activityNoteSchema>;
