import type { RiskIncident } from '@vigil/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { validationFailed } from '../../platform/errors';
import { findRef, findTicketView } from '../tickets/repo';
import { orgScope, recordRisk, riskIn, type Actor } from './service';
import { riskIncidentLinks } from './tables';

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
