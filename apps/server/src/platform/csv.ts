import { createReadStream } from 'node:fs';
import Papa from 'papaparse';

/**
 * One CSV line (RFC 4180). Cells that a spreadsheet would read as a formula get a leading apostrophe,
 * so an exported name such as `=HYPERLINK(...)` stays text.
 */
export function csvLine(cells: readonly (string | number | boolean | null)[]): string {
  return `${cells
    .map((cell) => {
      const text = cell === null ? '' : String(cell);
      const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
      return /[",\r\n']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(',')}\r\n`;
}

/** A CSV file that papaparse could not read: unbalanced or misplaced quotes, binary content. */
export class CsvMalformedError extends Error {
  override readonly name = 'CsvMalformedError';
}

/** The line break of a file, from its first line: `\r\n`, `\r` or `\n`. */
function lineBreakOf(text: string): '\r\n' | '\r' | '\n' | null {
  const at = text.search(/[\r\n]/);
  if (at < 0 || (text[at] === '\r' && at === text.length - 1)) return null;
  if (text[at] === '\n') return '\n';
  return text[at + 1] === '\n' ? '\r\n' : '\r';
}

interface ParserResult {
  data: string[][];
  errors: Papa.ParseError[];
  meta: { cursor: number };
}

/**
 * The records of a comma-separated UTF-8 file, read with papaparse's parser one read of the file
 * at a time (the record cut by the end of a read waits for the next), so that a file of any length
 * never sits in memory at once and the caller may await between chunks. Every record is an array of
 * raw cells; a blank line comes through as `['']` so that the caller can count lines. A parse error
 * (a quote left open or misplaced, binary content) ends the iteration with CsvMalformedError.
 */
export async function* readCsvChunks(filePath: string, readBytes = 256 * 1024): AsyncGenerator<string[][]> {
  const input = createReadStream(filePath, { encoding: 'utf8', highWaterMark: readBytes });
  let parser: Papa.Parser | null = null;
  let partial = '';
  let baseIndex = 0;
  let sawBinary = false;

  const parse = (text: string, last: boolean): string[][] => {
    if (!parser) {
      const newline = lineBreakOf(text) ?? '\n';
      parser = new Papa.Parser({ delimiter: ',', newline, quoteChar: '"' });
    }
    const result = parser.parse(text, baseIndex, !last) as ParserResult;
    // Errors of the record held back for the next read are not errors yet.
    const error = result.errors.find((entry) => last || (entry.row ?? 0) < result.data.length);
    if (error) {
      throw new CsvMalformedError(
        `${error.code} at record ${baseIndex}+${error.row ?? '?'}: ${error.message}`,
      );
    }
    if (!last) {
      partial = text.substring(result.meta.cursor - baseIndex);
      baseIndex = result.meta.cursor;
    }
    return result.data;
  };

  try {
    for await (const chunk of input as AsyncIterable<string>) {
      if (!sawBinary && chunk.includes('\u0000')) sawBinary = true;
      if (sawBinary) throw new CsvMalformedError('The file holds binary content');
      const text = partial + chunk;
      // Until a line break arrives the line ending is unknown; keep reading.
      if (!parser && lineBreakOf(text) === null) {
        partial = text;
        continue;
      }
      const rows = parse(text, false);
      if (rows.length > 0) yield rows;
    }
    if (partial !== '') {
      const rows = parse(partial, true);
      if (rows.length > 0) yield rows;
    }
  } finally {
    input.destroy();
  }
}
