import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvMalformedError, csvLine, readCsvChunks } from './csv';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'vigil-csv-test-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function read(content: string | Buffer, readBytes?: number) {
  const file = path.join(folder, `f${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, content);
  const rows: string[][] = [];
  let chunks = 0;
  for await (const chunk of readCsvChunks(file, readBytes)) {
    chunks++;
    rows.push(...chunk);
  }
  return { rows, chunks };
}

describe('csvLine', () => {
  it('quotes what needs quoting and neutralises formulas', () => {
    expect(csvLine(['a', 1, true, null, 'b,c', 'say "hi"', 'two\nlines'])).toBe(
      'a,1,true,,"b,c","say ""hi""","two\nlines"\r\n',
    );
    expect(csvLine(['=1+1', '+1', '-1', '@x', '\tx', 'x=1'])).toBe(
      `"'=1+1","'+1","'-1","'@x","'\tx",x=1\r\n`,
    );
  });
});

describe('readCsvChunks', () => {
  it('reads records across reads of any size, keeping quoted line breaks, quotes and UTF-8', async () => {
    const lines = ['name,id,ip'];
    for (let index = 0; index < 300; index++) lines.push(`host ${index},,"10.0.${index % 250}.1"`);
    lines.push('', 'é,ü,"multi\r\nline ""quoted"""');
    const content = `\uFEFF${lines.join('\r\n')}`;
    for (const readBytes of [1, 2, 3, 7, 64, 65_536]) {
      const { rows } = await read(content, readBytes);
      expect(rows).toHaveLength(303);
      expect(rows[0]).toEqual(['\uFEFFname', 'id', 'ip']);
      expect(rows[5]).toEqual(['host 4', '', '10.0.4.1']);
      expect(rows[301]).toEqual(['']);
      expect(rows[302]).toEqual(['é', 'ü', 'multi\r\nline "quoted"']);
    }
  });

  it('hands over a large file a chunk at a time', async () => {
    const body = Array.from({ length: 50_000 }, (_, index) => `row ${index},x`).join('\n');
    const { rows, chunks } = await read(`a,b\n${body}\n`, 64 * 1024);
    expect(rows).toHaveLength(50_001);
    expect(chunks).toBeGreaterThan(5);
  });

  it('reads \\n, \\r\\n and \\r line breaks, and files without a final break or any content', async () => {
    expect((await read('a,b\nc,d\n')).rows).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect((await read('a,b\rc,d')).rows).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect((await read('a,b')).rows).toEqual([['a', 'b']]);
    expect((await read('')).rows).toEqual([]);
  });

  it('refuses open or misplaced quotes and binary content', async () => {
    await expect(read('a,b\n"open,b\nc,d\n')).rejects.toBeInstanceOf(CsvMalformedError);
    await expect(read('a,b\n"x"y,b\n')).rejects.toBeInstanceOf(CsvMalformedError);
    await expect(read(Buffer.from([0x61, 0x2c, 0, 1, 2, 0x0a]))).rejects.toBeInstanceOf(CsvMalformedError);
  });
});
