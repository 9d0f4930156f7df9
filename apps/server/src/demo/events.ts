import type { EventInput } from '@vigil/contracts';
import { and, asc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { assetAddresses, assets } from '../modules/assets/tables';
import { ingestEventRows } from '../modules/events/pipeline';
import { eventRow, insertEventRows } from '../modules/events/store';
import { newCredentials } from '../modules/tokens/service';
import { inputTokens } from '../modules/tokens/tables';
import type { JobRunner } from '../platform/jobs';
import { generator } from './random';

/*
 * Demo events: authentication, firewall, web proxy and core-banking transactions from each demo
 * bank's own assets over the last 30 days, so that search, the sidebar and the pivots show real
 * data. Deterministic content; times are relative to the start.
 */

const DAY = 86_400_000;
export const DEMO_EVENTS_PER_ORG = 3000;
const DEMO_EVENT_DAYS = 30;

const USERS = [
  'jmartin',
  'apatel',
  'lnguyen',
  'rgarcia',
  'kchen',
  'mbrown',
  'swilliams',
  'dlee',
  'svc_backup',
];
const SITES = [
  'intranet.local',
  'login.microsoftonline.com',
  'fedwire.frb.org',
  'docs.vendor.example',
  'news.example',
];
const BLOCKED_SITES = ['free-prizes.example', 'pastebin.example', 'crypto-miner.example'];
const EXTERNAL = ['203.0.113', '198.51.100', '192.0.2'];
const TRANSACTIONS = ['wire', 'ach', 'p2p', 'bill_pay', 'internal_transfer'] as const;
const CHANNELS = ['online', 'mobile', 'branch', 'call_center'] as const;

interface Source {
  hostname: string;
  ip: string | null;
}

async function sourcesOf(db: Db, orgId: string): Promise<(Source & { importance: string })[]> {
  const rows = await db
    .select({ hostnames: assets.hostnames, ip: assetAddresses.ip, importance: assets.importance })
    .from(assets)
    .leftJoin(assetAddresses, and(eq(assetAddresses.assetId, assets.id), isNotNull(assetAddresses.ip)))
    .where(and(eq(assets.orgId, orgId), eq(assets.active, true)))
    .orderBy(asc(assets.name))
    .limit(200);
  return rows
    .filter((row) => row.hostnames.length > 0)
    .map((row) => ({ hostname: row.hostnames[0]!, ip: row.ip, importance: row.importance }));
}

/** `banking`: core-banking transactions besides sign-ins, firewall and web proxy (a bank's events). */
function demoEvent(
  random: ReturnType<typeof generator>,
  source: Source,
  at: Date,
  banking = true,
): EventInput {
  const user = random.pick(USERS);
  const external = `${random.pick(EXTERNAL)}.${random.int(1, 254)}`;
  const base = { timestamp: at.toISOString(), host: source.hostname, srcIp: source.ip };
  switch (random.int(0, banking ? 3 : 2)) {
    case 0: {
      const failed = random.chance(0.12);
      return {
        ...base,
        userName: user,
        dataSource: 'windows-security',
        message: failed
          ? `An account failed to log on: ${user}`
          : `An account was successfully logged on: ${user}`,
        fields: {
          eventId: failed ? 4625 : 4624,
          outcome: failed ? 'failure' : 'success',
          logonType: random.pick([2, 3, 10]),
        },
      };
    }
    case 1: {
      const denied = random.chance(0.2);
      const port = random.pick([443, 443, 80, 22, 3389, 445, 53]);
      return {
        ...base,
        dstIp: external,
        dataSource: 'firewall',
        message: `${denied ? 'deny' : 'allow'} tcp ${source.ip ?? source.hostname} -> ${external}:${port}`,
        fields: {
          action: denied ? 'deny' : 'allow',
          dstPort: port,
          protocol: 'tcp',
          bytes: random.int(200, 250_000),
        },
      };
    }
    case 2: {
      const blocked = random.chance(0.08);
      const site = blocked ? random.pick(BLOCKED_SITES) : random.pick(SITES);
      return {
        ...base,
        userName: user,
        dstIp: external,
        dataSource: 'web-proxy',
        message: `${blocked ? 'BLOCKED' : 'GET'} https://${site}/`,
        fields: {
          url: `https://${site}/`,
          status: blocked ? 403 : 200,
          category: blocked ? 'risky' : 'business',
        },
      };
    }
    default: {
      const type = random.pick(TRANSACTIONS);
      const amount = Math.round(random.next() ** 3 * (type === 'wire' ? 250_000 : 12_000) * 100) / 100;
      return {
        ...base,
        userName: user,
        dataSource: 'core-banking',
        message: `${type} of ${amount.toFixed(2)} USD via ${random.pick(CHANNELS)}`,
        fields: {
          transactionType: type,
          amount,
          currency: 'USD',
          channel: random.pick(CHANNELS),
          accountId: `ACCT-${random.int(100000, 999999)}`,
        },
      };
    }
  }
}

/** DEMO_EVENTS_PER_ORG events of one organisation from `sources`, spread over the last 30 days. */
function demoRows(orgId: string, sources: Source[], seed: number, now: Date, banking = true) {
  const random = generator(seed);
  return Array.from({ length: DEMO_EVENTS_PER_ORG }, (_, n) => {
    const at = new Date(now.getTime() - random.next() * DEMO_EVENT_DAYS * DAY);
    return eventRow(orgId, demoEvent(random, random.pick(sources), at, banking), now, n);
  });
}

/** Writes DEMO_EVENTS_PER_ORG events for each organisation, spread over the last 30 days. */
export async function seedEventsDemo(db: Db, orgIds: readonly string[], now = new Date()): Promise<number> {
  let written = 0;
  for (const [index, orgId] of orgIds.entries()) {
    const sources = await sourcesOf(db, orgId);
    if (sources.length === 0) continue;
    written += await insertEventRows(db, demoRows(orgId, sources, 7000 + index, now));
  }
  return written;
}

/** The provider's own platform: the consoles its staff sign in to, its collectors and jump host. */
export const PROVIDER_HOSTS: readonly Source[] = [
  { hostname: 'soc-console-01', ip: '10.90.0.10' },
  { hostname: 'soc-console-02', ip: '10.90.0.11' },
  { hostname: 'soc-collector-01', ip: '10.90.1.20' },
  { hostname: 'soc-collector-02', ip: '10.90.1.21' },
  { hostname: 'soc-jump-01', ip: '10.90.2.5' },
  { hostname: 'soc-dc-01', ip: '10.90.0.2' },
];

/**
 * A month of the provider organisation's own events (sign-ins, firewall and web proxy of its
 * platform, no banking), so its dashboard draws real figures. Answers the events written.
 */
export async function seedProviderEventsDemo(db: Db, orgId: string, now = new Date()): Promise<number> {
  return insertEventRows(db, demoRows(orgId, [...PROVIDER_HOSTS], 6999, now, false));
}

/**
 * The demo trickle's API token, one per demo bank: the generator writes events of the organisations
 * holding an active one, so revoking it on the input-tokens page stops that bank's trickle. Its secret
 * is never shown: the generator writes through the pipeline directly.
 */
export const DEMO_TRICKLE_TOKEN = 'Demo event generator (keeps events flowing while the demo runs)';

export async function seedTrickleTokens(db: Db, orgIds: readonly string[]): Promise<void> {
  for (const orgId of orgIds) {
    const { key, secretHash } = newCredentials();
    await db
      .insert(inputTokens)
      .values({ orgId, kind: 'API', key, secretHash, description: DEMO_TRICKLE_TOKEN });
  }
}

/** Events a minute from each demo bank besides one from each of its high-importance sources. */
const TRICKLE_EVENTS_PER_MINUTE = 12;

/**
 * One minute of demo events for every organisation holding an active trickle token, through the
 * ingest pipeline (custom parsers, classifiers, asset detection), so that searches of the last hour
 * have fresh data and high-importance demo assets keep sending. Answers the events written.
 */
export async function trickleDemoEvents(db: Db, now = new Date(), log?: FastifyBaseLogger): Promise<number> {
  const tokens = await db
    .select({ id: inputTokens.id, orgId: inputTokens.orgId })
    .from(inputTokens)
    .where(
      and(
        eq(inputTokens.kind, 'API'),
        eq(inputTokens.description, DEMO_TRICKLE_TOKEN),
        isNull(inputTokens.revokedAt),
        or(isNull(inputTokens.expiresAt), gt(inputTokens.expiresAt, now)),
      ),
    );
  let written = 0;
  const random = generator(now.getTime() % 2_147_483_647);
  for (const token of tokens) {
    const sources = await sourcesOf(db, token.orgId);
    if (sources.length === 0) continue;
    const picked = [
      ...sources.filter((source) => source.importance === 'high'),
      ...Array.from({ length: TRICKLE_EVENTS_PER_MINUTE }, () => random.pick(sources)),
    ];
    const rows = picked.map((source, n) => {
      const at = new Date(now.getTime() - random.next() * 60_000);
      return eventRow(token.orgId, demoEvent(random, source, at), now, n);
    });
    written += await ingestEventRows(db, token.orgId, rows, log);
    await db.update(inputTokens).set({ lastUsedAt: now }).where(eq(inputTokens.id, token.id));
  }
  return written;
}

/** The demo trickle, every minute. */
export function defineDemoJobs(jobs: JobRunner, db: Db) {
  jobs.define({
    name: 'demo.events',
    cron: '* * * * *',
    expireInSeconds: 120,
    retry: { retryLimit: 0 },
    handler: async () => void (await trickleDemoEvents(db)),
  });
}
