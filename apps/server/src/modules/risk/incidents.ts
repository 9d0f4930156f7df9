import type { IncidentRisk, RiskIncident } from '@vigil/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { validationFailed } from '../../platform/errors';
import { findRef, findTicketView } from '../tickets/repo';
import { ticketView, type ClosedIncident } from '../tickets/service';
import { scopeWhere, updateRiskRow, type RiskRow } from './repo';
import { modulesOf, orgScope, recordRisk, riskIn, type Actor } from './service';
import { riskIncidentLinks, risks } from './tables';
import type { AccessContext } from '../../platform/access';

/** The incidents linked to a risk, oldest link first, read through the tickets module. */
export async function incidentsOfRisk(db: Db, orgId: string, riskId: string): Promise<RiskIncident[]> {
  const links = await db
    .select({ ticketId: riskIncidentLinks.ticketId })
    .from(riskIncidentLinks)
    .where(eq(riskIncidentLinks.riskId, riskId))
    .orderBy(asc(riskIncidentLinks.createdOn));
  const refs = await Promise.all(links.map((link) => findRef(db, orgId, link.ticketId)));
  return refs.flatMap((ref) =>
    ref ? [{ id: ref.id, slug: ref.slug, title: ref.title, state: ref.state }] : [],
  );
}

/**
 * Replaces the incidents that realised a register risk: each slug an incident of the organisation
 * (400 RISK_INVALID_LINKS naming the others, nothing written). The change is kept in the history.
 */
export async function setRiskIncidents(db: Db, actor: Actor, ref: string, slugs: string[]) {
  const orgId = actor.access.org.id;
  const risk = await riskIn(db, orgScope(actor.access), ref);
  const wanted = [...new Set(slugs.map((slug) => slug.toUpperCase()))];
  const views = await Promise.all(wanted.map((slug) => findTicketView(db, orgId, { slug }, 'incident')));
  const invalid = wanted.filter((_, index) => !views[index]);
  if (invalid.length > 0) {
    throw validationFailed(
      'RISK_INVALID_LINKS',
      `Could not link to some invalid incidents: ${invalid.join(', ')}`,
      {
        field: 'slugs',
        params: { 0: invalid.join(', ') },
      },
    );
  }
  const ids = views.map((view) => view!.row.id);
  const before = (await incidentsOfRisk(db, orgId, risk.id)).map((incident) => incident.slug);
  await db.transaction(async (tx) => {
    await tx.delete(riskIncidentLinks).where(eq(riskIncidentLinks.riskId, risk.id));
    if (ids.length > 0)
      await tx.insert(riskIncidentLinks).values(ids.map((ticketId) => ({ riskId: risk.id, ticketId })));
    const added = wanted.filter((slug) => !before.includes(slug));
    const removed = before.filter((slug) => !wanted.includes(slug));
    if (added.length > 0 || removed.length > 0) {
      await recordRisk(tx, actor, risk, 'LINKS', { incidents: { added, removed } });
    }
  });
  return incidentsOfRisk(db, orgId, risk.id);
}

/** The register risks (of the modules the organisation holds) linked to an incident, by public id. */
async function linkedRisks(db: Db, access: AccessContext, ticketId: string) {
  return db
    .select()
    .from(riskIncidentLinks)
    .innerJoin(risks, eq(risks.id, riskIncidentLinks.riskId))
    .where(
      and(
        eq(riskIncidentLinks.ticketId, ticketId),
        eq(risks.orgId, access.org.id),
        sql`${risks.modules} && ${sql.param(modulesOf(access))}::text[]`,
      ),
    )
    .orderBy(asc(risks.number))
    .then((rows) => rows.map((row) => row.risks));
}

const toIncidentRisk = (row: RiskRow): IncidentRisk => ({
  id: row.id,
  publicId: row.publicId,
  name: row.name,
  state: row.state as IncidentRisk['state'],
  residualRisk: row.residualRisk as IncidentRisk['residualRisk'],
  revisitScores: row.revisitScores ?? null,
});

/** The register risks an incident of the organisation realised (404 TICKET_NOT_FOUND otherwise). */
export async function risksOfIncident(db: Db, access: AccessContext, ref: string): Promise<IncidentRisk[]> {
  const { row } = await ticketView(db, access.org.id, 'incident', ref);
  return (await linkedRisks(db, access, row.id)).map(toIncidentRisk);
}

/**
 * Replaces the register risks an incident realised, from the incident's side: each id a risk of the
 * organisation's register in a module it holds (400 RISK_INVALID_LINKS naming the others, nothing
 * written). Each risk gained or lost keeps the change in its history.
 */
export async function setIncidentRisks(
  db: Db,
  actor: Actor,
  ref: string,
  riskIds: string[],
): Promise<IncidentRisk[]> {
  const { access } = actor;
  const { row: incident } = await ticketView(db, access.org.id, 'incident', ref);
  const wanted = [...new Set(riskIds)];
  const held = modulesOf(access);
  const found = wanted.length
    ? await db
        .select({ id: risks.id, modules: risks.modules })
        .from(risks)
        .where(and(scopeWhere(risks, orgScope(access)), inArray(risks.id, wanted)))
    : [];
  const usable = new Set(
    found
      .filter((risk) => risk.modules.some((module) => (held as string[]).includes(module)))
      .map((risk) => risk.id),
  );
  const invalid = wanted.filter((id) => !usable.has(id));
  if (invalid.length > 0) {
    throw validationFailed(
      'RISK_INVALID_LINKS',
      `Could not link to some invalid risks: ${invalid.join(', ')}`,
      {
        field: 'riskIds',
        params: { 0: invalid.join(', ') },
      },
    );
  }
  await db.transaction(async (tx) => {
    const before = await linkedRisks(tx, access, incident.id);
    const beforeIds = before.map((risk) => risk.id);
    const added = wanted.filter((id) => !beforeIds.includes(id));
    const removed = before.filter((risk) => !wanted.includes(risk.id));
    if (removed.length > 0) {
      await tx.delete(riskIncidentLinks).where(
        and(
          eq(riskIncidentLinks.ticketId, incident.id),
          inArray(
            riskIncidentLinks.riskId,
            removed.map((risk) => risk.id),
          ),
        ),
      );
    }
    if (added.length > 0) {
      await tx
        .insert(riskIncidentLinks)
        .values(added.map((riskId) => ({ riskId, ticketId: incident.id })))
        .onConflictDoNothing();
    }
    for (const id of added) {
      const row = await riskIn(tx, orgScope(access), id);
      await recordRisk(tx, actor, row, 'LINKS', { incidents: { added: [incident.slug], removed: [] } });
    }
    for (const row of removed) {
      await recordRisk(tx, actor, row, 'LINKS', { incidents: { added: [], removed: [incident.slug] } });
    }
  });
  return risksOfIncident(db, access, incident.id);
}

/**
 * An incident closed with a resolution (its root cause) asks for the scores of the active register
 * risks it realised to be revisited: each is marked (since when, and by which incidents) until its
 * scores are next saved, and the request is kept in its history.
 */
export async function markRisksToRevisit(tx: Db, actor: Actor, incident: ClosedIncident) {
  const linked = await tx
    .select()
    .from(riskIncidentLinks)
    .innerJoin(risks, eq(risks.id, riskIncidentLinks.riskId))
    .where(
      and(
        eq(riskIncidentLinks.ticketId, incident.id),
        eq(risks.orgId, incident.orgId),
        eq(risks.state, 'ACTIVE'),
      ),
    )
    .orderBy(asc(risks.number))
    .for('update', { of: risks });
  for (const { risks: row } of linked) {
    const current = row.revisitScores;
    if (current?.incidents.some((known) => known.id === incident.id)) continue;
    const revisitScores = {
      since: current?.since ?? new Date().toISOString(),
      incidents: [...(current?.incidents ?? []), { id: incident.id, slug: incident.slug }],
    };
    await updateRiskRow(tx, row.id, { revisitScores });
    await recordRisk(tx, actor, row, 'REVISIT', { incident: incident.slug });
  }
}
