import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { triggers } from './tables';

/** Trigger figures for other areas (the cyber risk readiness dashboard). */

/** The organisation's own triggers of a domain that are running (ACTIVE). */
export async function activeTriggerCount(db: Db, orgId: string, domain: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(triggers)
    .where(and(eq(triggers.orgId, orgId), eq(triggers.domain, domain), eq(triggers.state, 'ACTIVE')));
  return row?.count ?? 0;
}
