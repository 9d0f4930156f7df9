import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { isIP } from 'node:net';
import { eventInputSchema, parseRangeBegin, type EventInput } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { validationFailed } from '../../platform/errors';
import { raiseHourVersions } from './rollups';
import type { events } from './tables';

export type NewEventRow = typeof events.$inferInsert;

/** NUL cannot be stored in text or jsonb; it is dropped from every string. */
const stripNul = (text: string) => (text.includes('\0') ? text.replace(/\0/g, '') : text);

function clean(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return stripNul(value);
  if (depth > 64 || value === null || typeof value !== 'object') {
    return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }
  if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      stripNul(key),
      clean(item, depth + 1),
    ]),
  );
}

const text = (value: string | null | undefined) => {
  const cleaned = value == null ? null : stripNul(value).trim();
  return cleaned === '' ? null : cleaned;
};

/** Where an event's input is not valid: its index in the batch and why. */
export class EventInputError extends Error {
  override readonly name = 'EventInputError';
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The row of one event input: the timestamp (its own, else `receivedAt`), text trimmed, NUL dropped;
 * an IP that is not an address goes to `fields.srcIp` / `fields.dstIp` (unless the fields hold those
 * names already). Throws EventInputError for input the schema refuses or an unreadable timestamp.
 */
export function eventRow(orgId: string, input: EventInput, receivedAt: Date, index = 0): NewEventRow {
  const parsed = eventInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EventInputError(index, `${issue.path.join('.') || 'event'}: ${issue.message}`);
  }
  const event = parsed.data;
  let ts = receivedAt;
  if (event.timestamp !== null && event.timestamp !== undefined && event.timestamp !== '') {
    const at = parseRangeBegin(event.timestamp);
    if (!at || at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9999) {
      throw new EventInputError(index, `timestamp: not a date-time: ${String(event.timestamp)}`);
    }
    ts = at;
  }
  const fields = (clean(event.fields ?? {}) as Record<string, unknown>) ?? {};
  const address = (name: 'srcIp' | 'dstIp') => {
    const value = text(event[name]);
    if (value === null || isIP(value) !== 0) return value;
    if (!(name in fields)) fields[name] = value;
    return null;
  };
  return {
    // Known before the insert, so that alerts raised at ingest can point at the event.
    id: randomUUID(),
    orgId,
    ts,
    receivedAt,
    host: text(event.host),
    srcIp: address('srcIp'),
    dstIp: address('dstIp'),
    userName: text(event.userName),
    dataSource: text(event.dataSource),
    message: event.message ? stripNul(event.message) : '',
    fields,
  };
}

/**
 * Stores events of one organisation: every input is validated first (nothing is stored when one is
 * refused: 400 EVENT_INVALID naming its index), then written by `insertEventRows` in one transaction,
 * so the events are committed together or not at all. Answers the number stored. For tests and seeds;
 * sources of live events go through `ingestEventRows` (pipeline.ts).
 */
export async function insertEvents(
  db: Db,
  orgId: string,
  inputs: readonly EventInput[],
  options: { receivedAt?: Date } = {},
): Promise<number> {
  const receivedAt = options.receivedAt ?? new Date();
  let rows: NewEventRow[];
  try {
    rows = inputs.map((input, index) => eventRow(orgId, input, receivedAt, index));
  } catch (error) {
    if (!(error instanceof EventInputError)) throw error;
    throw validationFailed('EVENT_INVALID', `Event ${error.index}: ${error.message}`, {
      params: { index: error.index, message: error.message },
    });
  }
  return insertEventRows(db, rows);
}

/** Rows per INSERT statement, sent as one JSON parameter. */
export const INSERT_BATCH_SIZE = 5000;

/**
 * Writes rows already checked by `eventRow`, in one transaction. Each statement takes its rows as one
 * JSON parameter expanded by `jsonb_to_recordset`: binding thousands of parameters a statement cost
 * several times the write itself.
 */
export async function insertEventRows(db: Db, rows: readonly NewEventRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += INSERT_BATCH_SIZE) {
      const records = rows.slice(start, start + INSERT_BATCH_SIZE).map((row) => ({
        org_id: row.orgId,
        ts: row.ts,
        id: row.id ?? randomUUID(),
        received_at: row.receivedAt ?? new Date(),
        host: row.host ?? null,
        src_ip: row.srcIp ?? null,
        dst_ip: row.dstIp ?? null,
        user_name: row.userName ?? null,
        data_source: row.dataSource ?? null,
        message: row.message ?? '',
        fields: row.fields ?? {},
        flags: row.flags ?? [],
      }));
      await tx.execute(sql`
        INSERT INTO events (org_id, ts, id, received_at, host, src_ip, dst_ip, user_name, data_source,
          message, fields, flags)
        SELECT org_id, ts, id, received_at, host, src_ip, dst_ip, user_name, data_source, message, fields,
          flags
        FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(org_id uuid, ts timestamptz,
          id uuid, received_at timestamptz, host text, src_ip inet, dst_ip inet, user_name text,
          data_source text, message text, fields jsonb, flags text[])`);
    }
    // Last, so that the hours' rows stay locked only until the commit that follows.
    await raiseHourVersions(tx as unknown as Db, rows);
  });
  return rows.length;
}
