import type { SimilarIncident } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { ticketAlertTraits } from '../alerts/service';
import { findRef } from './repo';

/** Incidents listed at most as similar to one incident. */
export const SIMILAR_INCIDENTS_MAX = 20;

const shared = (mine: Set<string>, theirs: Set<string>) =>
  [...theirs].filter((value) => mine.has(value)).sort();

/**
 * Incidents sharing hosts, IPs, users or triggers with the alerts escalated to `ticketId`, most in
 * common first.
 */
export async function similarIncidents(db: Db, orgId: string, ticketId: string): Promise<SimilarIncident[]> {
  const traits = await ticketAlertTraits(db, orgId);
  const mine = traits.get(ticketId);
  if (!mine) return [];
  const myTriggers = new Set(mine.triggers.keys());
  const candidates: { id: string; shared: SimilarIncident['shared']; score: number }[] = [];
  for (const [id, theirs] of traits) {
    if (id === ticketId) continue;
    const common = {
      hosts: shared(mine.hosts, theirs.hosts),
      ips: shared(mine.ips, theirs.ips),
      users: shared(mine.users, theirs.users),
      triggers: [...theirs.triggers].filter(([key]) => myTriggers.has(key)).map(([, name]) => name),
    };
    const score = common.hosts.length + common.ips.length + common.users.length + common.triggers.length;
    if (score > 0) candidates.push({ id, shared: common, score });
  }
  candidates.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const result: SimilarIncident[] = [];
  for (const candidate of candidates) {
    if (result.length >= SIMILAR_INCIDENTS_MAX) break;
    const ref = await findRef(db, orgId, candidate.id);
    if (ref?.kind !== 'incident') continue;
    result.push({
      id: ref.id,
      kind: 'incident',
      slug: ref.slug,
      title: ref.title,
      state: ref.state as SimilarIncident['state'],
      shared: candidate.shared,
    });
  }
  return result;
}
