import {
  POLICY_KINDS,
  type DeletedPolicy,
  type Permission,
  type PolicyAcknowledgements,
  type PolicyAcknowledgementsQuery,
  type PolicyDetail,
  type PolicyInput,
  type PolicyKind,
  type PolicySummary,
  type PolicyUpdate,
  type PolicyVersionInput,
  type TicketKind,
  type TicketPolicyLink,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { onUniqueViolation } from '../../platform/error-handler';
import { accessDenied, AppError, conflict, validationFailed } from '../../platform/errors';
import { mayHoldTickets, ticketView } from '../tickets/service';
import { listPersonSummaries } from '../users/repo';
import { libraryEntry } from './library';
import {
  approveVersion,
  existingPolicyIds,
  findPolicy,
  insertAcknowledgement,
  insertPolicy,
  insertVersion,
  listAcknowledgements,
  listPolicyRows,
  listTicketPolicyRows,
  listVersions,
  policyNameTaken,
  replaceTicketPolicies,
  updatePolicy as updatePolicyRow,
  type PolicyRow,
  type PolicyVersionRow,
} from './policies-repo';
import { userNames } from './repo';
import { addMonths, audit, type Actor } from './service';
import { walkSections } from './template';

const policyNotFound = () =>
  new AppError('NotFoundException', 'GOVERNANCE_POLICY_NOT_FOUND', 'Policy not found');
const versionNotFound = () =>
  new AppError('NotFoundException', 'GOVERNANCE_POLICY_VERSION_NOT_FOUND', 'Policy version not found');
const nameInUse = (name: string) =>
  conflict('GOVERNANCE_POLICY_NAME_IN_USE', `Another policy is named ${name}`, { params: { name } });
const notApproved = () =>
  conflict('GOVERNANCE_POLICY_NOT_APPROVED', 'The policy has no approved version yet');

const today = () => new Date().toISOString().slice(0, 10);

/** The newest approved version: the current one. `versions` are newest first. */
const currentOf = (versions: PolicyVersionRow[]) => versions.find((version) => version.approvedOn !== null);

/**
 * When a policy is next due for review: its last review, else its first approval, plus its interval;
 * null before any version is approved. A review is overdue once that date has passed.
 */
function nextReviewOf(row: PolicyRow, own: PolicyVersionRow[]): string | null {
  const firstApproval = own
    .map((version) => version.approvedOn)
    .filter((approvedOn): approvedOn is Date => approvedOn !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  const reviewFrom = row.lastReviewedOn ?? firstApproval?.toISOString().slice(0, 10) ?? null;
  return reviewFrom ? addMonths(reviewFrom, row.reviewEveryMonths) : null;
}

/**
 * The review schedules of the organisation's policies (custom and CAT ones with an approved version)
 * and how many of them are not overdue on `on` (YYYY-MM-DD): the automatic evidence of reviews done.
 */
export async function policyReviewsNotLate(db: Db, orgId: string, on: string) {
  const rows = (await Promise.all(POLICY_KINDS.map((kind) => listPolicyRows(db, orgId, kind)))).flat();
  const versions = await listVersions(
    db,
    orgId,
    rows.map((row) => row.id),
  );
  const due = rows.flatMap(
    (row) =>
      nextReviewOf(
        row,
        versions.filter((version) => version.policyId === row.id),
      ) ?? [],
  );
  return { total: due.length, onTime: due.filter((nextReviewOn) => nextReviewOn >= on).length };
}

/** The audience of acknowledgements: the organisation's active people. */
const audienceOf = (db: Db, orgId: string) =>
  listPersonSummaries(db, orgId, { includeInactive: false, withoutHidden: true });

/** The refs a CAT policy may name: the FFIEC CAT's domains, assessment factors and components. */
export function catPolicyRefs(): { ref: string; title: string; depth: number }[] {
  const template = libraryEntry('ffiec-cat')?.template;
  if (!template) return [];
  const depthOf = new Map<string, number>();
  return [...walkSections(template.sections)].map(({ section, parentRef }) => {
    const depth = parentRef === null ? 0 : (depthOf.get(parentRef) ?? 0) + 1;
    depthOf.set(section.ref, depth);
    return { ref: section.ref, title: section.title, depth };
  });
}

function assertCatRefs(kind: PolicyKind, refs: string[] | undefined) {
  if (!refs || refs.length === 0) return;
  const known = new Set(kind === 'CAT' ? catPolicyRefs().map((item) => item.ref) : []);
  const unknown = refs.find((ref) => !known.has(ref));
  if (unknown !== undefined) {
    throw validationFailed('GOVERNANCE_POLICY_CAT_REF_UNKNOWN', `${unknown} is not part of the FFIEC CAT`, {
      field: 'catRefs',
      params: { ref: unknown },
    });
  }
}

async function assertOwner(db: Db, orgId: string, ownerId: string | null | undefined) {
  if (ownerId && !(await mayHoldTickets(db, orgId, ownerId))) {
    throw validationFailed('GOVERNANCE_INVALID_OWNER', 'The owner is not a user of the organisation', {
      field: 'ownerId',
    });
  }
}

async function summaries(db: Db, access: AccessContext, rows: PolicyRow[]) {
  const orgId = access.org.id;
  const [versions, audience] = await Promise.all([
    listVersions(
      db,
      orgId,
      rows.map((row) => row.id),
    ),
    audienceOf(db, orgId),
  ]);
  const versionsOf = new Map<string, PolicyVersionRow[]>();
  for (const version of versions) {
    versionsOf.set(version.policyId, [...(versionsOf.get(version.policyId) ?? []), version]);
  }
  const currents = rows.flatMap((row) => currentOf(versionsOf.get(row.id) ?? []) ?? []);
  const acknowledgements = await listAcknowledgements(
    db,
    orgId,
    currents.map((version) => version.id),
  );
  const audienceIds = new Set(audience.map((person) => person.id));
  const names = await userNames(db, [
    ...rows.map((row) => row.ownerId),
    ...versions.flatMap((version) => [version.createdBy, version.approvedBy]),
  ]);
  const now = today();
  return {
    names,
    versionsOf,
    list: rows.map((row): PolicySummary => {
      const own = versionsOf.get(row.id) ?? [];
      const current = currentOf(own);
      const nextReviewOn = nextReviewOf(row, own);
      const acknowledgers = new Set(
        acknowledgements
          .filter((ack) => current && ack.versionId === current.id && audienceIds.has(ack.userId))
          .map((ack) => ack.userId),
      );
      return {
        id: row.id,
        kind: row.kind as PolicyKind,
        name: row.name,
        description: row.description,
        ownerId: row.ownerId,
        ownerName: row.ownerId ? (names.get(row.ownerId) ?? null) : null,
        catRefs: row.catRefs,
        reviewEveryMonths: row.reviewEveryMonths,
        lastReviewedOn: row.lastReviewedOn,
        nextReviewOn,
        reviewOverdue: nextReviewOn !== null && nextReviewOn < now,
        currentVersion: current
          ? { id: current.id, number: current.number, approvedOn: current.approvedOn!.toISOString() }
          : null,
        latestVersionNumber: own[0]?.number ?? 0,
        acknowledgedCount: acknowledgers.size,
        audienceCount: audience.length,
        acknowledgedByMe: acknowledgers.has(access.user.id),
        createdOn: row.createdOn.toISOString(),
      };
    }),
  };
}

export async function listPolicies(
  db: Db,
  access: AccessContext,
  kind: PolicyKind,
): Promise<PolicySummary[]> {
  return (await summaries(db, access, await listPolicyRows(db, access.org.id, kind))).list;
}

/** The deleted policies of a kind, to restore; most recently deleted first. */
export async function listDeletedPolicies(
  db: Db,
  access: AccessContext,
  kind: PolicyKind,
): Promise<DeletedPolicy[]> {
  const rows = await listPolicyRows(db, access.org.id, kind, true);
  const { list } = await summaries(db, access, rows);
  return list.map((policy, index) => ({ ...policy, deletedOn: rows[index]!.deletedOn!.toISOString() }));
}

async function policyOf(db: Db, orgId: string, kind: PolicyKind, id: string, lock = false) {
  const row = await findPolicy(db, orgId, kind, id, { lock });
  if (!row) throw policyNotFound();
  return row;
}

export async function getPolicy(
  db: Db,
  access: AccessContext,
  kind: PolicyKind,
  id: string,
): Promise<PolicyDetail> {
  const row = await policyOf(db, access.org.id, kind, id);
  const { list, versionsOf, names } = await summaries(db, access, [row]);
  const name = (userId: string | null) => (userId ? (names.get(userId) ?? null) : null);
  return {
    ...list[0]!,
    versions: (versionsOf.get(id) ?? []).map((version) => ({
      id: version.id,
      number: version.number,
      body: version.body,
      changeNote: version.changeNote,
      createdByName: name(version.createdBy),
      createdOn: version.createdOn.toISOString(),
      approvedByName: name(version.approvedBy),
      approvedOn: version.approvedOn?.toISOString() ?? null,
    })),
  };
}

/** Creates a policy with its first version, not yet approved. Names are unique per kind, any case. */
export async function createPolicy(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  input: Required<Omit<PolicyInput, 'catRefs'>> & { catRefs: string[] },
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  assertCatRefs(kind, input.catRefs);
  await assertOwner(db, orgId, input.ownerId);
  if (await policyNameTaken(db, orgId, kind, input.name)) throw nameInUse(input.name);
  const { body, ...fields } = input;
  const id = await onUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        const row = await insertPolicy(tx, { orgId, kind, ...fields, createdBy: actor.access.user.id });
        await insertVersion(tx, {
          orgId,
          policyId: row.id,
          number: 1,
          body,
          createdBy: actor.access.user.id,
        });
        await audit(tx, actor, 'governance.policy.created', 'policy', row.id, { kind, name: input.name });
        return row.id;
      }),
    () => nameInUse(input.name),
  );
  return getPolicy(db, actor.access, kind, id);
}

/** Changes a policy's own fields (name, description, owner, review interval, CAT refs). */
export async function updatePolicy(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  id: string,
  patch: PolicyUpdate,
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  await policyOf(db, orgId, kind, id);
  assertCatRefs(kind, patch.catRefs);
  await assertOwner(db, orgId, patch.ownerId);
  if (patch.name !== undefined && (await policyNameTaken(db, orgId, kind, patch.name, id))) {
    throw nameInUse(patch.name);
  }
  await onUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        await updatePolicyRow(tx, orgId, id, patch);
        await audit(tx, actor, 'governance.policy.updated', 'policy', id, { ...patch });
      }),
    () => nameInUse(patch.name ?? ''),
  );
  return getPolicy(db, actor.access, kind, id);
}

/** Writes a new version; the older versions, and the current approved one, stay as they were. */
export async function addPolicyVersion(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  id: string,
  input: Required<PolicyVersionInput>,
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await policyOf(tx, orgId, kind, id, true);
    const [latest] = await listVersions(tx, orgId, [id]);
    const number = (latest?.number ?? 0) + 1;
    await insertVersion(tx, { orgId, policyId: id, number, ...input, createdBy: actor.access.user.id });
    await audit(tx, actor, 'governance.policy.version-added', 'policy', id, { number });
  });
  return getPolicy(db, actor.access, kind, id);
}

/**
 * Approves a version, which becomes the current one: never a version already approved, nor one older
 * than the current version.
 */
export async function approvePolicyVersion(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  id: string,
  versionId: string,
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await policyOf(tx, orgId, kind, id, true);
    const versions = await listVersions(tx, orgId, [id]);
    const version = versions.find((candidate) => candidate.id === versionId);
    if (!version) throw versionNotFound();
    const params = { number: version.number };
    if (version.approvedOn) {
      throw conflict('GOVERNANCE_POLICY_VERSION_ALREADY_APPROVED', 'The version is approved already', {
        params,
      });
    }
    const current = currentOf(versions);
    if (current && current.number > version.number) {
      throw conflict('GOVERNANCE_POLICY_VERSION_SUPERSEDED', 'A newer version is current', { params });
    }
    await approveVersion(tx, versionId, actor.access.user.id);
    await audit(tx, actor, 'governance.policy.approved', 'policy', id, params);
  });
  return getPolicy(db, actor.access, kind, id);
}

/** Records a review of the current version today; the next review falls one interval later. */
export async function reviewPolicy(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  id: string,
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await policyOf(tx, orgId, kind, id, true);
    if (!currentOf(await listVersions(tx, orgId, [id]))) throw notApproved();
    await updatePolicyRow(tx, orgId, id, { lastReviewedOn: today(), lastReviewedBy: actor.access.user.id });
    await audit(tx, actor, 'governance.policy.reviewed', 'policy', id);
  });
  return getPolicy(db, actor.access, kind, id);
}

/** The signed-in person acknowledges the current version; acknowledging it again changes nothing. */
export async function acknowledgePolicy(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  id: string,
  versionId: string,
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await policyOf(tx, orgId, kind, id, true);
    const versions = await listVersions(tx, orgId, [id]);
    const version = versions.find((candidate) => candidate.id === versionId);
    if (!version) throw versionNotFound();
    const current = currentOf(versions);
    if (!current) throw notApproved();
    if (current.id !== versionId) {
      throw conflict(
        'GOVERNANCE_POLICY_VERSION_NOT_CURRENT',
        'Only the current version can be acknowledged',
        {
          params: { number: version.number, current: current.number },
        },
      );
    }
    await insertAcknowledgement(tx, orgId, versionId, actor.access.user.id);
    await audit(tx, actor, 'governance.policy.acknowledged', 'policy', id, { number: version.number });
  });
  return getPolicy(db, actor.access, kind, id);
}

/**
 * Who has acknowledged the current version and who has not, by name, a page of each: an organisation
 * may have hundreds of people.
 */
export async function policyAcknowledgements(
  db: Db,
  access: AccessContext,
  kind: PolicyKind,
  id: string,
  query: PolicyAcknowledgementsQuery,
): Promise<PolicyAcknowledgements> {
  const orgId = access.org.id;
  await policyOf(db, orgId, kind, id);
  const [versions, audience] = await Promise.all([listVersions(db, orgId, [id]), audienceOf(db, orgId)]);
  const current = currentOf(versions);
  const acknowledgedOn = new Map(
    current
      ? (await listAcknowledgements(db, orgId, [current.id])).map((ack) => [ack.userId, ack.acknowledgedOn])
      : [],
  );
  const name = (person: { firstName: string; lastName: string }) =>
    `${person.firstName} ${person.lastName}`.trim();
  const acknowledged = audience.flatMap((person) => {
    const on = acknowledgedOn.get(person.id);
    return on ? [{ userId: person.id, name: name(person), acknowledgedOn: on.toISOString() }] : [];
  });
  const pending = audience
    .filter((person) => !acknowledgedOn.has(person.id))
    .map((person) => ({ userId: person.id, name: name(person) }));
  const page = <T>(list: T[], number: number) =>
    list.slice((number - 1) * query.pageSize, number * query.pageSize);
  return {
    version: current ? { id: current.id, number: current.number } : null,
    acknowledged: page(acknowledged, query.acknowledgedPage),
    acknowledgedTotal: acknowledged.length,
    pending: page(pending, query.pendingPage),
    pendingTotal: pending.length,
  };
}

/** Deletes a policy, restorably; its ticket links stay for when it is restored. */
export async function deletePolicy(db: Db, actor: Actor, kind: PolicyKind, id: string) {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await policyOf(tx, orgId, kind, id, true);
    await updatePolicyRow(tx, orgId, id, { deletedOn: new Date() });
    await audit(tx, actor, 'governance.policy.deleted', 'policy', id);
  });
}

/** Restores a deleted policy, unless a live policy of the kind has taken its name meanwhile. */
export async function restorePolicy(
  db: Db,
  actor: Actor,
  kind: PolicyKind,
  id: string,
): Promise<PolicyDetail> {
  const orgId = actor.access.org.id;
  const row = await findPolicy(db, orgId, kind, id, { deleted: true });
  if (!row) throw policyNotFound();
  if (await policyNameTaken(db, orgId, kind, row.name)) throw nameInUse(row.name);
  await onUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        await updatePolicyRow(tx, orgId, id, { deletedOn: null });
        await audit(tx, actor, 'governance.policy.restored', 'policy', id);
      }),
    () => nameInUse(row.name),
  );
  return getPolicy(db, actor.access, kind, id);
}

// Policy links from tickets

async function linksOf(db: Db, orgId: string, ticketId: string): Promise<TicketPolicyLink[]> {
  const rows = await listTicketPolicyRows(db, orgId, ticketId);
  const [versions, names] = await Promise.all([
    listVersions(
      db,
      orgId,
      rows.map((row) => row.policy.id),
    ),
    userNames(
      db,
      rows.map((row) => row.link.linkedBy),
    ),
  ]);
  return rows.map(({ link, policy }) => ({
    id: policy.id,
    kind: policy.kind as PolicyKind,
    name: policy.name,
    currentVersionNumber:
      currentOf(versions.filter((version) => version.policyId === policy.id))?.number ?? null,
    linkedByName: link.linkedBy ? (names.get(link.linkedBy) ?? null) : null,
    linkedOn: link.linkedOn.toISOString(),
  }));
}

const TICKET_VIEW = { incident: 'INCIDENT_VIEW', task: 'TASK_VIEW' } as const;
const TICKET_EDIT = { incident: 'INCIDENT_EDIT', task: 'TASK_EDIT' } as const;

/** The route needs POLICY_LINK_VIEW or _EDIT; each ticket kind needs its own permission as well. */
function assertTicketPermission(
  access: AccessContext,
  needed: Record<TicketKind, Permission>,
  kind: TicketKind,
) {
  if (!access.permissions.has(needed[kind])) {
    throw accessDenied('PERMISSION_DENIED', `This needs ${needed[kind]}`);
  }
}

/** The policies an incident or task links (POLICY_LINK_VIEW and the ticket's view permission). */
export async function ticketPolicies(db: Db, access: AccessContext, kind: TicketKind, ref: string) {
  assertTicketPermission(access, TICKET_VIEW, kind);
  const { row } = await ticketView(db, access.org.id, kind, ref);
  return linksOf(db, access.org.id, row.id);
}

/**
 * Replaces the policies an incident or task links. The route needs POLICY_LINK_EDIT; editing the ticket
 * needs the kind's edit permission as well.
 */
export async function setTicketPolicies(
  db: Db,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  policyIds: string[],
): Promise<TicketPolicyLink[]> {
  const orgId = actor.access.org.id;
  assertTicketPermission(actor.access, TICKET_EDIT, kind);
  const { row } = await ticketView(db, orgId, kind, ref);
  const wanted = [...new Set(policyIds)];
  const existing = await existingPolicyIds(db, orgId, wanted);
  if (existing.size !== wanted.length) {
    throw validationFailed(
      'GOVERNANCE_POLICY_LINK_INVALID',
      'A linked policy is not a policy of the organisation',
      {
        field: 'policyIds',
      },
    );
  }
  await db.transaction(async (tx) => {
    const change = await replaceTicketPolicies(tx, orgId, row.id, wanted, actor.access.user.id);
    await audit(tx, actor, 'governance.ticket-policies.set', 'ticket', row.id, change);
  });
  return linksOf(db, orgId, row.id);
}
