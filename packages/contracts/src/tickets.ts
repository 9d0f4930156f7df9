import { z } from 'zod';
import { eventSchema, SEARCH_INTERVAL_TYPES } from './events';
import { pageParams, queryFlag, queryList } from './query-params';

/** Tickets (spec 3): incidents and tasks. The URL segment of each kind is its lower-case name. */
export const TICKET_KINDS = ['incident', 'task'] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];

/** Slug prefixes: INC-1042, TASK-17. */
export const TICKET_SLUG_PREFIX: Record<TicketKind, string> = { incident: 'INC', task: 'TASK' };

/** Spec 3 section 4. */
export const INCIDENT_STATES = [
  'TRIAGE',
  'ANALYSIS',
  'REMEDIATION',
  'RESOLVED',
  'CLOSED',
  'INVALID',
] as const;
export const TASK_STATES = ['OPEN', 'CLOSED', 'INVALID'] as const;
export const TICKET_STATES = [...INCIDENT_STATES, 'OPEN'] as const;
export type TicketState = (typeof TICKET_STATES)[number];

export const TICKET_STATES_OF: Record<TicketKind, readonly TicketState[]> = {
  incident: INCIDENT_STATES,
  task: TASK_STATES,
};

/** The state a new ticket starts in. */
export const TICKET_INITIAL_STATE: Record<TicketKind, TicketState> = { incident: 'TRIAGE', task: 'OPEN' };

/** Spec 3: open incidents are those in Triage or Analysis; closed means Closed. */
export const INCIDENT_OPEN_STATES: readonly TicketState[] = ['TRIAGE', 'ANALYSIS'];

/**
 * The list filters (spec 3 names In Progress and Pending without defining them). In progress: work has
 * started (incidents in Analysis or Remediation, tasks Open with an owner). Pending: waiting for someone
 * to take it (incidents in Triage, tasks Open without an owner). Open: neither closed, invalid nor
 * resolved.
 */
export const TICKET_FILTERS = ['all', 'open', 'inProgress', 'pending'] as const;
export type TicketFilter = (typeof TICKET_FILTERS)[number];

export const TICKET_SORT_FIELDS = [
  'number',
  'title',
  'state',
  'createdOn',
  'modifiedOn',
  'dueDate',
  'slaDate',
] as const;
export type TicketSortField = (typeof TICKET_SORT_FIELDS)[number];

export const TICKET_TITLE_MAX_LENGTH = 200;
export const TICKET_TEXT_MAX_LENGTH = 20_000;
export const TICKET_COMMENT_MAX_LENGTH = 10_000;
export const TICKET_MAX_WATCHERS = 50;
/** Spec 3 section 9: the ticket CSV download holds at most 1,000 tickets. */
export const TICKET_CSV_MAX_ROWS = 1000;
/** Alerts one escalation to a new incident takes at most. */
export const TICKET_ESCALATE_MAX_ALERTS = 100;

/** GET /incidents and /tasks; the CSV download takes the same filters without paging. */
export const ticketFilterQuerySchema = z.object({
  filter: z.enum(TICKET_FILTERS).default('all'),
  /** Comma-separated or repeated states of the kind. */
  state: queryList.pipe(z.array(z.enum(TICKET_STATES)).max(TICKET_STATES.length)).optional(),
  /** Part of the slug, title, description or external id. */
  q: z.string().trim().max(200).optional(),
  ownerId: z.uuid().optional(),
  sortBy: z.enum(TICKET_SORT_FIELDS).default('number'),
  desc: queryFlag.default(true),
});
export const ticketListQuerySchema = ticketFilterQuerySchema.extend(pageParams);
export type TicketListQuery = z.input<typeof ticketListQuerySchema>;

export const ticketRefSchema = z.object({
  id: z.string(),
  kind: z.enum(TICKET_KINDS),
  slug: z.string(),
  title: z.string(),
  state: z.enum(TICKET_STATES),
});
export type TicketRef = z.infer<typeof ticketRefSchema>;

const person = z.object({ id: z.string(), name: z.string() });

export const ticketSchema = ticketRefSchema.extend({
  description: z.string(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  resolution: z.string().nullable(),
  summaryNote: z.string(),
  dueDate: z.string().nullable(),
  slaDate: z.string().nullable(),
  externalId: z.string().nullable(),
  parentId: z.string().nullable(),
  /** Optimistic concurrency: every change sends the version it read. */
  version: z.number(),
  createdBy: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketListSchema = z.object({ items: z.array(ticketSchema), total: z.number() });
export type TicketList = z.infer<typeof ticketListSchema>;

export const ticketCommentSchema = z.object({
  id: z.string(),
  authorId: z.string().nullable(),
  authorName: z.string().nullable(),
  body: z.string(),
  createdOn: z.string(),
});
export type TicketComment = z.infer<typeof ticketCommentSchema>;

export const ticketHistorySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  details: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type TicketHistoryEntry = z.infer<typeof ticketHistorySchema>;

/** Spec 3 sections 5 and 9: fewer than 50 files per ticket, 32 MiB each. */
export const TICKET_FILES_LIMIT = 50;
export const TICKET_FILE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The file types a ticket accepts, by extension, each with the content type it is served as. The
 * server checks the file's bytes against the type: PDF, PNG, JPEG, GIF and ZIP (Office documents are
 * ZIP files) by their magic numbers, text types by being UTF-8 text without NUL bytes.
 */
export const TICKET_FILE_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
} as const satisfies Record<string, string>;

export const ticketFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
});
export type TicketFile = z.infer<typeof ticketFileSchema>;

export const ticketDetailSchema = ticketSchema.extend({
  parent: ticketRefSchema.nullable(),
  watchers: z.array(person),
  links: z.array(ticketRefSchema),
  subtasks: z.array(ticketRefSchema),
  comments: z.array(ticketCommentSchema),
  history: z.array(ticketHistorySchema),
  files: z.array(ticketFileSchema),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

const title = z.string().trim().min(1).max(TICKET_TITLE_MAX_LENGTH);
const longText = z.string().trim().max(TICKET_TEXT_MAX_LENGTH);
const isoDate = z.iso.datetime({ offset: true });
const version = z.number().int().min(1);

/** POST /incident and /task. */
export const ticketCreateSchema = z.object({
  title,
  description: longText.default(''),
  ownerId: z.uuid().nullable().optional(),
  watcherIds: z.array(z.uuid()).max(TICKET_MAX_WATCHERS).default([]),
  dueDate: isoDate.nullable().optional(),
  slaDate: isoDate.nullable().optional(),
  externalId: z.string().trim().max(200).nullable().optional(),
  /** The parent ticket's slug (subtasks). */
  parentSlug: z.string().trim().max(40).nullable().optional(),
  /** A template of the organisation: its tasks become subtasks, its watchers join `watcherIds`. */
  templateId: z.uuid().nullable().optional(),
});
export type TicketCreateInput = z.input<typeof ticketCreateSchema>;

/** PATCH /incident/:ref and /task/:ref: the fields given change; `version` is the one read. */
export const ticketUpdateSchema = z.object({
  version,
  title: title.optional(),
  description: longText.optional(),
  ownerId: z.uuid().nullable().optional(),
  watcherIds: z.array(z.uuid()).max(TICKET_MAX_WATCHERS).optional(),
  summaryNote: longText.optional(),
  dueDate: isoDate.nullable().optional(),
  slaDate: isoDate.nullable().optional(),
  externalId: z.string().trim().max(200).nullable().optional(),
  parentSlug: z.string().trim().max(40).nullable().optional(),
});
export type TicketUpdateInput = z.input<typeof ticketUpdateSchema>;

/** PUT /incident/:ref/state. The state is checked against the kind by the server. */
export const ticketStateInputSchema = z.object({
  version,
  state: z.string().trim().min(1).max(40),
  resolution: z.string().trim().min(1).max(TICKET_TEXT_MAX_LENGTH).optional(),
});
export type TicketStateInput = z.infer<typeof ticketStateInputSchema>;

export const ticketCommentInputSchema = z.object({
  body: z.string().trim().min(1).max(TICKET_COMMENT_MAX_LENGTH),
});

export const ticketLinkInputSchema = z.object({ slug: z.string().trim().min(1).max(40) });

/** POST /alerts/escalate: a new incident from alerts of the inbox. */
export const alertEscalateInputSchema = z.object({
  ids: z.array(z.uuid()).min(1).max(TICKET_ESCALATE_MAX_ALERTS),
  title: title.optional(),
});
export type AlertEscalateInput = z.infer<typeof alertEscalateInputSchema>;

export const linkedAlertSchema = z.object({
  id: z.string(),
  title: z.string(),
  severity: z.string(),
  triggerName: z.string().nullable(),
  firedAt: z.string(),
  escalatedAt: z.string().nullable(),
});
export type LinkedAlert = z.infer<typeof linkedAlertSchema>;

export const similarIncidentSchema = ticketRefSchema.extend({
  /** What it shares with the incident: hosts, IPs, users and triggers. */
  shared: z.object({
    hosts: z.array(z.string()),
    ips: z.array(z.string()),
    users: z.array(z.string()),
    triggers: z.array(z.string()),
  }),
});
export type SimilarIncident = z.infer<typeof similarIncidentSchema>;

export const ticketPageQuerySchema = z.object(pageParams);

/** The universal ticket inbox: tickets of every organisation the user may read them in. */
export const universalTicketSchema = ticketSchema.extend({ orgId: z.string(), orgName: z.string() });
export type UniversalTicket = z.infer<typeof universalTicketSchema>;

export const universalTicketListSchema = z.object({
  items: z.array(universalTicketSchema),
  total: z.number(),
  /** The organisations read, by name. */
  orgs: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type UniversalTicketList = z.infer<typeof universalTicketListSchema>;

/** Tickets one bulk close takes at most. */
export const TICKET_BULK_CLOSE_MAX = 100;

/** POST /universal-inbox/incidents/close and /tasks/close: each ticket with the version read. */
export const ticketBulkCloseSchema = z.object({
  tickets: z
    .array(z.object({ orgId: z.uuid(), id: z.uuid(), version }))
    .min(1)
    .max(TICKET_BULK_CLOSE_MAX),
});
export type TicketBulkCloseInput = z.infer<typeof ticketBulkCloseSchema>;

export const ticketBulkCloseResultSchema = z.object({
  results: z.array(
    z.object({
      orgId: z.string(),
      id: z.string(),
      slug: z.string().nullable(),
      /** closed, or the error key why not (TICKET_SAME_STATE, TICKET_MODIFIED, TICKET_NOT_FOUND, ORG_NOT_AUTHORISED, PERMISSION_DENIED). */
      outcome: z.string(),
    }),
  ),
  closed: z.number(),
  failed: z.number(),
});
export type TicketBulkCloseResult = z.infer<typeof ticketBulkCloseResultSchema>;

/** Ticket templates (spec 1: /ticket-templates, TRAC_USER). */
export const TICKET_TEMPLATE_MAX_TASKS = 20;

export const ticketTemplateTaskSchema = z.object({ title, description: longText.default('') });

export const ticketTemplateInputSchema = z.object({
  name: z.string().trim().min(1).max(100),
  title,
  description: longText.default(''),
  tasks: z.array(ticketTemplateTaskSchema).max(TICKET_TEMPLATE_MAX_TASKS).default([]),
  watcherIds: z.array(z.uuid()).max(TICKET_MAX_WATCHERS).default([]),
});
export type TicketTemplateInput = z.input<typeof ticketTemplateInputSchema>;

export const ticketTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  tasks: z.array(z.object({ title: z.string(), description: z.string() })),
  watchers: z.array(person),
  modifiedOn: z.string(),
});
export type TicketTemplate = z.infer<typeof ticketTemplateSchema>;

/**
 * Drafts (spec 1: /universal-ticket-inbox/draft, TRAC_ENGINEER): a ticket not yet submitted, kept by
 * the organisation and shared by its engineers. The fields are checked against the organisation's
 * people and dates when the draft is submitted, not while it is only saved.
 */
export const ticketDraftInputSchema = z.object({
  kind: z.enum(TICKET_KINDS),
  title,
  description: longText.default(''),
  ownerId: z.uuid().nullable().default(null),
  watcherIds: z.array(z.uuid()).max(TICKET_MAX_WATCHERS).default([]),
  dueDate: isoDate.nullable().default(null),
  slaDate: isoDate.nullable().default(null),
  externalId: z.string().trim().max(200).nullable().default(null),
});
export type TicketDraftInput = z.input<typeof ticketDraftInputSchema>;

/** PUT /ticket-draft/:id: the draft's fields with the version read. */
export const ticketDraftUpdateSchema = ticketDraftInputSchema.extend({ version });
export type TicketDraftUpdate = z.input<typeof ticketDraftUpdateSchema>;

/** POST /ticket-draft/:id/submit and DELETE /ticket-draft/:id name the version read. */
export const ticketDraftVersionSchema = z.object({ version });

export const ticketDraftSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  kind: z.enum(TICKET_KINDS),
  title: z.string(),
  description: z.string(),
  ownerId: z.string().nullable(),
  watcherIds: z.array(z.string()),
  dueDate: z.string().nullable(),
  slaDate: z.string().nullable(),
  externalId: z.string().nullable(),
  version: z.number(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type TicketDraft = z.infer<typeof ticketDraftSchema>;

export const ticketDraftListSchema = z.object({
  items: z.array(ticketDraftSchema),
  total: z.number(),
  /** The organisations read, by name. */
  orgs: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type TicketDraftList = z.infer<typeof ticketDraftListSchema>;

export const ticketDraftListQuerySchema = z.object({
  kind: z.enum(TICKET_KINDS).optional(),
  /** Part of the title or description. */
  q: z.string().trim().max(200).optional(),
  ...pageParams,
});

/** Spec 3 section 9: a search attached to a ticket keeps the first 100 matching events. */
export const TICKET_SEARCH_EVENTS_KEPT = 100;
/** Searches one ticket holds at most. */
export const TICKET_SEARCHES_LIMIT = 20;

/** POST /incident/:ref/searches: an event search, by range or by `intervalType`. */
export const ticketSearchInputSchema = z.object({
  query: z.string().trim().max(2048).default(''),
  begin: isoDate.optional(),
  end: isoDate.optional(),
  intervalType: z.enum(SEARCH_INTERVAL_TYPES).optional(),
});
export type TicketSearchInput = z.input<typeof ticketSearchInputSchema>;

export const ticketSearchSchema = z.object({
  id: z.string(),
  query: z.string(),
  begin: z.string(),
  end: z.string(),
  /** Events that matched when the search was attached. */
  total: z.number(),
  /** The kept events the viewer may see, newest first. */
  events: z.array(eventSchema),
  /** Kept events left out because the viewer's data restrictions do not show them (any more). */
  hiddenCount: z.number(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
});
export type TicketSearch = z.infer<typeof ticketSearchSchema>;
