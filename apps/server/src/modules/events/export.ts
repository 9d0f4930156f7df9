import { Readable } from 'node:stream';
import { SEARCH_CSV_COLUMNS, SEARCH_CSV_MAX_ROWS } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { csvLine } from '../../platform/csv';
import { validationFailed } from '../../platform/errors';
import {
  resolveField,
  selectEvents,
  selectEventsAfter,
  type EventField,
  type EventRow,
  type EventScope,
} from './repo';
import {
  resolveSort,
  searchScope,
  withSearchTimeout,
  type SearchActor,
  type SearchOptions,
  type SearchScopeRequest,
} from './service';

/** Events read per statement while exporting. */
export const CSV_BATCH_SIZE = 1000;

export interface SearchCsvRequest extends SearchScopeRequest {
  sortField: string;
  sortOrder: string;
  columns: string[];
}

const COLUMN_VALUES: Record<string, (row: EventRow) => string | null> = {
  timestamp: (row) => row.timestamp,
  '@timestamp': (row) => row.timestamp,
  ts: (row) => row.timestamp,
  receivedAt: (row) => row.receivedAt,
  received_at: (row) => row.receivedAt,
  id: (row) => row.id,
  host: (row) => row.host,
  srcIp: (row) => row.srcIp,
  src_ip: (row) => row.srcIp,
  dstIp: (row) => row.dstIp,
  dst_ip: (row) => row.dstIp,
  userName: (row) => row.userName,
  user_name: (row) => row.userName,
  user: (row) => row.userName,
  dataSource: (row) => row.dataSource,
  data_source: (row) => row.dataSource,
  message: (row) => row.message,
};

/** A free field's value as a cell: text as it is, other JSON written as JSON, absent as empty. */
function fieldValue(fields: Record<string, unknown>, path: string[]): string | null {
  let current: unknown = fields;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  if (current === undefined || current === null) return null;
  return typeof current === 'string' ? current : JSON.stringify(current);
}

function extraColumn(name: string): (row: EventRow) => string | null {
  const column = COLUMN_VALUES[name];
  if (column) return column;
  const field: EventField | null = resolveField(name);
  if (!field || field.kind !== 'field') {
    throw validationFailed('SEARCH_INVALID_FIELD', `Not a field: ${name}`, {
      field: 'columns',
      params: { field: name },
    });
  }
  return (row) => fieldValue(row.fields ?? {}, field.path);
}

/** The sort and the extra columns of an export; 400 for a sort or a column that cannot be written. */
export function resolveCsvColumns(request: Pick<SearchCsvRequest, 'sortField' | 'sortOrder' | 'columns'>) {
  return {
    sort: resolveSort(request.sortField, request.sortOrder),
    extras: request.columns.map((name) => ({ name, value: extraColumn(name) })),
  };
}

export type CsvOptions = SearchOptions & { maxRows?: number; batchSize?: number };

/** A column written before the fixed ones, such as the organisation of a cross-organisation export. */
export interface LeadColumn {
  name: string;
  value: (row: EventRow) => string | null;
}

/**
 * The first `maxRows` (SEARCH_CSV_MAX_ROWS) events of a search as CSV, in the search's order: the
 * columns timestamp, host, srcIp, dstIp, userName, dataSource, message and then the requested fields.
 */
export async function exportEventsCsv(
  db: Db,
  actor: SearchActor,
  request: SearchCsvRequest,
  options: CsvOptions = {},
): Promise<Readable> {
  const columns = resolveCsvColumns(request);
  const scope = await searchScope(db, actor, request, options);
  return streamEventsCsv(db, scope, columns, options);
}

/**
 * The events of a scope as CSV, `lead` columns first. Time-ordered exports page by keyset (time to
 * the microsecond, then id), so rows never repeat; other orders page by offset, each batch its own
 * statement under the search timeout. The first batch is read before the stream is answered, so that
 * an invalid request or a timeout is still a JSON error. Cells that a spreadsheet would take for a
 * formula are quoted as text by csvLine.
 */
export async function streamEventsCsv(
  db: Db,
  scope: EventScope,
  { sort, extras }: ReturnType<typeof resolveCsvColumns>,
  options: CsvOptions = {},
  lead: readonly LeadColumn[] = [],
): Promise<Readable> {
  const maxRows = options.maxRows ?? SEARCH_CSV_MAX_ROWS;
  const batchSize = options.batchSize ?? CSV_BATCH_SIZE;
  const byTime = sort.field.kind === 'column' && sort.field.column === 'ts';

  let written = 0;
  let exhausted = false;
  let last: EventRow | undefined;
  const nextBatch = async (): Promise<EventRow[]> => {
    const limit = Math.min(batchSize, maxRows - written);
    if (limit <= 0 || exhausted) return [];
    const rows = await withSearchTimeout(db, options, (tx) =>
      byTime
        ? selectEventsAfter(tx, scope, sort.desc, last ? { cursor: last.cursor, id: last.id } : null, limit)
        : selectEvents(tx, scope, sort, { limit, offset: written }),
    );
    written += rows.length;
    exhausted = rows.length < limit;
    last = rows.at(-1);
    return rows;
  };

  const first = await nextBatch();
  const line = (row: EventRow) =>
    csvLine([
      ...lead.map((column) => column.value(row)),
      ...SEARCH_CSV_COLUMNS.map((column) => COLUMN_VALUES[column]!(row)),
      ...extras.map((extra) => extra.value(row)),
    ]);
  async function* lines() {
    yield csvLine([
      ...lead.map((column) => column.name),
      ...SEARCH_CSV_COLUMNS,
      ...extras.map((extra) => extra.name),
    ]);
    for (let rows = first; rows.length > 0; rows = await nextBatch()) yield rows.map(line).join('');
  }
  return Readable.from(lines());
}
