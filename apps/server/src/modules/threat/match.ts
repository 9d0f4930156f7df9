import { sql } from 'drizzle-orm';
import { isIpAddress, normaliseIndicatorValue, type ThreatIndicatorType } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { rowsOf } from '../events/repo';
import type { NewEventRow } from '../events/store';

/** Where in an event an indicator matched. */
export type MatchField =
  | 'srcIp'
  | 'dstIp'
  | 'host'
  | 'fields.url'
  | 'fields.domain'
  | 'fields.email'
  | 'fields.sha256'
  | 'fields.sha1'
  | 'fields.md5'
  | 'fields.hash';

export interface IndicatorMatch {
  /** Position of the event in the rows given. */
  row: number;
  indicatorId: string;
  sourceId: string;
  field: MatchField;
}

/** Event fields read as values of an indicator type. */
const FIELD_TYPES: [MatchField, ThreatIndicatorType][] = [
  ['fields.url', 'URL'],
  ['fields.domain', 'DOMAIN'],
  ['fields.email', 'EMAIL'],
  ['fields.sha256', 'HASH'],
  ['fields.sha1', 'HASH'],
  ['fields.md5', 'HASH'],
  ['fields.hash', 'HASH'],
];

interface Candidate {
  row: number;
  field: MatchField;
  type: ThreatIndicatorType;
  value: string;
}

/** A domain and its parents down to two labels: an indicator for evil.example also matches www.evil.example. */
function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, Math.max(1, labels.length - 1)).map((_, index) => labels.slice(index).join('.'));
}

function candidatesOf(row: NewEventRow, index: number): Candidate[] {
  const found: Candidate[] = [];
  const add = (field: MatchField, type: ThreatIndicatorType, raw: unknown) => {
    if (typeof raw !== 'string') return;
    const value = normaliseIndicatorValue(type, raw);
    if (value === null) return;
    if (type === 'DOMAIN') {
      for (const domain of domainAndParents(value)) found.push({ row: index, field, type, value: domain });
    } else found.push({ row: index, field, type, value });
  };
  add('srcIp', 'IP', row.srcIp);
  add('dstIp', 'IP', row.dstIp);
  if (typeof row.host === 'string') add('host', isIpAddress(row.host.trim()) ? 'IP' : 'DOMAIN', row.host);
  const fields = row.fields ?? {};
  for (const [field, type] of FIELD_TYPES) add(field, type, fields[field.slice('fields.'.length)]);
  // A URL's host also meets domain indicators.
  const url = found.find((candidate) => candidate.field === 'fields.url');
  if (url) add('fields.url', 'DOMAIN', new URL(url.value).hostname);
  return found;
}

/**
 * The threat indicators events match (spec 2, threat match at ingest), for events not flagged
 * skipThreatMatch by a classifier. Indicators count while valid now (from `valid_from`, before
 * `expires_at`) and come from the organisation's own enabled sources and the enabled provider
 * sources it subscribes to. Addresses match IP indicators and the ranges holding them; the host
 * and fields.domain (and the host of fields.url) match domain indicators of themselves or a parent
 * domain; fields.url, fields.email and the hash fields (sha256, sha1, md5, hash) match by their
 * normalised value. One statement.
 */
export async function matchIndicators(
  db: Db,
  orgId: string,
  rows: readonly NewEventRow[],
): Promise<IndicatorMatch[]> {
  const candidates = rows.flatMap((row, index) =>
    row.flags?.includes('skipThreatMatch') ? [] : candidatesOf(row, index),
  );
  if (candidates.length === 0) return [];
  const result = await db.execute(sql`
    SELECT DISTINCT c.row, c.field, i.id AS indicator_id, i.source_id
    FROM jsonb_to_recordset(${JSON.stringify(candidates)}::jsonb) AS c(row int, field text, type text, value text)
    JOIN threat_indicators i ON i.type = c.type AND CASE
      WHEN c.type = 'IP' THEN i.value::inet >>= c.value::inet
      ELSE i.value = c.value
    END
    JOIN threat_sources s ON s.id = i.source_id AND s.enabled
    WHERE (i.valid_from IS NULL OR i.valid_from <= now())
      AND (i.expires_at IS NULL OR i.expires_at > now())
      AND (
        s.org_id = ${orgId}
        OR (s.org_id IS NULL AND EXISTS (
          SELECT 1 FROM threat_source_subscriptions sub WHERE sub.source_id = s.id AND sub.org_id = ${orgId}
        ))
      )
    ORDER BY c.row, c.field, i.id`);
  return rowsOf<{ row: number; field: MatchField; indicator_id: string; source_id: string }>(result).map(
    (match) => ({
      row: match.row,
      indicatorId: match.indicator_id,
      sourceId: match.source_id,
      field: match.field,
    }),
  );
}
