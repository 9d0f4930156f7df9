import {
  MINUTES_PER_DAY,
  triggerScheduleInputSchema,
  triggerScheduleListQuerySchema,
  triggerScheduleListSchema,
  triggerScheduleSchema,
  type TriggerSchedule,
  type TriggerScheduleWindow,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { onUniqueViolation } from '../../platform/error-handler';
import { conflict, validationFailed } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import {
  deleteTriggerSchedule,
  findTriggerScheduleView,
  insertTriggerSchedule,
  listTriggerSchedules,
  scheduleNameTaken,
  updateTriggerSchedule,
  type TriggerScheduleRow,
  type TriggerScheduleView,
} from './repo';
import { scheduleNotFound, type Actor } from './service';

type ScheduleInput = z.output<typeof triggerScheduleInputSchema>;

export function scheduleJson({ row, triggerCount }: TriggerScheduleView): TriggerSchedule {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    timezone: row.timezone,
    windows: row.windows,
    triggerCount,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const validWindow = ({ days, startMinute, endMinute }: TriggerScheduleWindow) =>
  days.every((day) => day >= 1 && day <= 7) &&
  startMinute >= 0 &&
  endMinute <= MINUTES_PER_DAY &&
  startMinute < endMinute;

/** Days sorted and distinct, so that equal windows look equal. */
function checkInput(input: ScheduleInput): ScheduleInput {
  if (!isTimeZone(input.timezone)) {
    throw validationFailed('TRIGGER_SCHEDULE_INVALID_TIMEZONE', `Unknown time zone ${input.timezone}`, {
      field: 'timezone',
      params: { timezone: input.timezone },
    });
  }
  input.windows.forEach((window, index) => {
    if (!validWindow(window)) {
      throw validationFailed('TRIGGER_SCHEDULE_INVALID_WINDOW', `Window ${index + 1} is not valid`, {
        field: `windows.${index}`,
      });
    }
  });
  return {
    ...input,
    windows: input.windows.map((window) => ({
      days: [...new Set(window.days)].sort((a, b) => a - b),
      startMinute: window.startMinute,
      endMinute: window.endMinute,
    })),
  };
}

const nameTakenError = (name: string) =>
  conflict('TRIGGER_SCHEDULE_NAME_TAKEN', `A trigger schedule named ${name} already exists`, {
    field: 'name',
    params: { name },
  });

/** Unique-index races end as 409 like the checked case. */
const mapDuplicate = <T>(name: string, write: () => Promise<T>): Promise<T> =>
  onUniqueViolation(write, () => nameTakenError(name));

const snapshot = (row: TriggerScheduleRow) => ({
  name: row.name,
  description: row.description,
  timezone: row.timezone,
  windows: row.windows,
});

async function audit(db: Db, actor: Actor, action: string, id: string, details: Record<string, unknown>) {
  await recordActivity(db, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `trigger-schedule.${action}`,
    targetType: 'trigger-schedule',
    targetId: id,
    details,
    ip: actor.ip,
  });
}

async function scheduleView(db: Db, orgId: string, id: string) {
  const view = await findTriggerScheduleView(db, orgId, id);
  if (!view) throw scheduleNotFound();
  return view;
}

export async function createSchedule(db: Db, actor: Actor, raw: ScheduleInput): Promise<TriggerSchedule> {
  const orgId = actor.access.org.id;
  const input = checkInput(raw);
  if (await scheduleNameTaken(db, orgId, input.name)) throw nameTakenError(input.name);
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await insertTriggerSchedule(tx, { ...input, orgId, createdBy: actor.access.user.id });
      await audit(tx, actor, 'created', row.id, { after: snapshot(row) });
      return scheduleJson((await findTriggerScheduleView(tx, orgId, row.id))!);
    }),
  );
}

export async function replaceSchedule(
  db: Db,
  actor: Actor,
  id: string,
  raw: ScheduleInput,
): Promise<TriggerSchedule> {
  const orgId = actor.access.org.id;
  const before = (await scheduleView(db, orgId, id)).row;
  const input = checkInput(raw);
  if (await scheduleNameTaken(db, orgId, input.name, id)) throw nameTakenError(input.name);
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await updateTriggerSchedule(tx, id, input);
      await audit(tx, actor, 'updated', id, { before: snapshot(before), after: snapshot(row) });
      return scheduleJson((await findTriggerScheduleView(tx, orgId, id))!);
    }),
  );
}

/** Triggers that used the schedule run at any time afterwards (the reference is cleared). */
export async function removeSchedule(db: Db, actor: Actor, id: string): Promise<void> {
  const before = (await scheduleView(db, actor.access.org.id, id)).row;
  await db.transaction(async (tx) => {
    await deleteTriggerSchedule(tx, id);
    await audit(tx, actor, 'deleted', id, { before: snapshot(before) });
  });
}

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'TRIGGER_VIEW' as const } };
const EDIT = { access: { permission: 'TRIGGER_EDIT' as const } };
const TAGS = ['triggers'];
const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const WRITE_NOTE =
  'The name is unique in the organisation, any case (409 TRIGGER_SCHEDULE_NAME_TAKEN). `timezone` is an ' +
  'IANA time zone (400 TRIGGER_SCHEDULE_INVALID_TIMEZONE). Each window lists ISO weekdays 1 (Monday) to 7 ' +
  'and minutes of the day 0 to 1440 with start before end (400 TRIGGER_SCHEDULE_INVALID_WINDOW). ' +
  'Schedules of other organisations answer 404 TRIGGER_SCHEDULE_NOT_FOUND.';

/** Trigger schedules (spec 3): the windows in which triggers run. */
export const triggerScheduleRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/trigger-schedules',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's trigger schedules",
          description:
            'By name, any case; `search` matches part of the name. `triggerCount` counts the triggers ' +
            '(not deleted or archived) that use each. Paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: triggerScheduleListQuerySchema,
          response: { 200: triggerScheduleListSchema },
        },
      },
      async (request) => {
        const { search, pageSize, pageNumber } = request.query;
        const { items, total } = await listTriggerSchedules(db, accessOf(request).org.id, search, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: items.map(scheduleJson), total };
      },
    );

    app.get(
      '/api/org/:orgId/trigger-schedule/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A trigger schedule',
          description:
            '404 TRIGGER_SCHEDULE_NOT_FOUND for missing schedules and those of other organisations.',
          params: idParams,
          response: { 200: triggerScheduleSchema },
        },
      },
      async (request) => scheduleJson(await scheduleView(db, accessOf(request).org.id, request.params.id)),
    );

    app.post(
      '/api/org/:orgId/trigger-schedule',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a trigger schedule',
          description: WRITE_NOTE,
          params: orgParamsSchema,
          body: triggerScheduleInputSchema,
          response: { 201: triggerScheduleSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createSchedule(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/trigger-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a trigger schedule',
          description: WRITE_NOTE,
          params: idParams,
          body: triggerScheduleInputSchema,
          response: { 200: triggerScheduleSchema },
        },
      },
      async (request) => replaceSchedule(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/trigger-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a trigger schedule',
          description:
            'For good; triggers that used it run at any time afterwards. 404 TRIGGER_SCHEDULE_NOT_FOUND.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeSchedule(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
