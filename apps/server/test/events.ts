import type { EventInput } from '@vigil/contracts';
import type { Db } from '../src/db/client';
import { insertEvents } from '../src/modules/events/store';

/** Stores events of an organisation for a test; `timestamp` may be a Date. Answers how many. */
export async function seedEvents(
  db: Db,
  orgId: string,
  inputs: (Omit<EventInput, 'timestamp'> & { timestamp?: Date | string | number })[],
): Promise<number> {
  return insertEvents(
    db,
    orgId,
    inputs.map(({ timestamp, ...rest }) => ({
      ...rest,
      timestamp: timestamp instanceof Date ? timestamp.toISOString() : timestamp,
    })),
  );
}

/** `count` events of one shape, a second apart from `start`, with `fields.n` = their index. */
export async function seedManyEvents(
  db: Db,
  orgId: string,
  count: number,
  start: Date,
  shape: EventInput = {},
) {
  return seedEvents(
    db,
    orgId,
    Array.from({ length: count }, (_, index) => ({
      ...shape,
      timestamp: new Date(start.getTime() + index * 1000),
      fields: { ...(shape.fields ?? {}), n: index },
    })),
  );
}
