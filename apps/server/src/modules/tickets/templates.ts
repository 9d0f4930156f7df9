import type { TicketTemplate, TicketTemplateInput } from '@vigil/contracts';
import { ticketTemplateInputSchema } from '@vigil/contracts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { users } from '../users/tables';
import { isActiveOrgPerson } from './repo';
import type { Actor } from './service';
import { ticketTemplates } from './tables';

type TemplateRow = typeof ticketTemplates.$inferSelect;

export const templateNotFound = () =>
  new AppError('NotFoundException', 'TICKET_TEMPLATE_NOT_FOUND', 'Ticket template not found');

/** A template of the organisation; undefined for others. */
export async function findTemplate(db: Db, orgId: string, id: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(ticketTemplates)
    .where(and(eq(ticketTemplates.orgId, orgId), eq(ticketTemplates.id, id)));
  return row;
}

async function toTemplates(db: Db, rows: TemplateRow[]): Promise<TicketTemplate[]> {
  const ids = [...new Set(rows.flatMap((row) => row.watcherIds))];
  const people =
    ids.length === 0
      ? []
      : await db
          .select({ id: users.id, name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
          .from(users)
          .where(inArray(users.id, ids));
  const names = new Map(people.map((person) => [person.id, person.name]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    tasks: row.tasks,
    watchers: row.watcherIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
    modifiedOn: row.modifiedOn.toISOString(),
  }));
}

export async function listTemplates(db: Db, orgId: string): Promise<TicketTemplate[]> {
  const rows = await db
    .select()
    .from(ticketTemplates)
    .where(eq(ticketTemplates.orgId, orgId))
    .orderBy(sql`lower(${ticketTemplates.name})`, asc(ticketTemplates.id));
  return toTemplates(db, rows);
}

/** Checks a template's watchers and that its name is free in the organisation (besides `selfId`). */
async function checked(db: Db, orgId: string, input: TicketTemplateInput, selfId?: string) {
  const values = ticketTemplateInputSchema.parse(input);
  const watcherIds = [...new Set(values.watcherIds)];
  for (const id of watcherIds) {
    if (!(await isActiveOrgPerson(db, orgId, id))) {
      throw validationFailed('TICKET_INVALID_WATCHER', `Not a user of the organisation: ${id}`, {
        field: 'watcherIds',
      });
    }
  }
  const [clash] = await db
    .select({ id: ticketTemplates.id })
    .from(ticketTemplates)
    .where(
      and(
        eq(ticketTemplates.orgId, orgId),
        sql`lower(${ticketTemplates.name}) = lower(${values.name})`,
        selfId ? ne(ticketTemplates.id, selfId) : undefined,
      ),
    );
  if (clash) {
    throw conflict('TICKET_TEMPLATE_NAME_IN_USE', 'The name is in use', { params: { name: values.name } });
  }
  return { ...values, watcherIds };
}

const audit = (db: Db, actor: Actor, action: string, row: { id: string; name: string }) =>
  recordActivity(db, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `ticketTemplate.${action}`,
    targetType: 'ticketTemplate',
    targetId: row.id,
    details: { name: row.name },
    ip: actor.ip,
  });

export async function createTemplate(
  db: Db,
  actor: Actor,
  input: TicketTemplateInput,
): Promise<TicketTemplate> {
  const orgId = actor.access.org.id;
  const values = await checked(db, orgId, input);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(ticketTemplates)
      .values({ ...values, orgId, createdBy: actor.access.user.id })
      .returning();
    await audit(tx, actor, 'created', created!);
    return created!;
  });
  return (await toTemplates(db, [row]))[0]!;
}

export async function replaceTemplate(
  db: Db,
  actor: Actor,
  id: string,
  input: TicketTemplateInput,
): Promise<TicketTemplate> {
  const orgId = actor.access.org.id;
  if (!(await findTemplate(db, orgId, id))) throw templateNotFound();
  const values = await checked(db, orgId, input, id);
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(ticketTemplates)
      .set({ ...values, modifiedOn: new Date() })
      .where(and(eq(ticketTemplates.orgId, orgId), eq(ticketTemplates.id, id)))
      .returning();
    if (!updated) throw templateNotFound();
    await audit(tx, actor, 'updated', updated);
    return updated;
  });
  return (await toTemplates(db, [row]))[0]!;
}

export async function deleteTemplate(db: Db, actor: Actor, id: string): Promise<void> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(ticketTemplates)
      .where(and(eq(ticketTemplates.orgId, orgId), eq(ticketTemplates.id, id)))
      .returning();
    if (!removed) throw templateNotFound();
    await audit(tx, actor, 'deleted', removed);
  });
}
