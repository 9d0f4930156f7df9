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
 * normalised value. One statement over the batch's distinct values (a batch names the same hosts
 * and addresses many times), each looked up through an index: equality on (type, value), and the
 * GiST index of IP indicators as addresses for containment.
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
  const keyOf = (type: string, value: string) => `${type}|${value}`;
  const values = new Map<string, { k: number; type: ThreatIndicatorType; value: string }>();
  for (const { type, value } of candidates) {
    const key = keyOf(type, value);
    if (!values.has(key)) values.set(key, { k: values.size, type, value });
  }
  const result = await db.execute(sql`
    WITH v AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify([...values.values()])}::jsonb)
        AS v(k int, type text, value text)
    ), s AS MATERIALIZED (
      SELECT s.id FROM threat_sources s
      WHERE s.enabled AND (
        s.org_id = ${orgId}
        OR (s.org_id IS NULL AND EXISTS (
          SELECT 1 FROM threat_source_subscriptions sub WHERE sub.source_id = s.id AND sub.org_id = ${orgId}
        ))
      )
    ), hits AS (
      SELECT v.k, i.id, i.source_id, i.valid_from, i.expires_at
      FROM v JOIN threat_indicators i ON i.type = v.type AND i.value = v.value
      WHERE v.type <> 'IP'
      UNION ALL
      SELECT v.k, i.id, i.source_id, i.valid_from, i.expires_at
      FROM v JOIN threat_indicators i ON i.type = 'IP' AND (i.value::inet) >>= v.value::inet
      WHERE v.type = 'IP'
    )
    SELECT hits.k, hits.id AS indicator_id, hits.source_id
    FROM hits JOIN s ON s.id = hits.source_id
    WHERE (hits.valid_from IS NULL OR hits.valid_from <= now())
      AND (hits.expires_at IS NULL OR hits.expires_at > now())`);
  const byValue = new Map<number, { indicatorId: string; sourceId: string }[]>();
  for (const hit of rowsOf<{ k: number; indicator_id: string; source_id: string }>(result)) {
    const list = byValue.get(hit.k) ?? [];
    list.push({ indicatorId: hit.indicator_id, sourceId: hit.source_id });
    byValue.set(hit.k, list);
  }
  if (byValue.size === 0) return [];
  const seen = new Set<string>();
  const matches: IndicatorMatch[] = [];
  for (const candidate of candidates) {
    const k = values.get(keyOf(candidate.type, candidate.value))!.k;
    for (const hit of byValue.get(k) ?? []) {
      // A field meeting the same indicator through several values (a domain and its parent) is one match.
      const key = `${candidate.row}:${candidate.field}:${hit.indicatorId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      matches.push({ row: candidate.row, field: candidate.field, ...hit });
    }
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return matches.sort(
    (a, b) => a.row - b.row || order(a.field, b.field) || order(a.indicatorId, b.indicatorId),
  );
}
