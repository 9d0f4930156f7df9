import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  type ThreatDomain,
  type ThreatSource,
  type ThreatSourceInput,
  type THREAT_SOURCE_TYPES,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { assertDomainEntitled, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict } from '../../platform/errors';
import { viewerOf } from '../roles/rules';
import { threatIndicators, threatSources, threatSourceSubscriptions } from './tables';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

export type SourceRow = typeof threatSources.$inferSelect;

export const sourceNotFound = () =>
  new AppError('NotFoundException', 'THREAT_SOURCE_NOT_FOUND', 'Threat source not found');

const providerReadOnly = () =>
  new AppError(
    'AccessDeniedException',
    'THREAT_SOURCE_PROVIDER_READ_ONLY',
    'Provider threat sources can be changed only by provider staff',
  );

const nameTaken = (name: string) =>
  conflict('THREAT_SOURCE_NAME_TAKEN', `A threat source named ${name} already exists`, {
    field: 'name',
    params: { name },
  });

/** Sources an organisation sees: the provider's and its own. */
const visibleTo = (orgId: string): SQL => or(eq(threatSources.orgId, orgId), isNull(threatSources.orgId))!;

const subscribedColumn = sql<boolean>`(${threatSources.orgId} IS NOT NULL OR ${threatSourceSubscriptions.orgId} IS NOT NULL)`;

function selectSources(db: Db, orgId: string) {
  return db
    .select({
      row: threatSources,
      subscribed: subscribedColumn,
      indicatorCount: sql<number>`(SELECT count(*)::int FROM ${threatIndicators} WHERE ${threatIndicators.sourceId} = ${threatSources.id})`,
    })
    .from(threatSources)
    .leftJoin(
      threatSourceSubscriptions,
      and(
        eq(threatSourceSubscriptions.sourceId, threatSources.id),
        eq(threatSourceSubscriptions.orgId, orgId),
      ),
    );
}

type SourceView = { row: SourceRow; subscribed: boolean; indicatorCount: number };

function toJson(view: SourceView, editable: boolean): ThreatSource {
  const { row } = view;
  return {
    id: row.id,
    domain: row.domain as ThreatDomain,
    name: row.name,
    description: row.description,
    url: row.url,
    type: row.type as (typeof THREAT_SOURCE_TYPES)[number],
    enabled: row.enabled,
    provider: row.orgId === null,
    subscribed: view.subscribed,
    editable,
    indicatorCount: view.indicatorCount,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** Provider sources are changed only by provider staff; an organisation's own only by its people. */
async function providerStaff(db: Db, access: AccessContext) {
  return (await viewerOf(db, access)).providerStaff;
}

/** One page of the sources of a domain: subscribed first, then enabled, then by name (spec 2 section 3). */
export async function listThreatSources(
  db: Db,
  access: AccessContext,
  query: { domain: ThreatDomain; search?: string; pageSize: number; pageNumber: number },
): Promise<{ items: ThreatSource[]; total: number }> {
  assertDomainEntitled(access, query.domain);
  const orgId = access.org.id;
  const where = and(
    visibleTo(orgId),
    eq(threatSources.domain, query.domain),
    query.search ? ilike(threatSources.name, `%${escapeLike(query.search)}%`) : undefined,
  );
  const [views, [count]] = await Promise.all([
    selectSources(db, orgId)
      .where(where)
      .orderBy(
        desc(subscribedColumn),
        desc(threatSources.enabled),
        asc(sql`lower(${threatSources.name})`),
        asc(threatSources.id),
      )
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(threatSources)
      .where(where),
  ]);
  const staff = views.some((view) => view.row.orgId === null) && (await providerStaff(db, access));
  return {
    items: views.map((view) => toJson(view, view.row.orgId === null ? staff : true)),
    total: count?.total ?? 0,
  };
}

/** A source the organisation sees, in a domain it holds; 404 otherwise. */
export async function findVisibleSource(db: Db, access: AccessContext, id: string): Promise<SourceView> {
  const [view] = await selectSources(db, access.org.id).where(
    and(eq(threatSources.id, id), visibleTo(access.org.id)),
  );
  if (!view) throw sourceNotFound();
  assertDomainEntitled(access, view.row.domain);
  return view;
}

/** A source the caller may change: 403 for provider sources unless provider staff. */
export async function findEditableSource(db: Db, access: AccessContext, id: string): Promise<SourceView> {
  const view = await findVisibleSource(db, access, id);
  if (view.row.orgId === null && !(await providerStaff(db, access))) throw providerReadOnly();
  return view;
}

export async function getThreatSource(db: Db, access: AccessContext, id: string): Promise<ThreatSource> {
  const view = await findVisibleSource(db, access, id);
  return toJson(view, view.row.orgId === null ? await providerStaff(db, access) : true);
}

const snapshot = (row: SourceRow) => ({
  domain: row.domain,
  name: row.name,
  description: row.description,
  url: row.url,
  type: row.type,
  enabled: row.enabled,
  provider: row.orgId === null,
});

/** Unique-index races end as 409 like the checked case. */
async function mapDuplicate<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) === '23505') throw nameTaken(name);
    throw error;
  }
}

async function assertNameFree(db: Db, orgId: string | null, domain: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: threatSources.id })
    .from(threatSources)
    .where(
      and(
        orgId === null ? isNull(threatSources.orgId) : eq(threatSources.orgId, orgId),
        eq(threatSources.domain, domain),
        eq(sql`lower(${threatSources.name})`, name.toLowerCase()),
        exceptId ? sql`${threatSources.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (row) throw nameTaken(name);
}

type ParsedSourceInput = Required<Omit<ThreatSourceInput, 'url'>> & { url?: string | null };

async function audit(db: Db, actor: Actor, action: string, id: string, details: Record<string, unknown>) {
  await recordActivity(db, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action,
    targetType: 'threat-source',
    targetId: id,
    details,
    ip: actor.ip,
  });
}

export async function createThreatSource(
  db: Db,
  actor: Actor,
  input: ParsedSourceInput,
): Promise<ThreatSource> {
  const { access } = actor;
  assertDomainEntitled(access, input.domain);
  if (input.provider && !(await providerStaff(db, access))) throw providerReadOnly();
  const orgId = input.provider ? null : access.org.id;
  await assertNameFree(db, orgId, input.domain, input.name);
  const id = await mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(threatSources)
        .values({
          orgId,
          domain: input.domain,
          name: input.name,
          description: input.description,
          url: input.url ?? null,
          type: input.type,
          enabled: input.enabled,
          createdBy: access.user.id,
        })
        .returning();
      await audit(tx, actor, 'threat-source.created', row!.id, { after: snapshot(row!) });
      return row!.id;
    }),
  );
  return getThreatSource(db, access, id);
}

export async function replaceThreatSource(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedSourceInput,
): Promise<ThreatSource> {
  const { access } = actor;
  const { row: before } = await findEditableSource(db, access, id);
  await assertNameFree(db, before.orgId, before.domain, input.name, id);
  await mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(threatSources)
        .set({
          name: input.name,
          description: input.description,
          url: input.url ?? null,
          type: input.type,
          enabled: input.enabled,
          modifiedOn: new Date(),
        })
        .where(eq(threatSources.id, id))
        .returning();
      await audit(tx, actor, 'threat-source.updated', id, {
        before: snapshot(before),
        after: snapshot(row!),
      });
    }),
  );
  return getThreatSource(db, access, id);
}

export async function setThreatSourceEnabled(
  db: Db,
  actor: Actor,
  id: string,
  enabled: boolean,
): Promise<ThreatSource> {
  const { row: before } = await findEditableSource(db, actor.access, id);
  if (before.enabled !== enabled) {
    await db.transaction(async (tx) => {
      await tx.update(threatSources).set({ enabled, modifiedOn: new Date() }).where(eq(threatSources.id, id));
      await audit(tx, actor, enabled ? 'threat-source.enabled' : 'threat-source.disabled', id, {
        name: before.name,
      });
    });
  }
  return getThreatSource(db, actor.access, id);
}

export async function removeThreatSource(db: Db, actor: Actor, id: string): Promise<void> {
  const { row: before } = await findEditableSource(db, actor.access, id);
  await db.transaction(async (tx) => {
    await tx.delete(threatSources).where(eq(threatSources.id, id));
    await audit(tx, actor, 'threat-source.deleted', id, { before: snapshot(before) });
  });
}

/** Subscribes the organisation to a provider source or ends it; its own sources are always used (409). */
export async function setSubscription(
  db: Db,
  actor: Actor,
  id: string,
  subscribed: boolean,
): Promise<ThreatSource> {
  const { access } = actor;
  const view = await findVisibleSource(db, access, id);
  if (view.row.orgId !== null) {
    throw conflict('THREAT_SOURCE_NOT_PROVIDER', 'Only provider sources can be subscribed to');
  }
  if (view.subscribed !== subscribed) {
    await db.transaction(async (tx) => {
      if (subscribed) {
        await tx
          .insert(threatSourceSubscriptions)
          .values({ orgId: access.org.id, sourceId: id, subscribedBy: access.user.id })
          .onConflictDoNothing();
      } else {
        await tx
          .delete(threatSourceSubscriptions)
          .where(
            and(
              eq(threatSourceSubscriptions.orgId, access.org.id),
              eq(threatSourceSubscriptions.sourceId, id),
            ),
          );
      }
      await audit(tx, actor, subscribed ? 'threat-source.subscribed' : 'threat-source.unsubscribed', id, {
        name: view.row.name,
      });
    });
  }
  return getThreatSource(db, access, id);
}
