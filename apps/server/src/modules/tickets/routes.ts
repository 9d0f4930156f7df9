import fastifyMultipart from '@fastify/multipart';
import {
  TICKET_SEARCH_EVENTS_KEPT,
  TICKET_SEARCHES_LIMIT,
  ticketSearchInputSchema,
  ticketSearchSchema,
  ACTIVITY_LOG_TYPES,
  ACTIVITY_NOTE_MAX_LENGTH,
  activityNoteInputSchema,
  activityNoteSchema,
  linkedAlertSchema,
  similarIncidentSchema,
  ticketCommentInputSchema,
  ticketCreateSchema,
  ticketDetailSchema,
  ticketFilterQuerySchema,
  ticketLinkInputSchema,
  ticketListQuerySchema,
  ticketListSchema,
  ticketStateInputSchema,
  ticketUpdateSchema,
  ticketBulkCloseResultSchema,
  ticketBulkCloseSchema,
  TICKET_BULK_CLOSE_MAX,
  universalTicketListSchema,
  ticketDraftInputSchema,
  ticketDraftListQuerySchema,
  ticketDraftListSchema,
  ticketDraftSchema,
  ticketDraftUpdateSchema,
  ticketDraftVersionSchema,
  ticketTemplateInputSchema,
  ticketTemplateSchema,
  TICKET_TEMPLATE_MAX_TASKS,
  TICKET_CSV_MAX_ROWS,
  TICKET_FILE_MAX_BYTES,
  TICKET_FILE_TYPES,
  TICKET_FILES_LIMIT,
  type Permission,
  type TicketKind,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessOf } from '../../platform/access';
import { AppError, validationFailed } from '../../platform/errors';
import { attachment, orgParamsSchema } from '../../platform/http';
import { spoolUploadedFiles, UploadRefusedError, type SpooledUpload } from '../../platform/uploads';
import { alertsOfTicket } from '../alerts/service';
import {
  addComment,
  addTicketNote,
  addTicketFiles,
  changeTicketState,
  claimTicket,
  createTicket,
  exportTicketsCsv,
  getTicket,
  linkTicket,
  listTickets,
  removeTicketFile,
  ticketFileContent,
  ticketNotes,
  ticketView,
  updateTicket,
  type Actor,
  type TicketDeps,
} from './service';
import { attachTicketSearch, removeTicketSearch, ticketSearchList } from './searches';
import { similarIncidents } from './similar';
import { createTemplate, deleteTemplate, listTemplates, replaceTemplate } from './templates';
import { createDraft, deleteDraft, getDraft, replaceDraft, submitDraft } from './drafts';
import { bulkCloseTickets, listUniversalDrafts, listUniversalTickets, TICKET_PERMISSIONS } from './universal';

const refParams = orgParamsSchema.extend({ ref: z.string().min(1).max(64) });
const fileParams = refParams.extend({ fileId: z.uuid() });
const TAGS = ['tickets'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

interface KindRoutes {
  kind: TicketKind;
  /** Singular path segment and plural list path. */
  one: string;
  many: string;
  label: string;
  view: Permission;
  edit: Permission;
}

const KINDS: KindRoutes[] = [
  {
    kind: 'incident',
    one: 'incident',
    many: 'incidents',
    label: 'incident',
    view: 'INCIDENT_VIEW',
    edit: 'INCIDENT_EDIT',
  },
  { kind: 'task', one: 'task', many: 'tasks', label: 'task', view: 'TASK_VIEW', edit: 'TASK_EDIT' },
];

const FILTERS =
  '`filter`: all (default); open (not resolved, closed or invalid); inProgress (incidents in Analysis or ' +
  'Remediation, tasks Open with an owner); pending (incidents in Triage, tasks Open without an owner). ' +
  '`state` (comma-separated), `ownerId`, `q` (part of the slug, title, description or external id), ' +
  '`sortBy` number, title, state, createdOn, modifiedOn, dueDate, slaDate with `desc` (default true).';

const ONE = (label: string) =>
  `\`ref\` is the ${label}'s id or slug. 404 TICKET_NOT_FOUND for missing ${label}s and those of other ` +
  'organisations.';

const VERSION =
  '`version` is the version the client read: 409 TICKET_MODIFIED when the ticket changed meanwhile, and ' +
  'nothing is written.';

const FIELDS =
  '`ownerId` and `watcherIds` are active people of the organisation or authorised for it (400 TICKET_INVALID_OWNER, ' +
  'TICKET_INVALID_WATCHER); a new `dueDate` is not in the past (400 TICKET_INVALID_DUE_DATE); `parentSlug` ' +
  'names a ticket of the organisation (400 TICKET_INVALID_PARENT) that is not this one nor below it (400 ' +
  'TICKET_PARENT_CYCLE). Setting an owner on an incident in Triage moves it to Analysis; removing the owner ' +
  'of one in Analysis moves it back to Triage. The owner and watchers are e-mailed about every change but ' +
  'their own; each change is kept in the history with who and when.';

const TEMPLATE_FIELDS =
  `\`name\` unique in the organisation, any case (409 TICKET_TEMPLATE_NAME_IN_USE); \`title\`, \`description\`, ` +
  `up to ${TICKET_TEMPLATE_MAX_TASKS} \`tasks\` (title and description) and \`watcherIds\` (people of the ` +
  'organisation or authorised for it, 400 TICKET_INVALID_WATCHER).';

const FILE_TYPES = Object.keys(TICKET_FILE_TYPES).join(', ');

function uploadRefusal({ refusal }: UploadRefusedError): AppError {
  if (refusal.reason === 'fileTooLarge') {
    return new AppError(
      'PayloadTooLargeException',
      'TICKET_FILE_TOO_LARGE',
      `${refusal.filename} is larger than ${TICKET_FILE_MAX_BYTES} bytes`,
      { params: { 0: refusal.filename, maxBytes: TICKET_FILE_MAX_BYTES } },
    );
  }
  if (refusal.reason === 'tooManyFiles') {
    return validationFailed('TICKET_FILE_TOO_MANY', `A ticket holds fewer than ${TICKET_FILES_LIMIT} files`, {
      field: 'file',
      params: { limit: TICKET_FILES_LIMIT, count: TICKET_FILES_LIMIT },
    });
  }
  return validationFailed('TICKET_FILE_NO_FILE', 'Not a multipart upload', { field: 'file' });
}

/** Incidents and tasks (spec 3): lists, CSV download, details and every change. */
export const ticketRoutes =
  (deps: TicketDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;
    await app.register(fastifyMultipart, {
      limits: { files: TICKET_FILES_LIMIT - 1, fileSize: TICKET_FILE_MAX_BYTES, fields: 10, parts: 60 },
    });

    for (const { kind, one, many, label, view, edit } of KINDS) {
      const VIEW = { access: { permission: view } };
      const EDIT = { access: { permission: edit } };

      app.get(
        `/api/org/:orgId/${many}`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `List ${many}`,
            description: `${FILTERS} Paged by pageSize and pageNumber.`,
            params: orgParamsSchema,
            querystring: ticketListQuerySchema,
            response: { 200: ticketListSchema },
          },
        },
        async (request) => {
          const { state, ...query } = request.query;
          return listTickets(db, accessOf(request), kind, { ...query, states: state });
        },
      );

      app.get(
        `/api/org/:orgId/${many}-csv`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `Download ${many} as CSV`,
            description:
              `The list's filters and order; the first ${TICKET_CSV_MAX_ROWS} ${many}. ${FILTERS} Streams text/csv ` +
              `(attachment ${many}.csv) with the columns slug, title, state, owner, resolution, dueDate, slaDate, ` +
              'externalId, createdOn, modifiedOn, description. Cells starting with =, +, -, @ or a tab are prefixed ' +
              "with ' so spreadsheets read them as text.",
            params: orgParamsSchema,
            querystring: ticketFilterQuerySchema,
          },
        },
        async (request, reply) => {
          const { state, ...query } = request.query;
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${many}.csv"`)
            .send(exportTicketsCsv(db, accessOf(request), kind, { ...query, states: state }));
        },
      );

      app.post(
        `/api/org/:orgId/${one}`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Create ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              `The new ${label} takes the next slug of the organisation (${kind === 'incident' ? 'INC' : 'TASK'}-n) ` +
              `and starts ${kind === 'incident' ? 'in Triage (Analysis with an owner)' : 'Open'}. ${FIELDS} ` +
              '`templateId` names a ticket template of the organisation (400 TICKET_TEMPLATE_NOT_FOUND): its tasks ' +
              'are created as subtasks and its watchers (those still active) join `watcherIds`.',
            params: orgParamsSchema,
            body: ticketCreateSchema,
            response: { 201: ticketDetailSchema },
          },
        },
        async (request, reply) =>
          reply.status(201).send(await createTicket(deps, actorOf(request), kind, request.body)),
      );

      app.get(
        `/api/org/:orgId/${one}/:ref`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `One ${label} with its watchers, links, subtasks, comments and history`,
            description: ONE(label),
            params: refParams,
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) => getTicket(db, accessOf(request), kind, request.params.ref),
      );

      app.patch(
        `/api/org/:orgId/${one}/:ref`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Change fields of ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description: `The fields given change. ${VERSION} ${FIELDS} ${ONE(label)}`,
            params: refParams,
            body: ticketUpdateSchema,
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) => updateTicket(deps, actorOf(request), kind, request.params.ref, request.body),
      );

      app.put(
        `/api/org/:orgId/${one}/:ref/state`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Change the state of ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              (kind === 'incident'
                ? '`state` TRIAGE, ANALYSIS, REMEDIATION, RESOLVED, CLOSED or INVALID; RESOLVED needs a ' +
                  '`resolution` (400 TICKET_RESOLUTION_REQUIRED). '
                : '`state` OPEN, CLOSED or INVALID; tasks have no resolution (400 TICKET_RESOLUTION_INCIDENT_ONLY). ') +
              `Another state answers 400 TICKET_INVALID_STATE with the valid ones, the current one 409 ` +
              `TICKET_SAME_STATE. ${VERSION} ${ONE(label)}`,
            params: refParams,
            body: ticketStateInputSchema,
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) => changeTicketState(deps, actorOf(request), kind, request.params.ref, request.body),
      );

      app.post(
        `/api/org/:orgId/${one}/:ref/claim`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Claim ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              'The caller becomes the owner. Needs an SLA date (400 TICKET_CLAIM_NEEDS_SLA) and no owner yet ' +
              `(409 TICKET_ALREADY_CLAIMED). An incident in Triage moves to Analysis. ${ONE(label)}`,
            params: refParams,
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) => claimTicket(deps, actorOf(request), kind, request.params.ref),
      );

      app.post(
        `/api/org/:orgId/${one}/:ref/comments`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Comment on ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              'A comment adds to the ticket and needs no version. A comment by the owner of an incident in ' +
              `Triage moves it to Analysis. ${ONE(label)}`,
            params: refParams,
            body: ticketCommentInputSchema,
            response: { 201: ticketDetailSchema },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await addComment(deps, actorOf(request), kind, request.params.ref, request.body.body)),
      );

      app.get(
        `/api/org/:orgId/${one}/:ref/notes`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `The activity log's notes on ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              'The timeline: top-level notes newest first, each with its replies oldest first, with author, time ' +
              `and log type. ${ONE(label)}`,
            params: refParams,
            response: { 200: z.array(activityNoteSchema) },
          },
        },
        async (request) => ticketNotes(db, accessOf(request), kind, request.params.ref),
      );

      app.post(
        `/api/org/:orgId/${one}/:ref/notes`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Add a note or a reply to the activity log of ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              `\`body\` 1 to ${ACTIVITY_NOTE_MAX_LENGTH} characters after trimming; \`logType\` ` +
              `${ACTIVITY_LOG_TYPES.join(', ')} (default NOTE); \`parentId\` names the top-level note replied to: a ` +
              'note of this ticket (400 ACTIVITY_NOTE_INVALID_PARENT), not itself a reply (400 ' +
              `ACTIVITY_NOTE_REPLY_TO_REPLY). Needs no version. Answers the timeline. ${ONE(label)}`,
            params: refParams,
            body: activityNoteInputSchema,
            response: { 201: z.array(activityNoteSchema) },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await addTicketNote(db, actorOf(request), kind, request.params.ref, request.body)),
      );

      const SEARCHES =
        `Needs EVENT_VIEW too (403 PERMISSION_DENIED). A search keeps the first ${TICKET_SEARCH_EVENTS_KEPT} matching ` +
        "events, copied when attached (under the attaching user's data restrictions), so they stay when the events " +
        'age out; a viewer with data restrictions sees only kept events their restrictions show today, and ' +
        '`hiddenCount` counts the rest.';

      app.get(
        `/api/org/:orgId/${one}/:ref/searches`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `Event searches attached to ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description: `Oldest first. ${SEARCHES} ${ONE(label)}`,
            params: refParams,
            response: { 200: z.array(ticketSearchSchema) },
          },
        },
        async (request) => ticketSearchList(db, accessOf(request), kind, request.params.ref),
      );

      app.post(
        `/api/org/:orgId/${one}/:ref/searches`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Attach an event search to ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              '`query` in the query language (400 SEARCH_INVALID_QUERY), and `begin` and `end` (ISO) or `intervalType` ' +
              `(default the last 24 hours) with the search's range rules. At most ${TICKET_SEARCHES_LIMIT} searches per ` +
              `ticket (400 TICKET_SEARCH_TOO_MANY). The history names the query. Answers the ticket's searches. ` +
              `${SEARCHES} ${ONE(label)}`,
            params: refParams,
            body: ticketSearchInputSchema,
            response: { 201: z.array(ticketSearchSchema) },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await attachTicketSearch(deps, actorOf(request), kind, request.params.ref, request.body)),
      );

      app.delete(
        `/api/org/:orgId/${one}/:ref/searches/:searchId`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Remove an event search from ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              `Its kept events go with it. 404 TICKET_SEARCH_NOT_FOUND for searches not of this ticket. ` +
              `Answers the ticket's searches. ${ONE(label)}`,
            params: refParams.extend({ searchId: z.uuid() }),
            response: { 200: z.array(ticketSearchSchema) },
          },
        },
        async (request) =>
          removeTicketSearch(deps, actorOf(request), kind, request.params.ref, request.params.searchId),
      );

      app.post(
        `/api/org/:orgId/${one}/:ref/links`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Link ${label === 'incident' ? 'an' : 'a'} ${label} with another ticket`,
            description:
              '`slug` names a ticket of the organisation of either kind (400 TICKET_NOT_FOUND), never this one ' +
              `(400 TICKET_SELF_LINK), not linked already (409 TICKET_ALREADY_LINKED). Links go both ways. ` +
              ONE(label),
            params: refParams,
            body: ticketLinkInputSchema,
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) =>
          linkTicket(deps, actorOf(request), kind, request.params.ref, request.body.slug, true),
      );

      app.delete(
        `/api/org/:orgId/${one}/:ref/links/:slug`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: 'Remove a link between two tickets',
            description: `404 TICKET_NOT_FOUND when they are not linked. ${ONE(label)}`,
            params: refParams.extend({ slug: z.string().min(1).max(40) }),
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) =>
          linkTicket(deps, actorOf(request), kind, request.params.ref, request.params.slug, false),
      );

      app.post(
        `/api/org/:orgId/${one}/:ref/files`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Attach files to ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              `multipart/form-data with one or more files of at most ${TICKET_FILE_MAX_BYTES} bytes each (413 ` +
              `TICKET_FILE_TOO_LARGE); the ${label} keeps fewer than ${TICKET_FILES_LIMIT} files (400 ` +
              `TICKET_FILE_TOO_MANY); no file answers 400 TICKET_FILE_NO_FILE. Accepted by extension: ${FILE_TYPES}. ` +
              'The bytes must match the type (PDF, PNG, JPEG, GIF and ZIP/Office by their magic numbers, txt, log and ' +
              'csv UTF-8 text without NUL bytes), or 415 TICKET_FILE_UNSUPPORTED_TYPE names the file; one refused ' +
              'file refuses the upload and nothing is written. The files are kept in the database; the history ' +
              `names them. ${ONE(label)}`,
            params: refParams,
            response: { 201: ticketDetailSchema },
          },
        },
        async (request, reply) => {
          let upload: SpooledUpload;
          try {
            upload = await spoolUploadedFiles(request, 'vigil-ticket-files');
          } catch (error) {
            throw error instanceof UploadRefusedError ? uploadRefusal(error) : error;
          }
          try {
            const detail = await addTicketFiles(
              deps,
              actorOf(request),
              kind,
              request.params.ref,
              upload.files,
            );
            return await reply.status(201).send(detail);
          } finally {
            await upload.remove();
          }
        },
      );

      app.get(
        `/api/org/:orgId/${one}/:ref/files/:fileId`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `Download a file of ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description:
              'The bytes as uploaded, with the content type checked at upload, `Content-Disposition: attachment` ' +
              'and `X-Content-Type-Options: nosniff`. 404 TICKET_FILE_NOT_FOUND for files not of this ticket. ' +
              ONE(label),
            params: fileParams,
          },
        },
        async (request, reply) => {
          const { ref, fileId } = request.params;
          const file = await ticketFileContent(db, accessOf(request).org.id, kind, ref, fileId);
          const type = file.contentType.startsWith('text/')
            ? `${file.contentType}; charset=utf-8`
            : file.contentType;
          return reply
            .header('content-type', type)
            .header('content-disposition', attachment(file.name))
            .header('x-content-type-options', 'nosniff')
            .header('cache-control', 'private, no-store')
            .send(file.content);
        },
      );

      app.delete(
        `/api/org/:orgId/${one}/:ref/files/:fileId`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Delete a file of ${label === 'incident' ? 'an' : 'a'} ${label}`,
            description: `The history keeps its name. 404 TICKET_FILE_NOT_FOUND for files not of this ticket. ${ONE(label)}`,
            params: fileParams,
            response: { 200: ticketDetailSchema },
          },
        },
        async (request) =>
          removeTicketFile(deps, actorOf(request), kind, request.params.ref, request.params.fileId),
      );

      const INBOX = { access: { permission: view, feature: 'universalTicketInbox' as const } };

      app.get(
        `/api/org/:orgId/universal-inbox/${many}`,
        {
          config: INBOX,
          schema: {
            tags: TAGS,
            summary: `The ${many} of every organisation the user may read them in`,
            description:
              `The universal ticket inbox (feature universalTicketInbox, ${view} in this organisation): one list of ` +
              `the ${many} of the user's home organisation and those they are authorised for, only where they hold ` +
              `${view}; each item names its organisation, and \`orgs\` lists the organisations read. ${FILTERS} ` +
              'Paged by pageSize and pageNumber.',
            params: orgParamsSchema,
            querystring: ticketListQuerySchema,
            response: { 200: universalTicketListSchema },
          },
        },
        async (request) => {
          const { state, ...query } = request.query;
          return listUniversalTickets(db, accessOf(request).user, kind, { ...query, states: state });
        },
      );

      app.post(
        `/api/org/:orgId/universal-inbox/${many}/close`,
        {
          config: INBOX,
          schema: {
            tags: TAGS,
            summary: `Close ${many} of several organisations`,
            description:
              `1 to ${TICKET_BULK_CLOSE_MAX} ${many}, each with its organisation and the version read. Each is closed ` +
              `by its organisation's rules, on its own: \`outcome\` is closed, or why not: ORG_NOT_AUTHORISED (not an ` +
              `organisation of the user), PERMISSION_DENIED (no ${edit} there), TICKET_NOT_FOUND, TICKET_MODIFIED ` +
              '(changed since read) or TICKET_SAME_STATE (closed already). Answers 200 with every outcome.',
            params: orgParamsSchema,
            body: ticketBulkCloseSchema,
            response: { 200: ticketBulkCloseResultSchema },
          },
        },
        async (request) => bulkCloseTickets(deps, accessOf(request).user, request.ip, kind, request.body),
      );
    }

    // The feature gates the inbox's list; a draft itself is the organisation's, for its engineers.
    const DRAFTS = { access: { permission: 'TRAC_ENGINEER' as const } };
    const DRAFT_INBOX = {
      access: { permission: 'TRAC_ENGINEER' as const, feature: 'universalTicketInbox' as const },
    };
    const draftParams = orgParamsSchema.extend({ id: z.uuid() });
    const DRAFT_FIELDS =
      '`kind` incident or task, `title` (1 to 200 characters), `description`, `ownerId`, `watcherIds`, `dueDate`, ' +
      '`slaDate` and `externalId`, all but kind and title optional. People and dates are checked when the draft ' +
      'is submitted, not while it is saved.';
    const DRAFT_ONE = '404 TICKET_DRAFT_NOT_FOUND for drafts of other organisations.';
    const DRAFT_VERSION =
      '`version` is the version read: 409 TICKET_MODIFIED when the draft changed (or was submitted) meanwhile.';

    app.get(
      '/api/org/:orgId/universal-inbox/drafts',
      {
        config: DRAFT_INBOX,
        schema: {
          tags: TAGS,
          summary: 'Ticket drafts of every organisation the user is an engineer in',
          description:
            "The universal ticket inbox's drafts (feature universalTicketInbox, TRAC_ENGINEER in this organisation): " +
            "the drafts of the user's home organisation and those they are authorised for, only where they hold " +
            'TRAC_ENGINEER, last changed first; each names its organisation, and `orgs` lists the organisations read. ' +
            'Filters `kind` and `q` (part of the title or description). Paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: ticketDraftListQuerySchema,
          response: { 200: ticketDraftListSchema },
        },
      },
      async (request) => listUniversalDrafts(db, accessOf(request).user, request.query),
    );

    app.post(
      '/api/org/:orgId/ticket-draft',
      {
        config: DRAFTS,
        schema: {
          tags: TAGS,
          summary: 'Save a ticket draft',
          description: `A ticket not yet submitted, kept by the organisation for its engineers. ${DRAFT_FIELDS}`,
          params: orgParamsSchema,
          body: ticketDraftInputSchema,
          response: { 201: ticketDraftSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createDraft(db, actorOf(request), request.body)),
    );

    app.get(
      '/api/org/:orgId/ticket-draft/:id',
      {
        config: DRAFTS,
        schema: {
          tags: TAGS,
          summary: 'One ticket draft',
          description: DRAFT_ONE,
          params: draftParams,
          response: { 200: ticketDraftSchema },
        },
      },
      async (request) => getDraft(db, actorOf(request), request.params.id),
    );

    app.put(
      '/api/org/:orgId/ticket-draft/:id',
      {
        config: DRAFTS,
        schema: {
          tags: TAGS,
          summary: 'Change a ticket draft',
          description: `Replaces every field. ${DRAFT_FIELDS} ${DRAFT_VERSION} ${DRAFT_ONE}`,
          params: draftParams,
          body: ticketDraftUpdateSchema,
          response: { 200: ticketDraftSchema },
        },
      },
      async (request) => replaceDraft(db, actorOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/org/:orgId/ticket-draft/:id/submit',
      {
        config: DRAFTS,
        schema: {
          tags: TAGS,
          summary: 'Submit a ticket draft: it becomes a ticket',
          description:
            'Creates the incident or task by the rules of creation (INCIDENT_EDIT or TASK_EDIT, 403 PERMISSION_DENIED; ' +
            'owner and watchers of the organisation, 400 TICKET_INVALID_OWNER or TICKET_INVALID_WATCHER; due date not ' +
            'in the past, 400 TICKET_INVALID_DUE_DATE) with its slug, and removes the draft in the same transaction: ' +
            `a refused submit keeps the draft, and a draft becomes one ticket once. ${DRAFT_VERSION} ${DRAFT_ONE}`,
          params: draftParams,
          body: ticketDraftVersionSchema,
          response: { 201: ticketDetailSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await submitDraft(
              deps,
              actorOf(request),
              request.params.id,
              request.body.version,
              (kind) => TICKET_PERMISSIONS[kind].edit,
            ),
          ),
    );

    app.delete(
      '/api/org/:orgId/ticket-draft/:id',
      {
        config: DRAFTS,
        schema: {
          tags: TAGS,
          summary: 'Delete a ticket draft',
          description: `For good. ${DRAFT_VERSION} ${DRAFT_ONE}`,
          params: draftParams,
          body: ticketDraftVersionSchema,
        },
      },
      async (request, reply) => {
        await deleteDraft(db, actorOf(request), request.params.id, request.body.version);
        return reply.status(204).send();
      },
    );

    const TEMPLATES = { access: { permission: 'TRAC_USER' as const } };
    const templateParams = orgParamsSchema.extend({ id: z.uuid() });

    app.get(
      '/api/org/:orgId/ticket-templates',
      {
        config: { access: { permission: ['TRAC_USER', 'INCIDENT_EDIT', 'TASK_EDIT'] as Permission[] } },
        schema: {
          tags: TAGS,
          summary: "The organisation's ticket templates",
          description:
            'By name. Readable to TRAC_USER and to those who create tickets (INCIDENT_EDIT or TASK_EDIT).',
          params: orgParamsSchema,
          response: { 200: z.array(ticketTemplateSchema) },
        },
      },
      async (request) => listTemplates(db, accessOf(request).org.id),
    );

    app.post(
      '/api/org/:orgId/ticket-template',
      {
        config: TEMPLATES,
        schema: {
          tags: TAGS,
          summary: 'Create a ticket template',
          description: TEMPLATE_FIELDS,
          params: orgParamsSchema,
          body: ticketTemplateInputSchema,
          response: { 201: ticketTemplateSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createTemplate(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/ticket-template/:id',
      {
        config: TEMPLATES,
        schema: {
          tags: TAGS,
          summary: 'Replace a ticket template',
          description: `${TEMPLATE_FIELDS} 404 TICKET_TEMPLATE_NOT_FOUND for templates of other organisations.`,
          params: templateParams,
          body: ticketTemplateInputSchema,
          response: { 200: ticketTemplateSchema },
        },
      },
      async (request) => replaceTemplate(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/ticket-template/:id',
      {
        config: TEMPLATES,
        schema: {
          tags: TAGS,
          summary: 'Delete a ticket template',
          description:
            'Tickets created from it stay. 404 TICKET_TEMPLATE_NOT_FOUND for templates of other organisations.',
          params: templateParams,
        },
      },
      async (request, reply) => {
        await deleteTemplate(db, actorOf(request), request.params.id);
        return reply.status(204).send();
      },
    );

    const INCIDENT_VIEW = { access: { permission: 'INCIDENT_VIEW' as const } };

    app.get(
      '/api/org/:orgId/incident/:ref/alerts',
      {
        config: INCIDENT_VIEW,
        schema: {
          tags: TAGS,
          summary: 'The alerts escalated to an incident',
          description: `Newest first. ${ONE('incident')}`,
          params: refParams,
          response: { 200: z.array(linkedAlertSchema) },
        },
      },
      async (request) => {
        const { org } = accessOf(request);
        const { row } = await ticketView(db, org.id, 'incident', request.params.ref);
        return alertsOfTicket(db, org.id, row.id);
      },
    );

    app.get(
      '/api/org/:orgId/incident/:ref/similar',
      {
        config: INCIDENT_VIEW,
        schema: {
          tags: TAGS,
          summary: 'Incidents similar to an incident',
          description:
            'Other incidents whose escalated alerts share hosts, IPs or users (of their matched events) or ' +
            `triggers with this incident's alerts, most in common first, at most 20. ${ONE('incident')}`,
          params: refParams,
          response: { 200: z.array(similarIncidentSchema) },
        },
      },
      async (request) => {
        const { org } = accessOf(request);
        const { row } = await ticketView(db, org.id, 'incident', request.params.ref);
        return similarIncidents(db, org.id, row.id);
      },
    );
  };
