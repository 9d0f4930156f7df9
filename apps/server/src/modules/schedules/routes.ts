import {
  libraryTaskScheduleInputSchema,
  taskScheduleCopyInputSchema,
  taskScheduleCopyResultSchema,
  taskScheduleInputSchema,
  taskScheduleListQuerySchema,
  taskScheduleListSchema,
  taskScheduleSchema,
  taskScheduleStateInputSchema,
  taskScheduleTaskCountsQuerySchema,
  taskScheduleTaskCountsSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  changeLibraryScheduleState,
  changeScheduleState,
  copyLibrarySchedule,
  createLibrarySchedule,
  createSchedule,
  getSchedule,
  listSchedules,
  replaceLibrarySchedule,
  replaceSchedule,
  type Actor,
  scheduleTaskCounts,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'TASK_SCHEDULE_VIEW' as const } };
const EDIT = { access: { permission: 'TASK_SCHEDULE_EDIT' as const } };
const TAGS = ['task schedules'];
const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const TIMING_NOTE =
  '`interval` repeats by minute, hour, day, week, month_begin (the 1st) or month_15 (the 15th), in UTC. ' +
  '`nextRunAt` must be in the future (400 TASK_SCHEDULE_NEXT_RUN_IN_PAST) and, for the monthly units, on ' +
  'the 1st or the 15th (400 TASK_SCHEDULE_NEXT_RUN_NOT_MONTH_DAY). With `skipWeekends` a run falling on ' +
  "Saturday or Sunday is made on the Monday after (`runAt`). `dueIn` sets each task's due date after its " +
  'run (minute, hour, day, week, month or year).';

const WRITE_NOTE =
  `${TIMING_NOTE} \`queryIds\` are saved queries the organisation sees (400 TASK_SCHEDULE_INVALID_QUERY); ` +
  'the owner and watchers are active users of it (400 TASK_SCHEDULE_INVALID_OWNER / _WATCHER). `parentId` ' +
  'is a schedule of the organisation (400 TASK_SCHEDULE_INVALID_PARENT) without queries, as a schedule ' +
  'with children cannot have queries (400 TASK_SCHEDULE_PARENT_HAS_QUERIES); its interval is at least ' +
  "this one's (400 TASK_SCHEDULE_PARENT_INTERVAL), and this one's at least each child's (400 " +
  'TASK_SCHEDULE_CHILDREN_INTERVAL); no cycles (400 TASK_SCHEDULE_PARENT_CYCLE) and at most 5 levels ' +
  '(400 TASK_SCHEDULE_TOO_MANY_LEVELS). A refused request writes nothing. Schedules of other ' +
  'organisations answer 404 TASK_SCHEDULE_NOT_FOUND.';

const LIBRARY_NOTE =
  'Provider administrators in the provider organisation only (403 TASK_SCHEDULE_LIBRARY_ADMIN_ONLY).';

/** Task schedules (spec 3): tasks created on a schedule, and the provider's library of them. */
export const taskScheduleRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/task-schedules',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's task schedules",
          description:
            '`search` matches part of the name, any case. Deleted schedules only with `state=DELETED`. ' +
            'Sorted by `sortBy` (name, nextRunAt, lastRanAt, modifiedOn) and `desc`; paged by pageSize and ' +
            'pageNumber.',
          params: orgParamsSchema,
          querystring: taskScheduleListQuerySchema,
          response: { 200: taskScheduleListSchema },
        },
      },
      async (request) => listSchedules(db, accessOf(request).org.id, request.query),
    );

    app.get(
      '/api/org/:orgId/task-schedules/task-counts',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Tasks each schedule created in a timeframe',
          description:
            "The task-schedule dashboard. `timeframe` SINCE_LAST_RUN (from each schedule's last run), LAST_24_HOURS, " +
            'LAST_7_DAYS (default), LAST_30_DAYS, LAST_90_DAYS, PREVIOUS_MONTH or PREVIOUS_QUARTER (calendar, UTC). ' +
            'For every schedule not deleted, by name: the tasks its runs created in the timeframe (`created`) and how ' +
            'many of them are now open, closed, and open past their due date (`overdue`).',
          params: orgParamsSchema,
          querystring: taskScheduleTaskCountsQuerySchema,
          response: { 200: taskScheduleTaskCountsSchema },
        },
      },
      async (request) => scheduleTaskCounts(db, accessOf(request).org.id, request.query.timeframe),
    );

    app.get(
      '/api/org/:orgId/task-schedule/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A task schedule',
          description: 'With its parent and children. 404 TASK_SCHEDULE_NOT_FOUND for other organisations.',
          params: idParams,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) => getSchedule(db, accessOf(request).org.id, request.params.id),
    );

    app.post(
      '/api/org/:orgId/task-schedule',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a task schedule',
          description: WRITE_NOTE,
          params: orgParamsSchema,
          body: taskScheduleInputSchema,
          response: { 201: taskScheduleSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createSchedule(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/task-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a task schedule',
          description: WRITE_NOTE,
          params: idParams,
          body: taskScheduleInputSchema,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) => replaceSchedule(db, actorOf(request), request.params.id, request.body),
    );

    app.put(
      '/api/org/:orgId/task-schedule/:id/state',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Pause or resume a task schedule',
          description:
            'A resumed schedule whose time passed while paused next runs at its first time after now.',
          params: idParams,
          body: taskScheduleStateInputSchema,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) =>
        changeScheduleState(
          db,
          actorOf(request),
          accessOf(request).org.id,
          request.params.id,
          request.body.state,
        ),
    );

    app.delete(
      '/api/org/:orgId/task-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a task schedule',
          description: 'Restorable; 409 ALREADY_DELETED when it is deleted already.',
          params: idParams,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) =>
        changeScheduleState(db, actorOf(request), accessOf(request).org.id, request.params.id, 'DELETED'),
    );

    app.post(
      '/api/org/:orgId/task-schedule/:id/restore',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Restore a deleted task schedule',
          description: 'It comes back paused; 409 NOT_DELETED when it is not deleted.',
          params: idParams,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) =>
        changeScheduleState(db, actorOf(request), accessOf(request).org.id, request.params.id, 'RESTORED'),
    );

    app.get(
      '/api/org/:orgId/library-task-schedules',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Library task schedules',
          description: "The provider's library, read from any organisation. Same search, sort and paging.",
          params: orgParamsSchema,
          querystring: taskScheduleListQuerySchema,
          response: { 200: taskScheduleListSchema },
        },
      },
      async (request) => listSchedules(db, null, request.query),
    );

    app.post(
      '/api/org/:orgId/library-task-schedule',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a library task schedule',
          description: `${LIBRARY_NOTE} ${TIMING_NOTE}`,
          params: orgParamsSchema,
          body: libraryTaskScheduleInputSchema,
          response: { 201: taskScheduleSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createLibrarySchedule(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/library-task-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a library task schedule',
          description: `${LIBRARY_NOTE} ${TIMING_NOTE} Copies already made keep their values.`,
          params: idParams,
          body: libraryTaskScheduleInputSchema,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) => replaceLibrarySchedule(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/library-task-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a library task schedule',
          description: `${LIBRARY_NOTE} Restorable; copies stay.`,
          params: idParams,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) => changeLibraryScheduleState(db, actorOf(request), request.params.id, 'DELETED'),
    );

    app.post(
      '/api/org/:orgId/library-task-schedule/:id/restore',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Restore a deleted library task schedule',
          description: LIBRARY_NOTE,
          params: idParams,
          response: { 200: taskScheduleSchema },
        },
      },
      async (request) => changeLibraryScheduleState(db, actorOf(request), request.params.id, 'RESTORED'),
    );

    app.post(
      '/api/org/:orgId/library-task-schedule/:id/copy',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Copy a library task schedule to customer organisations',
          description:
            `${LIBRARY_NOTE} Every organisation named must be one the user may act in, other than the ` +
            'provider (403 ORG_NOT_AUTHORISED, nothing copied). Organisations already holding a copy are ' +
            'skipped and listed in `skipped`.',
          params: idParams,
          body: taskScheduleCopyInputSchema,
          response: { 200: taskScheduleCopyResultSchema },
        },
      },
      async (request) => copyLibrarySchedule(db, actorOf(request), request.params.id, request.body.orgIds),
    );
  };
