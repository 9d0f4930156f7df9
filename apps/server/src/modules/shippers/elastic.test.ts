import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { run, searchEvents, waitForEvents } from '../../../test/shippers';
import { createInputToken } from '../tokens/service';
import { ELASTIC_VERSION, startElasticListener, type ElasticListener } from './elastic';

const LIMIT = 64 * 1024;

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let viewer: SeededUser;
let otherViewer: SeededUser;
let token: string;
let listener: ElasticListener;
let base: string;

const basic = (secret: string, user = 'shipper') =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

function call(method: string, url: string, body?: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(`${base}${url}`, {
    method,
    headers: { authorization: basic(token), 'content-type': 'application/x-ndjson', ...headers },
    body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
  });
}

const ndjson = (lines: unknown[]) =>
  lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
  otherViewer = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['EVENT_VIEW'] });
  token = (await createInputToken(db, { orgId, userId: viewer.id }, 'API', { description: 'shipper' }))
    .secret;
  listener = await startElasticListener({ db, port: 0, host: '127.0.0.1', maxBatchBytes: LIMIT });
  base = `http://127.0.0.1:${listener.port}`;
});
afterAll(async () => {
  await listener?.close();
  await ctx?.close();
});

describe('Elasticsearch listener: what clients check first', () => {
  it('answers GET / with Elasticsearch 8 version information and the product header', async () => {
    const response = await call('GET', '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-elastic-product')).toBe('Elasticsearch');
    const info = (await response.json()) as Record<string, unknown> & { version: Record<string, unknown> };
    expect(info).toMatchObject({ cluster_name: 'vigil', tagline: 'You Know, for Search' });
    expect(info.version).toMatchObject({
      number: ELASTIC_VERSION,
      build_flavor: 'default',
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    });
    expect(typeof info.version.lucene_version).toBe('string');
    expect(typeof info.cluster_uuid).toBe('string');
  });

  it('answers HEAD and GET /_cat/health with 200', async () => {
    const head = await call('HEAD', '/_cat/health');
    expect(head.status).toBe(200);
    expect(head.headers.get('x-elastic-product')).toBe('Elasticsearch');
    const get = await call('GET', '/_cat/health?format=json');
    expect(((await get.json()) as { status: string }[])[0]!.status).toBe('green');
  });

  it('answers the set-up probes of Filebeat and Logstash so they start', async () => {
    expect(
      ((await (await call('GET', '/_license')).json()) as { license: { status: string } }).license.status,
    ).toBe('active');
    expect((await call('GET', '/_xpack')).status).toBe(200);
    expect((await call('HEAD', '/_index_template/filebeat-8.11.0')).status).toBe(200);
    const put = await call('PUT', '/_index_template/filebeat-8.11.0', '{"index_patterns":["x*"]}', {
      'content-type': 'application/json',
    });
    expect(await put.json()).toEqual({ acknowledged: true });
    const policy = (await (await call('GET', '/_ilm/policy/logstash-policy')).json()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(policy)).toEqual(['logstash-policy']);
    expect((await call('GET', '/_cluster/health')).status).toBe(200);
  });

  it('answers unknown calls 404 in the Elasticsearch error shape', async () => {
    const response = await call('GET', '/_search');
    expect(response.status).toBe(404);
    expect(response.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(await response.json()).toMatchObject({
      status: 404,
      error: { type: 'resource_not_found_exception' },
    });
  });
});

describe('Elasticsearch listener authentication', () => {
  it('answers 401 with a Basic challenge without a valid API token', async () => {
    const installer = await createInputToken(ctx.database.db, { orgId, userId: viewer.id }, 'INSTALLER', {
      description: 'installer',
    });
    const refused = [
      undefined,
      basic('vgl_unknownkey000000000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
      basic(installer.secret),
      `Basic ${Buffer.from(token).toString('base64')}`, // no user name separator
      `Bearer ${installer.secret}`,
    ];
    for (const authorization of refused) {
      const response = await fetch(`${base}/_bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', ...(authorization && { authorization }) },
        body: ndjson([{ index: { _index: 'refused' } }, { message: 'refused' }]),
      });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="vigil"');
      expect(response.headers.get('x-elastic-product')).toBe('Elasticsearch');
      expect(await response.json()).toMatchObject({ status: 401, error: { type: 'security_exception' } });
    }
    expect(await searchEvents(ctx, viewer, orgId, 'refused')).toEqual([]);
  });

  it('takes the token as Bearer too', async () => {
    const response = await call('GET', '/', undefined, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
  });
});

describe('POST /_bulk', () => {
  it('answers per item in request order, stores the good documents and maps them to events', async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const body = ndjson([
      { index: { _index: 'logs-web', _id: 'chosen-id' } },
      {
        '@timestamp': at,
        message: 'bulk good nested',
        host: { name: 'es-web-01', os: { family: 'debian' } },
        source: { ip: '10.1.2.3', port: 4431 },
        destination: { ip: '10.9.9.9' },
        user: { name: 'alice' },
        event: { dataset: 'nginx.access', action: 'get' },
      },
      { create: { _index: 'logs-db' } },
      {
        timestamp: at,
        message: 'bulk good flat',
        'host.hostname': 'es-db-01',
        'client.ip': '10.4.4.4',
        level: 'warn',
      },
      { index: { _index: 'logs-web' } },
      '{ this is not json',
      { index: { _index: 'logs-web' } },
      { message: 'bulk bad time', '@timestamp': 'half past noon', host: 'es-bad' },
      { update: { _index: 'logs-web', _id: 'chosen-id' } },
      { doc: { message: 'changed' } },
      { delete: { _index: 'logs-web', _id: 'chosen-id' } },
      { index: {} },
      { message: 'bulk no index' },
    ]);
    const response = await call('POST', '/_bulk', body);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-elastic-product')).toBe('Elasticsearch');
    const answer = (await response.json()) as {
      errors: boolean;
      took: number;
      items: Record<string, Record<string, unknown>>[];
    };
    expect(answer.errors).toBe(true);
    expect(typeof answer.took).toBe('number');
    expect(answer.items.map((item) => Object.keys(item)[0])).toEqual([
      'index',
      'create',
      'index',
      'index',
      'update',
      'delete',
      'index',
    ]);
    const [first, second, badJson, badTime, update, remove, noIndex] = answer.items.map(
      (item) => Object.values(item)[0]!,
    );
    expect(first).toMatchObject({
      _index: 'logs-web',
      _id: 'chosen-id',
      _version: 1,
      result: 'created',
      status: 201,
    });
    expect(second).toMatchObject({ _index: 'logs-db', result: 'created', status: 201 });
    expect(second!._id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(badJson).toMatchObject({ status: 400, error: { type: 'mapper_parsing_exception' } });
    expect(badTime).toMatchObject({ status: 400, error: { type: 'mapper_parsing_exception' } });
    expect((badTime!.error as { reason: string }).reason).toContain('timestamp');
    expect(update).toMatchObject({ status: 400, error: { type: 'illegal_argument_exception' } });
    expect(remove).toMatchObject({ status: 400, error: { type: 'illegal_argument_exception' } });
    expect(noIndex).toMatchObject({ status: 400, error: { type: 'action_request_validation_exception' } });

    // Committed before the answer: no waiting needed.
    const nested = await searchEvents(ctx, viewer, orgId, 'host:es-web-01');
    expect(nested).toHaveLength(1);
    expect(nested[0]).toMatchObject({
      timestamp: at,
      message: 'bulk good nested',
      host: 'es-web-01',
      srcIp: '10.1.2.3',
      dstIp: '10.9.9.9',
      userName: 'alice',
      dataSource: 'nginx.access',
      fields: { host: { os: { family: 'debian' } }, source: { port: 4431 }, event: { action: 'get' } },
    });
    const flat = await searchEvents(ctx, viewer, orgId, 'host:es-db-01');
    expect(flat).toHaveLength(1);
    expect(flat[0]).toMatchObject({
      message: 'bulk good flat',
      srcIp: '10.4.4.4',
      dataSource: 'logs-db',
      fields: { level: 'warn' },
    });
    expect(await searchEvents(ctx, viewer, orgId, 'host:es-bad')).toEqual([]);
    expect(await searchEvents(ctx, otherViewer, otherOrgId, 'host:es-web-01')).toEqual([]);
  });

  it('takes the index from the path and a gzip body on PUT /{index}/_bulk', async () => {
    const body = gzipSync(ndjson([{ index: {} }, { message: 'gzip path index', host: 'es-gzip' }]));
    const response = await call('PUT', '/path-index/_bulk', body, { 'content-encoding': 'gzip' });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { errors: boolean; items: { index: { _index: string } }[] };
    expect(answer.errors).toBe(false);
    expect(answer.items[0]!.index._index).toBe('path-index');
    const events = await searchEvents(ctx, viewer, orgId, 'host:es-gzip');
    expect(events.map((event) => event.dataSource)).toEqual(['path-index']);
  });

  it('refuses a malformed action line as a whole, storing nothing', async () => {
    const body = ndjson([
      { index: { _index: 'x' } },
      { message: 'before malformed', host: 'es-malformed' },
      '{"index"',
    ]);
    const response = await call('POST', '/_bulk', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      status: 400,
      error: { type: 'x_content_parse_exception' },
    });
    const unknown = await call('POST', '/_bulk', ndjson([{ upsert: { _index: 'x' } }, { message: 'x' }]));
    expect(unknown.status).toBe(400);
    const dangling = await call('POST', '/_bulk', ndjson([{ index: { _index: 'x' } }]));
    expect(dangling.status).toBe(400);
    const empty = await call('POST', '/_bulk', '\n');
    expect(await empty.json()).toMatchObject({
      status: 400,
      error: { type: 'action_request_validation_exception' },
    });
    expect(await searchEvents(ctx, viewer, orgId, 'host:es-malformed')).toEqual([]);
  });

  it('answers 413 beyond the size limit, before and after decompression, and 400 for bad gzip', async () => {
    const line = ndjson([{ index: { _index: 'big' } }, { message: 'x'.repeat(1000), host: 'es-big' }]);
    const big = line.repeat(Math.ceil((LIMIT + 1) / line.length));
    const plain = await call('POST', '/_bulk', big);
    expect(plain.status).toBe(413);
    expect(await plain.json()).toMatchObject({ status: 413, error: { type: 'content_too_long_exception' } });
    const bomb = await call('POST', '/_bulk', gzipSync(big), { 'content-encoding': 'gzip' });
    expect(bomb.status).toBe(413);
    const broken = await call('POST', '/_bulk', Buffer.from('not gzip'), { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    expect(await searchEvents(ctx, viewer, orgId, 'host:es-big')).toEqual([]);
  });
});

describe('rsyslog omelasticsearch shipping to the listener', () => {
  let dir: string;
  let rsyslogd: ChildProcess | undefined;
  let output = '';

  afterAll(async () => {
    if (rsyslogd && rsyslogd.exitCode === null) {
      const exited = once(rsyslogd, 'exit');
      rsyslogd.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('delivers messages received from logger through _bulk with Basic auth', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-rsyslog-'));
    const portFile = path.join(dir, 'port');
    const config = [
      `global(workDirectory="${dir}")`,
      'module(load="imtcp")',
      'module(load="omelasticsearch")',
      `input(type="imtcp" port="0" listenPortFileName="${portFile}" ruleset="ship")`,
      'template(name="ecs" type="list" option.jsonf="on") {',
      '  property(outname="@timestamp" name="timereported" dateFormat="rfc3339" format="jsonf")',
      '  property(outname="host.name" name="hostname" format="jsonf")',
      '  property(outname="event.dataset" name="programname" format="jsonf")',
      '  property(outname="message" name="msg" format="jsonf")',
      '  property(outname="log.syslog.severity.name" name="syslogseverity-text" format="jsonf")',
      '}',
      'ruleset(name="ship") {',
      `  action(type="omelasticsearch" server="127.0.0.1" serverport="${listener.port}" uid="rsyslog"`,
      `         pwd="${token}" template="ecs" searchIndex="rsyslog-test" bulkmode="on"`,
      '         esVersion.major="8" action.resumeInterval="1")',
      '}',
    ].join('\n');
    await writeFile(path.join(dir, 'rsyslog.conf'), config);
    rsyslogd = spawn('/usr/sbin/rsyslogd', [
      '-n',
      '-f',
      path.join(dir, 'rsyslog.conf'),
      '-i',
      path.join(dir, 'pid'),
    ]);
    rsyslogd.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    rsyslogd.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    let port = '';
    for (let tries = 0; tries < 120 && port === ''; tries += 1) {
      port = (await readFile(portFile, 'utf8').catch(() => '')).trim();
      if (port === '') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(port, output).toMatch(/^\d+$/);
    for (const n of [1, 2, 3]) {
      await run('logger', [
        '--rfc5424',
        '--tcp',
        '-n',
        '127.0.0.1',
        '-P',
        port,
        '-t',
        'rsyslog-app',
        '-p',
        'auth.warning',
        `via rsyslog ${n}`,
      ]);
    }
    const events = await waitForEvents(ctx, viewer, orgId, 'data_source:rsyslog-app', 3);
    expect(events.map((event) => event.message).sort(), output).toEqual([
      'via rsyslog 1',
      'via rsyslog 2',
      'via rsyslog 3',
    ]);
    const [event] = events;
    expect(event!.host).toBe(hostname());
    expect(event!.fields).toMatchObject({ log: { syslog: { severity: { name: 'warning' } } } });
    expect(Math.abs(new Date(event!.timestamp).getTime() - Date.now())).toBeLessThan(120_000);
  }, 60_000);

  it('limits each token to its request budget with 429, as shippers expect, other tokens unaffected', async () => {
    const db = ctx.database.db;
    const limited = await startElasticListener({
      db,
      port: 0,
      host: '127.0.0.1',
      rateLimit: { max: 2, timeWindow: '1 minute' },
    });
    try {
      const other = (
        await createInputToken(db, { orgId, userId: viewer.id }, 'API', { description: 'other' })
      ).secret;
      const health = (secret: string) =>
        fetch(`http://127.0.0.1:${limited.port}/_cat/health`, { headers: { authorization: basic(secret) } });
      expect((await health(token)).status).toBe(200);
      expect((await health(token)).status).toBe(200);
      const refused = await health(token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-elastic-product')).toBe('Elasticsearch');
      expect(await refused.json()).toMatchObject({
        status: 429,
        error: { type: 'es_rejected_execution_exception' },
      });
      expect((await health(other)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
