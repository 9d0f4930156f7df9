import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { eventInputSchema, parseRangeBegin, type EventInput } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { validationFailed } from '../../platform/errors';
import { events } from './tables';

/** Rows per INSERT statement (12 parameters a row, well under PostgreSQL's 65,535). */
export const INSERT_BATCH_SIZE = 500;

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
 * refused: 400 EVENT_INVALID naming its index), then written by multi-row INSERTs of
 * INSERT_BATCH_SIZE in one transaction, so the events are committed together or not at all. Answers
 * the number stored. The one write path of the ingest API, syslog and the demo generator.
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

/** Writes rows already checked by `eventRow`, in batches, in one transaction. */
export async function insertEventRows(db: Db, rows: readonly NewEventRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += INSERT_BATCH_SIZE) {
      await tx.insert(events).values(rows.slice(start, start + INSERT_BATCH_SIZE));
    }
  });
  return rows.length;
}
