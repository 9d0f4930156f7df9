import { connect } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { run, searchEvents, waitForEvents } from '../../../test/shippers';
import { createInputToken } from '../tokens/service';
import { startSyslogListener, type SyslogListener } from './syslog';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let viewer: SeededUser;
let otherViewer: SeededUser;
let listenerToken: string;
let sourceToken: string;
let listener: SyslogListener;

/** Sends `data` over one TCP connection and closes it. */
function sendTcp(port: number, data: string) {
  return new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(data));
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

const logger = (format: '--rfc5424' | '--rfc3164', transport: '--tcp' | '--udp', args: string[]) =>
  run('logger', [format, transport, '-n', '127.0.0.1', '-P', String(listener.port), ...args]);

const near = (timestamp: string) => Math.abs(new Date(timestamp).getTime() - Date.now()) < 120_000;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
  otherViewer = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['EVENT_VIEW'] });
  const actor = { orgId, userId: viewer.id };
  listenerToken = (await createInputToken(db, actor, 'API', { description: 'syslog listener' })).secret;
  const otherActor = { orgId: otherOrgId, userId: otherViewer.id };
  sourceToken = (await createInputToken(db, otherActor, 'API', { description: 'syslog source' })).secret;
  listener = await startSyslogListener({
    db,
    port: 0,
    host: '127.0.0.1',
    token: listenerToken,
    batch: { maxEvents: 500, maxDelayMs: 100 },
  });
});
afterAll(async () => {
  await listener?.close();
  await ctx?.close();
});

describe('syslog listener fed by logger', () => {
  it('stores RFC 5424 over TCP, newline and octet-counted framing, with its header mapped', async () => {
    await logger('--rfc5424', '--tcp', [
      '-t',
      'tcp5424',
      '-p',
      'auth.warning',
      '--id=4242',
      '--msgid',
      'LOGIN',
      'first over tcp',
    ]);
    await logger('--rfc5424', '--tcp', ['--octet-count', '-t', 'tcp5424', 'second over tcp']);
    const events = await waitForEvents(ctx, viewer, orgId, 'data_source:tcp5424', 2);
    expect(events.map((event) => event.message).sort()).toEqual(['first over tcp', 'second over tcp']);
    const first = events.find((event) => event.message === 'first over tcp')!;
    expect(first).toMatchObject({
      host: hostname(),
      dataSource: 'tcp5424',
      fields: {
        syslog: {
          format: 'rfc5424',
          facility: 'auth',
          severity: 'warning',
          procid: '4242',
          msgid: 'LOGIN',
          peer: '127.0.0.1',
        },
      },
    });
    expect(near(first.timestamp)).toBe(true);
    // logger adds its own structured data (timeQuality), kept in fields.
    expect(first.fields).toMatchObject({ syslog: { sd: { timeQuality: { tzKnown: '1' } } } });
  });

  it('stores RFC 5424 over UDP', async () => {
    await logger('--rfc5424', '--udp', ['-t', 'udp5424', 'one datagram']);
    const events = await waitForEvents(ctx, viewer, orgId, 'data_source:udp5424', 1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      host: hostname(),
      message: 'one datagram',
      fields: { syslog: { format: 'rfc5424' } },
    });
  });

  it('stores RFC 3164 over TCP and UDP with the time of this year, in UTC', async () => {
    await logger('--rfc3164', '--tcp', ['-t', 'bsd', '-p', 'daemon.err', 'bsd over tcp']);
    await logger('--rfc3164', '--udp', ['-t', 'bsd', '-p', 'daemon.err', 'bsd over udp']);
    const events = await waitForEvents(ctx, viewer, orgId, 'data_source:bsd', 2);
    expect(events.map((event) => event.message).sort()).toEqual(['bsd over tcp', 'bsd over udp']);
    for (const event of events) {
      expect(event).toMatchObject({
        host: hostname().split('.')[0],
        fields: { syslog: { format: 'rfc3164', facility: 'daemon', severity: 'err' } },
      });
      expect(near(event.timestamp)).toBe(true);
    }
  });

  it("stores a message under its source's own token, never keeping the token", async () => {
    await logger('--rfc5424', '--tcp', [
      '-t',
      'own-token',
      '--sd-id',
      'vigil@32473',
      '--sd-param',
      `token="${sourceToken}"`,
      'routed by source',
    ]);
    const events = await waitForEvents(ctx, otherViewer, otherOrgId, 'data_source:own-token', 1);
    expect(events.map((event) => event.message)).toEqual(['routed by source']);
    expect(JSON.stringify(events[0]!.fields)).not.toContain(sourceToken.split('.')[1]!);
    expect(await searchEvents(ctx, viewer, orgId, 'data_source:own-token')).toEqual([]);
  });

  it('refuses and counts messages with an invalid token of their own', async () => {
    const before = listener.stats.refused;
    await logger('--rfc5424', '--udp', [
      '-t',
      'bad-token',
      '--sd-id',
      'vigil@32473',
      '--sd-param',
      'token="vgl_unknownkey000000000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"',
      'refused',
    ]);
    for (let tries = 0; tries < 120 && listener.stats.refused === before; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(listener.stats.refused).toBe(before + 1);
    expect(await searchEvents(ctx, viewer, orgId, 'data_source:bad-token')).toEqual([]);
    expect(await searchEvents(ctx, otherViewer, otherOrgId, 'data_source:bad-token')).toEqual([]);
  });

  it('keeps a line that is not syslog whole, the sender as host', async () => {
    await sendTcp(listener.port, 'not a syslog line at all\n');
    const events = await waitForEvents(ctx, viewer, orgId, 'host:"127.0.0.1"', 1);
    expect(events.map((event) => [event.message, event.fields])).toEqual([
      ['not a syslog line at all', { syslog: { format: 'raw', peer: '127.0.0.1' } }],
    ]);
  });
});

describe('syslog listener lifecycle', () => {
  it('refuses every message when neither the listener nor the source has a token', async () => {
    const bare = await startSyslogListener({ db: ctx.database.db, port: 0, host: '127.0.0.1' });
    try {
      await sendTcp(bare.port, '<13>1 - tokenless-host app - - - no token anywhere\n');
      for (let tries = 0; tries < 120 && bare.stats.refused === 0; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(bare.stats).toEqual({ accepted: 0, refused: 1 });
    } finally {
      await bare.close();
    }
    expect(await searchEvents(ctx, viewer, orgId, 'host:tokenless-host')).toEqual([]);
  });

  it('stores the waiting batch on close', async () => {
    const slow = await startSyslogListener({
      db: ctx.database.db,
      port: 0,
      host: '127.0.0.1',
      token: listenerToken,
      batch: { maxEvents: 500, maxDelayMs: 600_000 },
    });
    const lines = [1, 2, 3].map((n) => `<13>1 - flush-host app - - - waiting ${n}`).join('\n');
    await sendTcp(slow.port, `${lines}\n`);
    for (let tries = 0; tries < 120 && slow.stats.accepted < 3; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await searchEvents(ctx, viewer, orgId, 'host:flush-host')).toEqual([]);
    await slow.close();
    const events = await searchEvents(ctx, viewer, orgId, 'host:flush-host');
    expect(events.map((event) => event.message).sort()).toEqual(['waiting 1', 'waiting 2', 'waiting 3']);
  });

  it('stores a full batch at once, without waiting for the delay', async () => {
    const sized = await startSyslogListener({
      db: ctx.database.db,
      port: 0,
      host: '127.0.0.1',
      token: listenerToken,
      batch: { maxEvents: 2, maxDelayMs: 600_000 },
    });
    try {
      await sendTcp(sized.port, '<13>1 - sized-host app - - - a\n<13>1 - sized-host app - - - b\n');
      const events = await waitForEvents(ctx, viewer, orgId, 'host:sized-host', 2);
      expect(events.map((event) => event.message).sort()).toEqual(['a', 'b']);
    } finally {
      await sized.close();
    }
  });
});
