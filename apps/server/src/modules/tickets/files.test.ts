import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_FILE_MAX_BYTES } from '@vigil/contracts';
import { createTestApp, orgRequest, orgUpload, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { ticketFiles } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  const all = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'] as const;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...all] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW', 'TASK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...all] });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser = editor, org = orgId) =>
  orgRequest(ctx, org, method, path, user);

interface FileRow {
  id: string;
  name: string;
  contentType: string;
  size: number;
  createdBy: string | null;
}
interface Detail {
  id: string;
  slug: string;
  version: number;
  files: FileRow[];
  history: { action: string; details: Record<string, unknown> }[];
}

async function createTicket(kind: 'incident' | 'task' = 'incident', org = orgId, user = editor) {
  const response = await orgRequest(ctx, org, 'POST', `/${kind}`, user, { title: 'With files' });
  expect(response.statusCode).toBe(201);
  return response.json() as Detail;
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 7),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26, 0)]);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  expect(response.statusCode).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
}

const storedCount = async (ticketId: string) =>
  (await ctx.database.db.select().from(ticketFiles).where(eq(ticketFiles.ticketId, ticketId))).length;

describe('ticket files', () => {
  it('attaches files whose bytes match their type, lists them and records the upload', async () => {
    const incident = await createTicket();
    const response = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, [
      { filename: 'screenshot.PNG', content: PNG, contentType: 'text/html' },
      { filename: 'report.pdf', content: PDF },
      { filename: 'evidence.xlsx', content: ZIP },
      { filename: 'firewall.log', content: 'Nov 24 10:00 deny 10.0.0.1\n' },
      { filename: 'C:\\Users\\me\\hosts.csv', content: 'host,ip\nweb,10.0.0.2\n' },
    ]);
    expect(response.statusCode).toBe(201);
    const detail = response.json() as Detail;
    expect(
      detail.files.map(({ name, contentType, size, createdBy }) => ({ name, contentType, size, createdBy })),
    ).toEqual([
      {
        name: 'evidence.xlsx',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        size: ZIP.length,
        createdBy: editor.id,
      },
      { name: 'firewall.log', contentType: 'text/plain', size: 27, createdBy: editor.id },
      { name: 'hosts.csv', contentType: 'text/csv', size: 21, createdBy: editor.id },
      { name: 'report.pdf', contentType: 'application/pdf', size: PDF.length, createdBy: editor.id },
      { name: 'screenshot.PNG', contentType: 'image/png', size: PNG.length, createdBy: editor.id },
    ]);
    // A file does not change the ticket's fields: an edit in progress keeps its version.
    expect(detail.version).toBe(incident.version);
    expect(detail.history.at(-1)).toMatchObject({
      action: 'file-added',
      details: { files: expect.arrayContaining(detail.files.map(({ id, name }) => ({ id, name }))) },
    });
    const seenByViewer = (await call('GET', `/incident/${incident.slug}`, viewer)).json() as Detail;
    expect(seenByViewer.files).toHaveLength(5);
  });

  it('downloads a file as an attachment, never sniffed, with its checked type', async () => {
    const incident = await createTicket();
    const uploaded = await orgUpload(ctx, orgId, `/incident/${incident.id}/files`, editor, [
      { filename: 'shot.png', content: PNG },
      { filename: 'notes.txt', content: '<script>alert(1)</script>' },
      { filename: 'résumé.pdf', content: PDF },
    ]);
    const [text, pdf, png] = (uploaded.json() as Detail).files;
    const image = await call('GET', `/incident/${incident.slug}/files/${png!.id}`, viewer);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBe(
      `attachment; filename="shot.png"; filename*=UTF-8''shot.png`,
    );
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    const script = await call('GET', `/incident/${incident.slug}/files/${text!.id}`, viewer);
    expect(script.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(script.headers['content-disposition']).toMatch(/^attachment; filename="notes.txt"/);
    expect(script.body).toBe('<script>alert(1)</script>');
    const accented = await call('GET', `/incident/${incident.slug}/files/${pdf!.id}`, viewer);
    expect(accented.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
    );
  });

  it('refuses files whose bytes are not of their type, or of a type not accepted, writing nothing', async () => {
    const incident = await createTicket();
    const cases = [
      { filename: 'fake.png', content: PDF },
      { filename: 'fake.pdf', content: 'not a pdf' },
      { filename: 'page.html', content: '<html></html>' },
      { filename: 'tool.exe', content: Buffer.from([0x4d, 0x5a, 0x90, 0x00]) },
      { filename: 'binary.txt', content: Buffer.from([0x41, 0x00, 0x42]) },
      { filename: 'latin1.csv', content: Buffer.from([0x63, 0xe9, 0x0a]) },
      { filename: 'noextension', content: 'text' },
    ];
    for (const file of cases) {
      const response = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, [
        { filename: 'fine.txt', content: 'fine' },
        file,
      ]);
      expectError(response, 415, 'TICKET_FILE_UNSUPPORTED_TYPE');
      expect((response.json() as { params: Record<string, string> }).params['0']).toBe(file.filename);
    }
    expect(await storedCount(incident.id)).toBe(0);
  });

  it('names a file by the last part of the path the client sent, never storing it on disk', async () => {
    const incident = await createTicket();
    const response = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, [
      { filename: '../../etc/passwd.txt', content: 'root' },
    ]);
    expect((response.json() as Detail).files.map((file) => file.name)).toEqual(['passwd.txt']);
  });

  it('refuses an upload without files, and files over 32 MiB', async () => {
    const incident = await createTicket();
    expectError(
      await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, []),
      400,
      'TICKET_FILE_NO_FILE',
    );
    expectError(
      await orgRequest(ctx, orgId, 'POST', `/incident/${incident.slug}/files`, editor, { file: 'x' }),
      400,
      'TICKET_FILE_NO_FILE',
    );
    const tooLarge = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, [
      { filename: 'big.txt', content: Buffer.alloc(TICKET_FILE_MAX_BYTES + 1, 0x61) },
    ]);
    expectError(tooLarge, 413, 'TICKET_FILE_TOO_LARGE');
    expect((tooLarge.json() as { params: Record<string, string> }).params['0']).toBe('big.txt');
    expect(await storedCount(incident.id)).toBe(0);
  });

  it('keeps fewer than 50 files on a ticket', async () => {
    const task = await createTicket('task');
    const files = (count: number, from = 0) =>
      Array.from({ length: count }, (_, index) => ({ filename: `f${from + index}.txt`, content: 'x' }));
    expect((await orgUpload(ctx, orgId, `/task/${task.slug}/files`, editor, files(45))).statusCode).toBe(201);
    const over = await orgUpload(ctx, orgId, `/task/${task.slug}/files`, editor, files(5, 45));
    expectError(over, 400, 'TICKET_FILE_TOO_MANY');
    expect((over.json() as { params: Record<string, number> }).params).toMatchObject({
      limit: 50,
      count: 50,
    });
    expect(await storedCount(task.id)).toBe(45);
    expect((await orgUpload(ctx, orgId, `/task/${task.slug}/files`, editor, files(4, 45))).statusCode).toBe(
      201,
    );
    expect(await storedCount(task.id)).toBe(49);
    const fiftieth = await orgUpload(ctx, orgId, `/task/${task.slug}/files`, editor, files(1, 49));
    expectError(fiftieth, 400, 'TICKET_FILE_TOO_MANY');
    const tooManyAtOnce = await orgUpload(
      ctx,
      orgId,
      `/task/${(await createTicket('task')).slug}/files`,
      editor,
      files(50),
    );
    expectError(tooManyAtOnce, 400, 'TICKET_FILE_TOO_MANY');
  });

  it('deletes a file, keeping its name in the history', async () => {
    const incident = await createTicket();
    const uploaded = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, [
      { filename: 'old.txt', content: 'old' },
      { filename: 'keep.txt', content: 'keep' },
    ]);
    const old = (uploaded.json() as Detail).files.find((file) => file.name === 'old.txt');
    const deleted = await call('DELETE', `/incident/${incident.slug}/files/${old!.id}`);
    expect(deleted.statusCode).toBe(200);
    const detail = deleted.json() as Detail;
    expect(detail.files.map((file) => file.name)).toEqual(['keep.txt']);
    expect(detail.history.at(-1)).toMatchObject({
      action: 'file-deleted',
      details: { fileId: old!.id, name: 'old.txt' },
    });
    expectError(
      await call('DELETE', `/incident/${incident.slug}/files/${old!.id}`),
      404,
      'TICKET_FILE_NOT_FOUND',
    );
    expectError(
      await call('GET', `/incident/${incident.slug}/files/${old!.id}`),
      404,
      'TICKET_FILE_NOT_FOUND',
    );
  });

  it('answers 404 for files of other tickets and organisations and needs the edit permission to change', async () => {
    const incident = await createTicket();
    const other = await createTicket();
    const uploaded = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, editor, [
      { filename: 'secret.txt', content: 'secret' },
    ]);
    const [file] = (uploaded.json() as Detail).files;
    expectError(await call('GET', `/incident/${other.slug}/files/${file!.id}`), 404, 'TICKET_FILE_NOT_FOUND');
    expectError(
      await call('DELETE', `/incident/${other.slug}/files/${file!.id}`),
      404,
      'TICKET_FILE_NOT_FOUND',
    );
    expectError(await call('GET', `/task/${incident.slug}/files/${file!.id}`), 404, 'TICKET_NOT_FOUND');

    // The stranger's own organisation has a ticket of the same slug; the file stays out of reach.
    const foreign = await createTicket('incident', otherOrgId, stranger);
    expectError(
      await call('GET', `/incident/${foreign.slug}/files/${file!.id}`, stranger, otherOrgId),
      404,
      'TICKET_FILE_NOT_FOUND',
    );
    expectError(
      await call('GET', `/incident/${incident.id}/files/${file!.id}`, stranger, otherOrgId),
      404,
      'TICKET_NOT_FOUND',
    );
    expect((await call('GET', `/incident/${incident.slug}/files/${file!.id}`, stranger)).statusCode).toBe(
      403,
    );
    expect(
      (
        await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, stranger, [
          { filename: 'a.txt', content: 'a' },
        ])
      ).statusCode,
    ).toBe(403);

    const byViewer = await orgUpload(ctx, orgId, `/incident/${incident.slug}/files`, viewer, [
      { filename: 'a.txt', content: 'a' },
    ]);
    expect(byViewer.statusCode).toBe(403);
    expect((await call('DELETE', `/incident/${incident.slug}/files/${file!.id}`, viewer)).statusCode).toBe(
      403,
    );
    expect(await storedCount(incident.id)).toBe(1);
  });
});
