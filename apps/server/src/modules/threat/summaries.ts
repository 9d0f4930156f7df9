import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { threatSources, threatSourceSubscriptions } from './tables';

/** Threat source figures for other areas (the cyber risk readiness dashboard). */

/**
 * Enabled threat sources of a domain whose indicators the organisation's events are matched against:
 * its own, and the provider's it subscribes to.
 */
export async function sourcesInUseCount(db: Db, orgId: string, domain: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(threatSources)
    .leftJoin(
      threatSourceSubscriptions,
      and(
        eq(threatSourceSubscriptions.sourceId, threatSources.id),
        eq(threatSourceSubscriptions.orgId, orgId),
      ),
    )
    .where(
      and(
        eq(threatSources.domain, domain),
        eq(threatSources.enabled, true),
        or(eq(threatSources.orgId, orgId), sql`${threatSourceSubscriptions.orgId} IS NOT NULL`),
      ),
    );
  return row?.count ?? 0;
}
