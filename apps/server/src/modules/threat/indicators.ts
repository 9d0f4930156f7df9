import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import {
  normaliseIndicatorValue,
  THREAT_INDICATOR_INVALID_KEYS,
  THREAT_INDICATOR_RATINGS,
  THREAT_INDICATOR_REASON_MAX_LENGTH,
  THREAT_INDICATOR_SEVERITIES,
  THREAT_INDICATORS_PER_SOURCE_MAX,
  type ThreatIndicator,
  type ThreatIndicatorType,
  type ThreatUploadColumn,
  type ThreatUploadLineError,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { findEditableSource, findVisibleSource, type Actor } from './sources';
import { threatIndicators } from './tables';

export type IndicatorRow = typeof threatIndicators.$inferSelect;
export type NewIndicator = Omit<typeof threatIndicators.$inferInsert, 'id' | 'createdOn'>;

/** An indicator as given: text cells of an upload line, or the fields of an API body. */
export interface RawIndicator {
  value: string;
  rating: string;
  severity: string | null;
  reason: string;
  validFrom: string | null;
  expires: string | null;
}

export interface IndicatorFault {
  field: ThreatUploadColumn;
  key: ThreatUploadLineError;
  value: string;
}

/** The values allowed where a fault says a value is not among them. */
export const VALID_VALUES: Partial<Record<ThreatUploadLineError, string[]>> = {
  THREAT_INDICATOR_INVALID_RATING: [...THREAT_INDICATOR_RATINGS],
  THREAT_INDICATOR_INVALID_SEVERITY: [...THREAT_INDICATOR_SEVERITIES],
};

const includes = (list: readonly string[], value: string) => list.includes(value);

function parseTime(text: string | null): Date | null | 'invalid' {
  if (text === null || text.trim() === '') return null;
  const time = Date.parse(text.trim());
  return Number.isNaN(time) ? 'invalid' : new Date(time);
}

/**
 * Checks one indicator of a type (spec 2 section 5): the value of its type, rating and severity from
 * their lists (upper case accepted in any case), times readable, and an IP indicator valid from a
 * start to an end. Answers the row to store, or every fault.
 */
export function checkIndicator(
  sourceId: string,
  type: ThreatIndicatorType,
  raw: RawIndicator,
): { row: NewIndicator; faults: [] } | { row: null; faults: IndicatorFault[] } {
  const faults: IndicatorFault[] = [];
  const value = normaliseIndicatorValue(type, raw.value);
  if (value === null)
    faults.push({ field: 'value', key: THREAT_INDICATOR_INVALID_KEYS[type], value: raw.value });
  const rating = raw.rating.trim().toUpperCase();
  if (!includes(THREAT_INDICATOR_RATINGS, rating)) {
    faults.push({ field: 'rating', key: 'THREAT_INDICATOR_INVALID_RATING', value: raw.rating });
  }
  const severity = raw.severity?.trim() ? raw.severity.trim().toUpperCase() : null;
  if (severity !== null && !includes(THREAT_INDICATOR_SEVERITIES, severity)) {
    faults.push({ field: 'severity', key: 'THREAT_INDICATOR_INVALID_SEVERITY', value: raw.severity ?? '' });
  }
  const reason = raw.reason.trim();
  if (reason.length > THREAT_INDICATOR_REASON_MAX_LENGTH) {
    faults.push({ field: 'reason', key: 'THREAT_INDICATOR_REASON_TOO_LONG', value: reason.slice(0, 64) });
  }
  const validFrom = parseTime(raw.validFrom);
  const expiresAt = parseTime(raw.expires);
  if (validFrom === 'invalid') {
    faults.push({ field: 'validFrom', key: 'THREAT_INDICATOR_INVALID_TIME', value: raw.validFrom ?? '' });
  }
  if (expiresAt === 'invalid') {
    faults.push({ field: 'expires', key: 'THREAT_INDICATOR_INVALID_TIME', value: raw.expires ?? '' });
  }
  const times = validFrom !== 'invalid' && expiresAt !== 'invalid';
  const missing = type === 'IP' && (validFrom === null || expiresAt === null);
  const reversed = validFrom instanceof Date && expiresAt instanceof Date && validFrom >= expiresAt;
  if (times && (missing || reversed)) {
    faults.push({
      field: validFrom === null ? 'validFrom' : 'expires',
      key: 'THREAT_INDICATOR_TIMES_REQUIRED',
      value: (validFrom === null ? raw.validFrom : raw.expires) ?? '',
    });
  }
  if (faults.length > 0 || value === null || !times) return { row: null, faults };
  return {
    row: { sourceId, type, value, rating, severity, reason, validFrom, expiresAt },
    faults: [],
  };
}

/** A fault of a single indicator as the API's 400. */
export function faultError({ field, key, value }: IndicatorFault): AppError {
  return validationFailed(key, `Invalid ${field}: ${value}`, {
    field: field === 'expires' ? 'expiresAt' : field,
    params: { value, max: THREAT_INDICATOR_REASON_MAX_LENGTH },
    validValues: VALID_VALUES[key],
  });
}

export const duplicateError = (value: string) =>
  conflict('THREAT_INDICATOR_DUPLICATE', `The source already holds ${value}`, {
    field: 'value',
    params: { value },
  });

export const limitExceeded = (overflow: number) =>
  conflict(
    'THREAT_INDICATOR_LIMIT_EXCEEDED',
    `A threat source holds at most ${THREAT_INDICATORS_PER_SOURCE_MAX} indicators`,
    { params: { max: THREAT_INDICATORS_PER_SOURCE_MAX, overflow } },
  );

const indicatorNotFound = () =>
  new AppError('NotFoundException', 'THREAT_INDICATOR_NOT_FOUND', 'Indicator not found');

export function toJson(row: IndicatorRow): ThreatIndicator {
  return {
    id: row.id,
    sourceId: row.sourceId,
    type: row.type as ThreatIndicatorType,
    value: row.value,
    rating: row.rating,
    severity: row.severity,
    reason: row.reason,
    validFrom: row.validFrom?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdOn: row.createdOn.toISOString(),
  };
}

export async function countIndicators(db: Db, sourceId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(threatIndicators)
    .where(eq(threatIndicators.sourceId, sourceId));
  return row?.total ?? 0;
}

/** The values among `values` (of one type) the source already holds. */
export async function heldValues(
  db: Db,
  sourceId: string,
  type: string,
  values: string[],
): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const rows = await db
    .select({ value: threatIndicators.value })
    .from(threatIndicators)
    .where(
      and(
        eq(threatIndicators.sourceId, sourceId),
        eq(threatIndicators.type, type),
        inArray(threatIndicators.value, values),
      ),
    );
  return new Set(rows.map((row) => row.value));
}

/** One page of a source's indicators by type and value; `search` matches part of the value or reason. */
export async function listIndicators(
  db: Db,
  access: AccessContext,
  sourceId: string,
  query: { type?: ThreatIndicatorType; search?: string; pageSize: number; pageNumber: number },
): Promise<{ items: ThreatIndicator[]; total: number }> {
  await findVisibleSource(db, access, sourceId);
  const pattern = query.search ? `%${escapeLike(query.search)}%` : null;
  const where = and(
    eq(threatIndicators.sourceId, sourceId),
    query.type ? eq(threatIndicators.type, query.type) : undefined,
    pattern ? or(ilike(threatIndicators.value, pattern), ilike(threatIndicators.reason, pattern)) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(threatIndicators)
      .where(where)
      .orderBy(asc(threatIndicators.type), asc(threatIndicators.value), asc(threatIndicators.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(threatIndicators)
      .where(where),
  ]);
  return { items: rows.map(toJson), total: count?.total ?? 0 };
}

export interface IndicatorInput {
  type: ThreatIndicatorType;
  value: string;
  rating: string;
  severity?: string | null;
  reason: string;
  validFrom?: string | null;
  expiresAt?: string | null;
}

function checked(sourceId: string, input: IndicatorInput): NewIndicator {
  const result = checkIndicator(sourceId, input.type, {
    value: input.value,
    rating: input.rating,
    severity: input.severity ?? null,
    reason: input.reason,
    validFrom: input.validFrom ?? null,
    expires: input.expiresAt ?? null,
  });
  if (!result.row) throw faultError(result.faults[0]!);
  return result.row;
}

/** Unique-index races end as 409 like the checked case. */
async function mapDuplicate<T>(value: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) === '23505') throw duplicateError(value);
    throw error;
  }
}

const snapshot = (row: NewIndicator) => ({
  type: row.type,
  value: row.value,
  rating: row.rating,
  severity: row.severity,
  reason: row.reason,
  validFrom: row.validFrom,
  expiresAt: row.expiresAt,
});

async function audit(db: Db, actor: Actor, action: string, id: string, details: Record<string, unknown>) {
  await recordActivity(db, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action,
    targetType: 'threat-indicator',
    targetId: id,
    details,
    ip: actor.ip,
  });
}

export async function createIndicator(
  db: Db,
  actor: Actor,
  sourceId: string,
  input: IndicatorInput,
): Promise<ThreatIndicator> {
  await findEditableSource(db, actor.access, sourceId);
  const values = checked(sourceId, input);
  if ((await heldValues(db, sourceId, values.type, [values.value])).size > 0)
    throw duplicateError(values.value);
  const total = await countIndicators(db, sourceId);
  if (total >= THREAT_INDICATORS_PER_SOURCE_MAX)
    throw limitExceeded(total + 1 - THREAT_INDICATORS_PER_SOURCE_MAX);
  return mapDuplicate(values.value, () =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(threatIndicators).values(values).returning();
      await audit(tx, actor, 'threat-indicator.created', row!.id, { sourceId, after: snapshot(row!) });
      return toJson(row!);
    }),
  );
}

async function findIndicator(db: Db, sourceId: string, id: string): Promise<IndicatorRow> {
  const [row] = await db
    .select()
    .from(threatIndicators)
    .where(and(eq(threatIndicators.id, id), eq(threatIndicators.sourceId, sourceId)));
  if (!row) throw indicatorNotFound();
  return row;
}

export async function replaceIndicator(
  db: Db,
  actor: Actor,
  sourceId: string,
  id: string,
  input: IndicatorInput,
): Promise<ThreatIndicator> {
  await findEditableSource(db, actor.access, sourceId);
  const before = await findIndicator(db, sourceId, id);
  const values = checked(sourceId, input);
  const changedValue = values.type !== before.type || values.value !== before.value;
  if (changedValue && (await heldValues(db, sourceId, values.type, [values.value])).size > 0) {
    throw duplicateError(values.value);
  }
  return mapDuplicate(values.value, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(threatIndicators)
        .set(values)
        .where(eq(threatIndicators.id, id))
        .returning();
      await audit(tx, actor, 'threat-indicator.updated', id, {
        sourceId,
        before: snapshot(before),
        after: snapshot(row!),
      });
      return toJson(row!);
    }),
  );
}

export async function removeIndicator(db: Db, actor: Actor, sourceId: string, id: string): Promise<void> {
  await findEditableSource(db, actor.access, sourceId);
  const before = await findIndicator(db, sourceId, id);
  await db.transaction(async (tx) => {
    await tx.delete(threatIndicators).where(eq(threatIndicators.id, id));
    await audit(tx, actor, 'threat-indicator.deleted', id, { sourceId, before: snapshot(before) });
  });
}
