import { inArray } from 'drizzle-orm';
import { THREAT_MATCH_ALERTS_PER_BATCH } from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { NewEventRow } from '../events/store';
import { matchIndicators } from '../threat/match';
import { threatIndicators, threatSources } from '../threat/tables';
import { insertAlerts, type NewAlert } from './repo';

/**
 * Threat-match alerts of stored events (spec 2, matching at ingest): one alert per indicator and
 * event, at most THREAT_MATCH_ALERTS_PER_BATCH a batch, in the domain of the indicator's source, with
 * the indicator's severity (else its rating). Similar alerts share the indicator as group key.
 * Rows must carry their ids (`eventRow` sets them). Answers the number raised.
 */
export async function raiseThreatMatchAlerts(
  db: Db,
  orgId: string,
  rows: readonly NewEventRow[],
): Promise<number> {
  // An indicator meeting an event in several fields (source and destination) is one alert.
  const seen = new Set<string>();
  const matches = (await matchIndicators(db, orgId, rows))
    .filter((match) => {
      const key = `${match.row}:${match.indicatorId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, THREAT_MATCH_ALERTS_PER_BATCH);
  if (matches.length === 0) return 0;
  const indicatorIds = [...new Set(matches.map((match) => match.indicatorId))];
  const sourceIds = [...new Set(matches.map((match) => match.sourceId))];
  const [indicators, sources] = await Promise.all([
    db.select().from(threatIndicators).where(inArray(threatIndicators.id, indicatorIds)),
    db.select().from(threatSources).where(inArray(threatSources.id, sourceIds)),
  ]);
  const indicatorById = new Map(indicators.map((indicator) => [indicator.id, indicator]));
  const sourceById = new Map(sources.map((source) => [source.id, source]));
  const values: NewAlert[] = matches.map((match) => {
    const row = rows[match.row]!;
    const indicator = indicatorById.get(match.indicatorId)!;
    const source = sourceById.get(match.sourceId)!;
    return {
      orgId,
      domain: source.domain,
      kind: 'THREAT_MATCH',
      title: `Threat match: ${indicator.value} (${source.name})`,
      severity: indicator.severity ?? indicator.rating,
      firedAt: new Date(),
      windowStart: row.ts,
      windowEnd: row.ts,
      matchCount: 1,
      groupKey: `threat:${indicator.id}`,
      events: [{ id: row.id!, ts: row.ts.toISOString() }],
      details: {
        indicatorId: indicator.id,
        sourceId: source.id,
        field: match.field,
        value: indicator.value,
      },
    };
  });
  await insertAlerts(db, values);
  return values.length;
}
