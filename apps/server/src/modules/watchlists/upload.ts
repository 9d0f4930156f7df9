import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { WATCHLIST_VALUE_MAX_LENGTH } from '@vigil/contracts';
import { CsvMalformedError, readCsvChunks } from '../../platform/csv';
import { validationFailed } from '../../platform/errors';
import type { SpooledFile } from '../../platform/uploads';

export const uploadMalformed = (filename: string) =>
  validationFailed('WATCHLIST_UPLOAD_MALFORMED', `${filename} could not be read`, {
    params: { 0: filename },
  });

const valueTooLong = (filename: string, line: number) =>
  validationFailed(
    'WATCHLIST_UPLOAD_VALUE_TOO_LONG',
    `${filename} line ${line} holds a value longer than ${WATCHLIST_VALUE_MAX_LENGTH} characters`,
    { params: { 0: filename, line, max: WATCHLIST_VALUE_MAX_LENGTH } },
  );

/** Each line of a text file, numbered from 1. */
async function* textLines(filePath: string): AsyncGenerator<[string, number]> {
  const lines = createInterface({ input: createReadStream(filePath, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) yield [text, ++line];
}

/** The first cell of each CSV record, numbered from 1. */
async function* csvFirstCells(filePath: string): AsyncGenerator<[string, number]> {
  let line = 0;
  for await (const records of readCsvChunks(filePath)) {
    for (const record of records) yield [record[0] ?? '', ++line];
  }
}

/**
 * The distinct values of an uploaded file, added to `into`. A `.csv` file gives the first cell of
 * each record, after an optional header (`value` or the watchlist's field, any case, as the export
 * writes it); any other file gives each line whole. Values are trimmed and blank ones skipped. A
 * value over the length limit, NUL bytes or broken CSV quoting refuse the file.
 */
export async function readWatchlistFile(file: SpooledFile, field: string, into: Set<string>): Promise<void> {
  const csv = file.filename.toLowerCase().endsWith('.csv');
  const headers = new Set(['value', field.toLowerCase()]);
  let first = true;
  try {
    for await (const [raw, line] of csv ? csvFirstCells(file.path) : textLines(file.path)) {
      if (raw.includes('\u0000')) throw uploadMalformed(file.filename);
      // The export guards formula-like cells with an apostrophe; a re-upload takes them back.
      const value = (csv && /^'[=+\-@\t\r]/.test(raw) ? raw.slice(1) : raw).trim();
      if (value === '') continue;
      const header = csv && first && headers.has(value.toLowerCase());
      first = false;
      if (header) continue;
      if (value.length > WATCHLIST_VALUE_MAX_LENGTH) throw valueTooLong(file.filename, line);
      into.add(value);
    }
  } catch (error) {
    if (error instanceof CsvMalformedError) throw uploadMalformed(file.filename);
    throw error;
  }
}
