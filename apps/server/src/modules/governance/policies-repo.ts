import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  governancePolicies,
  governancePolicyAcknowledgements,
  governancePolicyVersions,
  governanceTicketPolicies,
} from './tables';

export type PolicyRow = typeof governancePolicies.$inferSelect;
export type PolicyVersionRow = typeof governancePolicyVersions.$inferSelect;

/** Live policies of a kind by name; `deleted` true lists the deleted ones, most recently deleted first. */
export async function listPolicyRows(
  db: Db,
  orgId: string,
  kind: string,
  deleted = false,
): Promise<PolicyRow[]> {
  return db
    .select()
    .from(governancePolicies)
    .where(
      and(
        eq(governancePolicies.orgId, orgId),
        eq(governancePolicies.kind, kind),
        deleted ? isNotNull(governancePolicies.deletedOn) : isNull(governancePolicies.deletedOn),
      ),
    )
    .orderBy(
      ...(deleted ? [desc(governancePolicies.deletedOn)] : []),
      sql`lower(${governancePolicies.name})`,
      asc(governancePolicies.id),
    );
}

/** A policy of the organisation and kind; `deleted` true finds a deleted one (to restore it). */
export async function findPolicy(
  db: Db,
  orgId: string,
  kind: string,
  id: string,
  options: { deleted?: boolean; lock?: boolean } = {},
): Promise<PolicyRow | undefined> {
  const query = db
    .select()
    .from(governancePolicies)
    .where(
      and(
        eq(governancePolicies.orgId, orgId),
        eq(governancePolicies.kind, kind),
        eq(governancePolicies.id, id),
        options.deleted ? isNotNull(governancePolicies.deletedOn) : isNull(governancePolicies.deletedOn),
      ),
    );
  const [row] = await (options.lock ? query.for('update') : query);
  return row;
}

/** Whether another live policy of the kind has this name, in any case. */
export async function policyNameTaken(db: Db, orgId: string, kind: string, name: string, exceptId?: string) {
  const rows = await db
    .select({ id: governancePolicies.id })
    .from(governancePolicies)
    .where(
      and(
        eq(governancePolicies.orgId, orgId),
        eq(governancePolicies.kind, kind),
        isNull(governancePolicies.deletedOn),
        sql`lower(${governancePolicies.name}) = lower(${name})`,
      ),
    );
  return rows.some((row) => row.id !== exceptId);
}

export async function insertPolicy(db: Db, values: typeof governancePolicies.$inferInsert) {
  const [row] = await db.insert(governancePolicies).values(values).returning();
  return row!;
}

export async function updatePolicy(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<typeof governancePolicies.$inferInsert>,
) {
  await db
    .update(governancePolicies)
    .set(values)
    .where(and(eq(governancePolicies.orgId, orgId), eq(governancePolicies.id, id)));
}

/** Versions of policies, newest first. */
export async function listVersions(db: Db, orgId: string, policyIds: string[]): Promise<PolicyVersionRow[]> {
  if (policyIds.length === 0) return [];
  return db
    .select()
    .from(governancePolicyVersions)
    .where(
      and(eq(governancePolicyVersions.orgId, orgId), inArray(governancePolicyVersions.policyId, policyIds)),
    )
    .orderBy(desc(governancePolicyVersions.number));
}

export async function insertVersion(db: Db, values: typeof governancePolicyVersions.$inferInsert) {
  const [row] = await db.insert(governancePolicyVersions).values(values).returning();
  return row!;
}

export async function approveVersion(db: Db, id: string, approvedBy: string) {
  await db
    .update(governancePolicyVersions)
    .set({ approvedBy, approvedOn: sql`clock_timestamp()` })
    .where(eq(governancePolicyVersions.id, id));
}

/** Acknowledgements of versions: who and when. */
export async function listAcknowledgements(db: Db, orgId: string, versionIds: string[]) {
  if (versionIds.length === 0) return [];
  return db
    .select()
    .from(governancePolicyAcknowledgements)
    .where(
      and(
        eq(governancePolicyAcknowledgements.orgId, orgId),
        inArray(governancePolicyAcknowledgements.versionId, versionIds),
      ),
    )
    .orderBy(asc(governancePolicyAcknowledgements.acknowledgedOn));
}

/** Records an acknowledgement; acknowledging a version again keeps the first time. */
export async function insertAcknowledgement(db: Db, orgId: string, versionId: string, userId: string) {
  await db
    .insert(governancePolicyAcknowledgements)
    .values({ orgId, versionId, userId })
    .onConflictDoNothing();
}

export async function listTicketPolicyRows(db: Db, orgId: string, ticketId: string) {
  return db
    .select({ link: governanceTicketPolicies, policy: governancePolicies })
    .from(governanceTicketPolicies)
    .innerJoin(governancePolicies, eq(governancePolicies.id, governanceTicketPolicies.policyId))
    .where(
      and(
        eq(governanceTicketPolicies.orgId, orgId),
        eq(governanceTicketPolicies.ticketId, ticketId),
        isNull(governancePolicies.deletedOn),
      ),
    )
    .orderBy(sql`lower(${governancePolicies.name})`);
}

/** Live policies of the organisation among `ids`, of either kind. */
export async function existingPolicyIds(db: Db, orgId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: governancePolicies.id })
    .from(governancePolicies)
    .where(
      and(
        eq(governancePolicies.orgId, orgId),
        inArray(governancePolicies.id, ids),
        isNull(governancePolicies.deletedOn),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** Replaces a ticket's policy links, keeping who linked the ones that stay. */
export async function replaceTicketPolicies(
  db: Db,
  orgId: string,
  ticketId: string,
  policyIds: string[],
  linkedBy: string,
) {
  const kept = await db
    .select({ policyId: governanceTicketPolicies.policyId })
    .from(governanceTicketPolicies)
    .where(and(eq(governanceTicketPolicies.orgId, orgId), eq(governanceTicketPolicies.ticketId, ticketId)));
  const before = new Set(kept.map((row) => row.policyId));
  const removed = [...before].filter((id) => !policyIds.includes(id));
  const added = policyIds.filter((id) => !before.has(id));
  if (removed.length > 0) {
    await db
      .delete(governanceTicketPolicies)
      .where(
        and(
          eq(governanceTicketPolicies.ticketId, ticketId),
          inArray(governanceTicketPolicies.policyId, removed),
        ),
      );
  }
  if (added.length > 0) {
    await db
      .insert(governanceTicketPolicies)
      .values(added.map((policyId) => ({ orgId, ticketId, policyId, linkedBy })));
  }
  return { added, removed };
}
