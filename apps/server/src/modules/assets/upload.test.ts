import { createReadStream } from 'node:fs';
import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_UPLOAD_MAX_FILE_BYTES, ASSET_UPLOAD_MAX_FILES } from '@vigil/contracts';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { updateAssetRow } from './repo';
import { assetAddresses, assetAddressHistory, assets } from './tables';

let ctx: TestContext;
let scratch: string;

interface Tenant {
  orgId: string;
  editor: SeededUser;
  viewer: SeededUser;
}

async function tenant(): Promise<Tenant> {
  const db = ctx.database.db;
  const orgId = (await seedOrg(db)).id;
  return {
    orgId,
    editor: await seedUser(db, { homeOrgId: orgId, permissions: ['ASSET_VIEW', 'ASSET_EDIT'] }),
    viewer: await seedUser(db, { homeOrgId: orgId, permissions: ['ASSET_VIEW'] }),
  };
}

const savedTmpdir = process.env.TMPDIR;
beforeAll(async () => {
  ctx = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'vigil-upload-test-'));
  // Uploads spool under this file's own folder, so that the check for leftovers sees only its own.
  process.env.TMPDIR = scratch;
});
afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await ctx.close();
  await rm(scratch, { recursive: true, force: true });
});

interface UploadFile {
  filename: string;
  content?: string | Buffer;
  /** A file on disk, streamed into the request. */
  path?: string;
}

const BOUNDARY = '----vigil-test-boundary-7MA4YWxkTrZu0gW';

/** A multipart/form-data body, streamed, with a form field besides the files. */
function multipart(files: UploadFile[]) {
  async function* body() {
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nfrom a test\r\n`);
    for (const file of files) {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${file.filename}"\r\n` +
          'Content-Type: text/csv\r\n\r\n',
      );
      if (file.path) yield* createReadStream(file.path);
      else yield Buffer.from(file.content ?? '');
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${BOUNDARY}--\r\n`);
  }
  return Readable.from(body());
}

const upload = (t: Tenant, mode: string, files: UploadFile[], who: SeededUser = t.editor) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/org/${t.orgId}/asset-upload?mode=${mode}`,
    headers: { ...browserHeaders(who.cookie), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart(files),
  });

type Row = Partial<
  Record<'name' | 'id' | 'hostname' | 'ip' | 'mac' | 'importance' | 'label' | 'notes', string>
>;
const HEADER = ['Label', 'IMPORTANCE', 'mac', 'ip', 'Hostname', 'ID', 'name', 'notes'] as const;
const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csv = (rows: (Row | null)[]) =>
  [
    HEADER.join(','),
    ...rows.map((row) =>
      row === null
        ? ''
        : HEADER.map((column) => quote(row[column.toLowerCase() as keyof Row] ?? '')).join(','),
    ),
  ].join('\r\n') + '\r\n';

async function countAssets(orgId: string) {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(assets)
    .where(eq(assets.orgId, orgId));
  return row!.n;
}

const createAsset = async (t: Tenant, body: object) => {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/org/${t.orgId}/asset`,
    headers: browserHeaders(t.editor.cookie),
    payload: { importance: 'low', ...body },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string };
};

describe('checking a file size', () => {
  it('answers whether a size is allowed, with the limits', async () => {
    const t = await tenant();
    const check = async (size: number) =>
      (
        await ctx.app.inject({
          url: `/api/org/${t.orgId}/asset-upload?size=${size}`,
          headers: browserHeaders(t.viewer.cookie),
        })
      ).json();
    expect(await check(1000)).toEqual({
      allowed: true,
      maxFileBytes: ASSET_UPLOAD_MAX_FILE_BYTES,
      maxFiles: ASSET_UPLOAD_MAX_FILES,
    });
    expect((await check(ASSET_UPLOAD_MAX_FILE_BYTES)).allowed).toBe(true);
    expect((await check(ASSET_UPLOAD_MAX_FILE_BYTES + 1)).allowed).toBe(false);
  });
});

describe('line errors and modes', () => {
  let t: Tenant;
  let known: { id: string };
  let deleted: { id: string };
  const unknownId = '3f2b8c1e-0d4a-4e6b-9c7d-5a1e2f3b4c5d';

  const lines: (Row | null)[] = [];
  const secondFile: Row[] = [];
  beforeAll(async () => {
    t = await tenant();
    known = await createAsset(t, {
      name: 'Known asset',
      tag: 'K-1',
      hostnames: ['known-old'],
      ipMacPairs: [{ ip: '10.1.0.1', mac: '02:00:00:01:00:01' }, { ip: '10.1.0.2' }],
    });
    await createAsset(t, {
      name: 'Holder',
      ipMacPairs: [{ ip: '10.1.0.5', mac: '02:00:00:01:00:05' }],
    });
    deleted = await createAsset(t, { name: 'Deleted' });
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/org/${t.orgId}/assets?assetId=${deleted.id}`,
      headers: browserHeaders(t.editor.cookie),
    });
    lines.push(
      /* 2 */ {
        name: 'Teller 1',
        hostname: 'teller-01; teller-01.branch',
        ip: '10.2.0.1;10.2.0.2',
        mac: '02-00-00-02-00-01;',
        importance: 'High',
        label: 'Teller; Branch ;',
        notes: 'ignored',
      },
      /* 3 */ { hostname: 'nameless' },
      /* 4 */ { name: 'No identifier', importance: 'low' },
      /* 5 */ { name: 'Bad id', id: 'abc', hostname: 'h5' },
      /* 6 */ { name: 'Unknown id', id: unknownId, hostname: 'h6' },
      /* 7 */ { name: 'Deleted id', id: deleted.id, hostname: 'h7' },
      /* 8 */ {
        name: 'Known asset renamed',
        id: known.id.toUpperCase(),
        ip: '10.1.0.1;10.1.0.3',
        mac: '0200.0001.0001;',
        importance: 'medium',
        label: 'Updated',
      },
      /* 9 */ { name: 'Known again', id: known.id, hostname: 'h9' },
      /* 10 */ { name: 'Bad ip', ip: '10.0.0.256' },
      /* 11 */ { name: 'Repeated ip', ip: '10.2.0.1' },
      /* 12 */ { name: 'Held ip', ip: '10.1.0.5' },
      /* 13 */ { name: 'Bad mac', mac: '02:00:00' },
      /* 14 */ { name: 'Repeated mac', mac: '02:00:00:02:00:01' },
      /* 15 */ { name: 'Held mac', mac: '02-00-00-01-00-05' },
      /* 16 */ { name: 'Mismatch', ip: '10.3.0.1;10.3.0.2', mac: '02:00:00:03:00:01' },
      /* 17 */ { name: 'Empty hostname', hostname: 'a;;b' },
      /* 18 */ { name: 'Bad importance', hostname: 'h18', importance: 'urgent' },
      /* 19 */ { name: 'Bad label', hostname: 'h19', label: `ok;${'x'.repeat(65)}` },
      /* 20 */ { name: 'n'.repeat(201), hostname: 'h20' },
      /* 21 */ { name: 'Blank importance', hostname: 'h21', ip: 'FD00:0:0::21' },
      /* 22 */ null,
      /* 23 */ { name: 'Several', hostname: 'h23', id: 'also-bad', importance: 'x' },
    );
    secondFile.push(
      /* 2 */ { name: 'Across files', ip: '10.2.0.2' },
      /* 3 */ { name: 'Fine in file 2', hostname: 'f2', ip: 'fd00::22' },
    );
  });

  const expectedErrors = () => [
    { file: 'inventory.csv', line: 3, field: 'name', key: 'nameRequired', value: '' },
    { file: 'inventory.csv', line: 4, field: 'hostname', key: 'identifierRequired', value: '' },
    { file: 'inventory.csv', line: 5, field: 'id', key: 'badId', value: 'abc' },
    { file: 'inventory.csv', line: 6, field: 'id', key: 'unknownId', value: unknownId },
    { file: 'inventory.csv', line: 7, field: 'id', key: 'unknownId', value: deleted.id },
    { file: 'inventory.csv', line: 9, field: 'id', key: 'duplicateId', value: known.id },
    { file: 'inventory.csv', line: 10, field: 'ip', key: 'badIp', value: '10.0.0.256' },
    { file: 'inventory.csv', line: 11, field: 'ip', key: 'duplicateIp', value: '10.2.0.1' },
    { file: 'inventory.csv', line: 12, field: 'ip', key: 'ipInUse', value: '10.1.0.5' },
    { file: 'inventory.csv', line: 13, field: 'mac', key: 'badMac', value: '02:00:00' },
    { file: 'inventory.csv', line: 14, field: 'mac', key: 'duplicateMac', value: '02:00:00:02:00:01' },
    { file: 'inventory.csv', line: 15, field: 'mac', key: 'macInUse', value: '02:00:00:01:00:05' },
    { file: 'inventory.csv', line: 16, field: 'mac', key: 'ipMacMismatch', value: '02:00:00:03:00:01' },
    { file: 'inventory.csv', line: 17, field: 'hostname', key: 'emptyHostname', value: 'a;;b' },
    { file: 'inventory.csv', line: 18, field: 'importance', key: 'badImportance', value: 'urgent' },
    { file: 'inventory.csv', line: 19, field: 'label', key: 'badLabel', value: 'x'.repeat(65) },
    { file: 'inventory.csv', line: 20, field: 'name', key: 'tooLong', value: 'n'.repeat(201) },
    { file: 'inventory.csv', line: 23, field: 'id', key: 'badId', value: 'also-bad' },
    { file: 'inventory.csv', line: 23, field: 'importance', key: 'badImportance', value: 'x' },
    { file: 'second.csv', line: 2, field: 'ip', key: 'duplicateIp', value: '10.2.0.2' },
  ];
  const files = () => [
    { filename: 'inventory.csv', content: csv(lines) },
    { filename: 'second.csv', content: csv(secondFile) },
  ];

  it('reports every line error and stores nothing when validating', async () => {
    const before = await countAssets(t.orgId);
    const response = await upload(t, 'validate', files());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      files: 2,
      lines: 23,
      validLines: 4,
      errorCount: 20,
      errors: expectedErrors(),
      created: 0,
      updated: 0,
      stored: false,
    });
    expect(await countAssets(t.orgId)).toBe(before);
    // validate is the default mode.
    const byDefault = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${t.orgId}/asset-upload`,
      headers: {
        ...browserHeaders(t.editor.cookie),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: multipart(files()),
    });
    expect(byDefault.json()).toMatchObject({ errorCount: 20, stored: false });
  });

  it('stores nothing in mode all while any line has an error', async () => {
    const before = await countAssets(t.orgId);
    const response = await upload(t, 'all', files());
    expect(response.json()).toMatchObject({ errorCount: 20, created: 0, updated: 0, stored: false });
    expect(await countAssets(t.orgId)).toBe(before);
  });

  it('streams every line error as CSV in mode errors-csv, storing nothing', async () => {
    const before = await countAssets(t.orgId);
    const response = await upload(t, 'errors-csv', files());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('attachment');
    const rows = response.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('file,line,field,error,value');
    expect(rows.slice(1)).toEqual(
      expectedErrors().map((error) =>
        [error.file, error.line, error.field, error.key, error.value].join(','),
      ),
    );
    expect(await countAssets(t.orgId)).toBe(before);
  });

  it('stores the valid lines in mode valid: creating, and updating assets named by id', async () => {
    const before = await countAssets(t.orgId);
    const response = await upload(t, 'valid', files());
    expect(response.json()).toMatchObject({
      validLines: 4,
      errorCount: 20,
      created: 3,
      updated: 1,
      stored: true,
    });
    expect(await countAssets(t.orgId)).toBe(before + 3);
    const list = await ctx.app.inject({
      url: `/api/org/${t.orgId}/assets/search?pageSize=100`,
      headers: browserHeaders(t.viewer.cookie),
    });
    const byName = new Map(list.json().items.map((asset: { name: string }) => [asset.name, asset]));
    expect(byName.get('Teller 1')).toMatchObject({
      importance: 'high',
      tracked: true,
      hostnames: ['teller-01', 'teller-01.branch'],
      labels: ['Teller', 'Branch'],
      ipMacPairs: [
        { ip: '10.2.0.1', mac: '02:00:00:02:00:01' },
        { ip: '10.2.0.2', mac: null },
      ],
    });
    expect(byName.get('Blank importance')).toMatchObject({
      importance: 'low',
      ipMacPairs: [{ ip: 'fd00::21' }],
    });
    expect(byName.get('Fine in file 2')).toMatchObject({ importance: 'low' });
    expect(byName.get('Known asset renamed')).toMatchObject({
      id: known.id,
      tag: 'K-1',
      importance: 'medium',
      hostnames: [],
      labels: ['Updated'],
      ipMacPairs: [
        { ip: '10.1.0.1', mac: '02:00:00:01:00:01' },
        { ip: '10.1.0.3', mac: null },
      ],
    });
    // The dropped pair went to the history; the kept one was not touched.
    const history = await ctx.database.db
      .select()
      .from(assetAddressHistory)
      .where(eq(assetAddressHistory.assetId, known.id));
    expect(history.map((row) => row.ip)).toEqual(['10.1.0.2']);
    // The search text follows the upload.
    const found = await ctx.app.inject({
      url: `/api/org/${t.orgId}/assets/search?query=k-1%20renamed`,
      headers: browserHeaders(t.viewer.cookie),
    });
    expect(found.json().total).toBe(1);
    const [audit] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, t.orgId), eq(activityLog.action, 'asset.uploaded')));
    expect(audit).toMatchObject({
      actorUserId: t.editor.id,
      details: { files: ['inventory.csv', 'second.csv'], mode: 'valid', created: 3, updated: 1 },
    });
  });

  it('stores every line in mode all when none has an error, making untracked assets tracked', async () => {
    const other = await tenant();
    const discovered = await createAsset(other, { name: 'seen-host', ipMacPairs: [{ ip: '10.9.0.1' }] });
    await updateAssetRow(ctx.database.db, other.orgId, discovered.id, { tracked: false });
    const content = csv([
      { name: 'Seen host', id: discovered.id, hostname: 'seen-host', ip: '10.9.0.1' },
      { name: 'Vault camera', hostname: 'cam-01', mac: 'aabb.ccdd.ee01', importance: 'medium' },
    ]);
    const response = await upload(other, 'all', [{ filename: 'clean.csv', content }]);
    expect(response.json()).toEqual({
      files: 1,
      lines: 2,
      validLines: 2,
      errorCount: 0,
      errors: [],
      created: 1,
      updated: 1,
      stored: true,
    });
    const seen = await ctx.app.inject({
      url: `/api/org/${other.orgId}/asset/${discovered.id}`,
      headers: browserHeaders(other.viewer.cookie),
    });
    expect(seen.json()).toMatchObject({ name: 'Seen host', tracked: true, hostnames: ['seen-host'] });
  });

  it('lists the first 100 errors and counts all of them', async () => {
    const other = await tenant();
    const rows = Array.from({ length: 150 }, (_, index) => ({
      name: `Bad ${index}`,
      ip: `300.0.0.${index}`,
    }));
    const response = await upload(other, 'validate', [{ filename: 'many.csv', content: csv(rows) }]);
    expect(response.json()).toMatchObject({ lines: 150, validLines: 0, errorCount: 150 });
    expect(response.json().errors).toHaveLength(100);
    expect(response.json().errors[99]).toMatchObject({ line: 101, key: 'badIp' });
    const all = await upload(other, 'errors-csv', [{ filename: 'many.csv', content: csv(rows) }]);
    expect(all.body.trimEnd().split('\r\n')).toHaveLength(151);
  });
});

describe('refused uploads', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant();
  });
  const header = 'name,id,hostname,ip,mac,importance,label\r\n';
  const leftovers = async () =>
    (await readdir(scratch)).filter((name) => name.startsWith('vigil-asset-upload-')).length;

  it('needs at least one file', async () => {
    const none = await upload(t, 'validate', []);
    expect(none.statusCode).toBe(400);
    expect(none.json().key).toBe('ASSET_UPLOAD_NO_FILES');
    const json = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${t.orgId}/asset-upload?mode=validate`,
      headers: browserHeaders(t.editor.cookie),
      payload: { files: [] },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().key).toBe('ASSET_UPLOAD_NO_FILES');
  });

  it(`takes at most ${ASSET_UPLOAD_MAX_FILES} files`, async () => {
    const file = (index: number) => ({
      filename: `f${index}.csv`,
      content: `${header}Host ${index},,h${index},,,,\r\n`,
    });
    const most = await upload(
      t,
      'validate',
      Array.from({ length: ASSET_UPLOAD_MAX_FILES }, (_, index) => file(index)),
    );
    expect(most.json()).toMatchObject({
      files: ASSET_UPLOAD_MAX_FILES,
      lines: ASSET_UPLOAD_MAX_FILES,
      errorCount: 0,
    });
    const tooMany = await upload(
      t,
      'validate',
      Array.from({ length: ASSET_UPLOAD_MAX_FILES + 1 }, (_, index) => file(index)),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().key).toBe('ASSET_UPLOAD_TOO_MANY_FILES');
  });

  it('refuses a file over the size limit with 413, naming it', async () => {
    const big = path.join(scratch, 'big.csv');
    const line = 'Some host with a long name,,host.example,,,low,Label\r\n';
    await writeFile(big, header + line.repeat(Math.ceil(ASSET_UPLOAD_MAX_FILE_BYTES / line.length) + 10));
    const response = await upload(t, 'all', [
      { filename: 'small.csv', content: `${header}A,,a,,,,\r\n` },
      { filename: 'big.csv', path: big },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ key: 'ASSET_UPLOAD_FILE_TOO_LARGE', params: { 0: 'big.csv' } });
    expect(await countAssets(t.orgId)).toBe(0);
  });

  it('refuses files without the needed columns, or that are not CSV, storing nothing', async () => {
    const missing = await upload(t, 'all', [
      { filename: 'good.csv', content: `${header}A,,a,,,,\r\n` },
      { filename: 'partial.csv', content: 'Name,ID,Hostname,Importance,Label\r\nB,,b,,\r\n' },
    ]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      key: 'ASSET_UPLOAD_MISSING_COLUMNS',
      params: { 0: 'partial.csv', columns: 'ip, mac' },
    });
    const malformed = await upload(t, 'all', [
      { filename: 'broken.csv', content: `${header}"Unclosed,,a,,,,\r\nB,,b,,,,\r\n` },
    ]);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ key: 'ASSET_UPLOAD_MALFORMED', params: { 0: 'broken.csv' } });
    const badQuote = await upload(t, 'all', [{ filename: 'quote.csv', content: `${header}"A"x,,a,,,,\r\n` }]);
    expect(badQuote.json()).toMatchObject({ key: 'ASSET_UPLOAD_MALFORMED', params: { 0: 'quote.csv' } });
    const binary = await upload(t, 'all', [
      { filename: 'image.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]) },
    ]);
    expect(binary.json()).toMatchObject({ key: 'ASSET_UPLOAD_MALFORMED', params: { 0: 'image.png' } });
    const empty = await upload(t, 'all', [{ filename: 'empty.csv', content: '' }]);
    expect(empty.json()).toMatchObject({ key: 'ASSET_UPLOAD_MALFORMED', params: { 0: 'empty.csv' } });
    expect(await countAssets(t.orgId)).toBe(0);
    expect(await leftovers()).toBe(0);
  });

  it('needs ASSET_EDIT, whatever the mode', async () => {
    const response = await upload(t, 'validate', [{ filename: 'a.csv', content: header }], t.viewer);
    expect(response.statusCode).toBe(403);
  });
});

describe('a large upload', () => {
  it('checks and stores 100,000 lines without holding them in memory', { timeout: 240_000 }, async () => {
    const t = await tenant();
    const lines = 100_000;
    const file = path.join(scratch, 'large.csv');
    // Written in slices, never as one string.
    await writeFile(file, 'name,id,hostname,ip,mac,importance,label\r\n');
    for (let start = 0; start < lines; start += 10_000) {
      let slice = '';
      for (let index = start; index < start + 10_000; index++) {
        const b = (index >> 16) & 255;
        const c = (index >> 8) & 255;
        const d = index & 255;
        const mac = `02:00:00:${b.toString(16).padStart(2, '0')}:${c.toString(16).padStart(2, '0')}:${d.toString(16).padStart(2, '0')}`;
        slice += `Workstation ${index},,ws-${index}.branch.example,10.${b}.${c}.${d},${mac},${['low', 'medium', 'high'][index % 3]},Branch;Floor ${index % 7}\r\n`;
      }
      await appendFile(file, slice);
    }
    // The live heap, sampled after a full collection, so that garbage not yet collected does not count.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 1000);
    const started = Date.now();
    try {
      const response = await upload(t, 'all', [{ filename: 'large.csv', path: file }]);
      expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
      expect(response.json()).toMatchObject({
        lines,
        validLines: lines,
        errorCount: 0,
        created: lines,
        updated: 0,
        stored: true,
      });
    } finally {
      clearInterval(sampler);
    }
    const seconds = (Date.now() - started) / 1000;
    const growthMb = (peak - baseline) / 2 ** 20;
    // A loose bound: the point is that the file is never held whole, not a benchmark.
    expect(growthMb).toBeLessThan(200);
    expect(await countAssets(t.orgId)).toBe(lines);
    const [addresses] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(assetAddresses)
      .where(eq(assetAddresses.orgId, t.orgId));
    expect(addresses!.n).toBe(lines);
    const lookup = await ctx.app.inject({
      url: `/api/org/${t.orgId}/ip/assets?address=10.1.134.159`,
      headers: browserHeaders(t.viewer.cookie),
    });
    expect(lookup.json().items[0].assets[0].name).toBe(`Workstation ${(1 << 16) + (134 << 8) + 159}`);

    // Checking the same file again finds every address in use by the assets just stored.
    const again = await upload(t, 'validate', [{ filename: 'large.csv', path: file }]);
    expect(again.json()).toMatchObject({ lines, validLines: 0, errorCount: 2 * lines });
    // eslint-disable-next-line no-console
    console.info(`100k-line upload: ${seconds.toFixed(1)} s, heap growth ${growthMb.toFixed(0)} MB`);
  });
});
