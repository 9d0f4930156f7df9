import { z } from 'zod';
import { SEARCH_INTERVAL_TYPES } from './events';
import { pageParams } from './query-params';

/**
 * Reports (spec 3): a template names charts in order; an on-demand report builds a template over a
 * range into a PDF (cover, then each chart as a picture with its data table); a report schedule
 * builds one on a cadence and e-mails the PDF to its recipients.
 */

/** Report states (spec 3 section 4): requested, waiting for data, building, completed, failed. */
export const REPORT_STATES = ['REQUESTED', 'WAITING_FOR_DATA', 'BUILDING', 'COMPLETED', 'FAILED'] as const;
export type ReportState = (typeof REPORT_STATES)[number];
/** States in which the build job has not finished yet: the list polls while one is shown. */
export const REPORT_PENDING_STATES: readonly ReportState[] = ['REQUESTED', 'WAITING_FOR_DATA', 'BUILDING'];

/** Report schedule states (spec 3 section 3). NOT_COPIED: a library schedule not yet copied here. */
export const REPORT_SCHEDULE_STATES = ['NOT_COPIED', 'ACTIVE', 'PAUSED', 'DELETED'] as const;
export type ReportScheduleState = (typeof REPORT_SCHEDULE_STATES)[number];
/** Request states (spec 3 section 3): the outcome of a schedule's latest run. */
export const REPORT_REQUEST_STATES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type ReportRequestState = (typeof REPORT_REQUEST_STATES)[number];

export const REPORT_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/** Report ranges (spec 3 section 9). */
export const REPORT_RANGES = SEARCH_INTERVAL_TYPES;
export const reportRangeSchema = z.enum(SEARCH_INTERVAL_TYPES);
export type ReportRange = z.infer<typeof reportRangeSchema>;

export const REPORT_NAME_MAX_LENGTH = 200;
export const REPORT_DESCRIPTION_MAX_LENGTH = 1000;
/** Not shown by the spec; as many charts as a dashboard holds. */
export const REPORT_TEMPLATE_MAX_CHARTS = 24;
/** Not shown by the spec: a schedule mails a team, not a mailing list. */
export const REPORT_SCHEDULE_MAX_RECIPIENTS = 50;
/** Rows of one chart's data table printed in the PDF; the rest is counted. */
export const REPORT_PDF_MAX_TABLE_ROWS = 500;

// ---------------------------------------------------------------------------------------------------
// Templates

export const reportTemplateInputSchema = z.object({
  name: z.string().trim().min(1).max(REPORT_NAME_MAX_LENGTH),
  description: z.string().trim().max(REPORT_DESCRIPTION_MAX_LENGTH).default(''),
  /** Charts in the order the PDF shows them; at least one (REPORT_TEMPLATE_NEEDS_CHART). */
  chartIds: z.array(z.uuid()).max(200).default([]),
  /** Provider administrators only: a library template, of library charts only, offered to every customer. */
  library: z.boolean().default(false),
});
export type ReportTemplateInput = z.input<typeof reportTemplateInputSchema>;

export const reportTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  charts: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), live: z.boolean() })),
  library: z.boolean(),
  /** The library template this one was copied from. */
  copiedFromId: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type ReportTemplate = z.infer<typeof reportTemplateSchema>;

export const reportListQuerySchema = z.object({
  search: z.string().trim().max(REPORT_NAME_MAX_LENGTH).optional(),
  /** Templates and schedules: true lists the provider's library instead of the organisation's. */
  library: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .default(false),
  ...pageParams,
});
export type ReportListQuery = z.input<typeof reportListQuerySchema>;

export const reportTemplateListSchema = z.object({ items: z.array(reportTemplateSchema), total: z.number() });
export type ReportTemplateList = z.infer<typeof reportTemplateListSchema>;

// ---------------------------------------------------------------------------------------------------
// On-demand reports

export const reportRequestSchema = z.object({
  templateId: z.uuid(),
  range: reportRangeSchema,
});
export type ReportRequest = z.infer<typeof reportRequestSchema>;

export const reportSchema = z.object({
  id: z.string(),
  templateId: z.string().nullable(),
  scheduleId: z.string().nullable(),
  name: z.string(),
  range: reportRangeSchema,
  begin: z.string(),
  end: z.string(),
  state: z.enum(REPORT_STATES),
  /** FAILED: the catalogue key of what went wrong (REPORT_GENERATION_FAILED). */
  errorKey: z.string().nullable(),
  /** Size of the PDF in bytes once completed. */
  size: z.number().nullable(),
  requestedByName: z.string().nullable(),
  requestedOn: z.string(),
  completedOn: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportListSchema = z.object({ items: z.array(reportSchema), total: z.number() });
export type ReportList = z.infer<typeof reportListSchema>;

// ---------------------------------------------------------------------------------------------------
// Schedules

export const reportScheduleInputSchema = z.object({
  templateId: z.uuid(),
  range: reportRangeSchema,
  frequency: z.enum(REPORT_FREQUENCIES),
  /** E-mail addresses the PDF is sent to: 1 to 50; none for a library schedule (each organisation adds its own). */
  recipients: z.array(z.email().max(320)).max(REPORT_SCHEDULE_MAX_RECIPIENTS).default([]),
  /** Provider administrators only: a library schedule of a library template (never runs itself). */
  library: z.boolean().default(false),
});
export type ReportScheduleInput = z.input<typeof reportScheduleInputSchema>;

/** Copying a NOT_COPIED library schedule into the organisation: it becomes ACTIVE with these recipients. */
export const reportScheduleActivateSchema = z.object({
  recipients: z.array(z.email().max(320)).min(1).max(REPORT_SCHEDULE_MAX_RECIPIENTS),
});
export type ReportScheduleActivate = z.infer<typeof reportScheduleActivateSchema>;

/** POST /report-schedules/library/copy-to-customers. */
export const reportLibraryCopyResultSchema = z.object({
  copied: z.number(),
  skipped: z.number(),
  orgs: z.number(),
});
export type ReportLibraryCopyResult = z.infer<typeof reportLibraryCopyResultSchema>;

export const reportScheduleSchema = z.object({
  id: z.string(),
  templateId: z.string(),
  templateName: z.string(),
  range: reportRangeSchema,
  frequency: z.enum(REPORT_FREQUENCIES),
  recipients: z.array(z.string()),
  state: z.enum(REPORT_SCHEDULE_STATES),
  library: z.boolean(),
  /** The library schedule this one was copied from. */
  copiedFromId: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastRunState: z.enum(REPORT_REQUEST_STATES).nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

export const reportScheduleListSchema = z.object({ items: z.array(reportScheduleSchema), total: z.number() });
export type ReportScheduleList = z.infer<typeof reportScheduleListSchema>;

/** The first run of a schedule after `from`: the next midnight UTC, Monday, or first of the month. */
export function nextReportRun(frequency: ReportFrequency, from: Date): Date {
  const day = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const DAY = 86_400_000;
  switch (frequency) {
    case 'DAILY':
      return new Date(day + DAY);
    case 'WEEKLY': {
      const daysToMonday = (8 - from.getUTCDay()) % 7 || 7;
      return new Date(day + daysToMonday * DAY);
    }
    default:
      return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  }
}
