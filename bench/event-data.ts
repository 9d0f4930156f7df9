import type { EventInput } from '@vigil/contracts';
import type { generator } from '../apps/server/src/demo/random';
import { ensurePartitions, PARTITION_DAYS_AHEAD } from '../apps/server/src/modules/events/partitions';
import { seconds, type Query, type Scratch } from './support';

/*
 * Bench events: the demo's shapes (authentication, firewall, web proxy, core banking) plus DNS and
 * VPN, from 200 hosts and 500 users (a few users far more active than the rest). The same
 * distributions twice: in JavaScript for the ingest API, in SQL to fill millions of rows quickly.
 */

export const HOST_COUNT = 200;
const HOST_KINDS = ['web', 'db', 'app', 'fw', 'dc'];
const USER_COUNT = 500;
const DATA_SOURCES = ['windows-security', 'firewall', 'web-proxy', 'core-banking', 'dns', 'vpn'];
const SITES = [
  'intranet.local',
  'login.microsoftonline.com',
  'fedwire.frb.org',
  'docs.vendor.example',
  'news.example',
];
const BLOCKED_SITES = ['free-prizes.example', 'pastebin.example', 'crypto-miner.example'];
const PORTS = [443, 443, 80, 22, 3389, 445, 53];
const TRANSACTIONS = ['wire', 'ach', 'p2p', 'bill_pay', 'internal_transfer'];
const CHANNELS = ['online', 'mobile', 'branch', 'call_center'];
/** A word in 0.5% of the messages, for free-text search. */
export const RARE_WORD = 'timeout';
const RARE_WORD_SHARE = 0.005;

/** `web-0`, `db-1`, … `dc-199`: host n is of kind n mod 5. */
export const hostName = (n: number) => `${HOST_KINDS[n % HOST_KINDS.length]}-${n}`;

type Random = ReturnType<typeof generator>;

/** One event at `at`, as a client sends it to the ingest API. */
export function benchEvent(random: Random, at: Date): EventInput {
  const h = random.int(0, HOST_COUNT - 1);
  const srcIp = `10.0.${Math.floor(h / 250)}.${(h % 250) + 1}`;
  const user = `user${Math.floor(random.next() ** 2 * USER_COUNT)}`;
  const external = `203.0.113.${random.int(1, 254)}`;
  const kind = random.int(0, DATA_SOURCES.length - 1);
  const rare = random.chance(RARE_WORD_SHARE) ? ` connection ${RARE_WORD}` : '';
  const base = { timestamp: at.toISOString(), host: hostName(h), srcIp, dataSource: DATA_SOURCES[kind] };
  const r = random.next();
  switch (kind) {
    case 0: {
      const failed = r < 0.12;
      return {
        ...base,
        userName: user,
        message: `${failed ? 'An account failed to log on' : 'An account was successfully logged on'}: ${user}${rare}`,
        fields: {
          eventId: failed ? 4625 : 4624,
          outcome: failed ? 'failure' : 'success',
          logonType: random.pick([2, 3, 10]),
        },
      };
    }
    case 1: {
      const action = r < 0.2 ? 'deny' : 'allow';
      const port = random.pick(PORTS);
      return {
        ...base,
        dstIp: external,
        message: `${action} tcp ${srcIp} -> ${external}:${port}${rare}`,
        fields: { action, dstPort: port, protocol: 'tcp', bytes: random.int(200, 250_000) },
      };
    }
    case 2: {
      const blocked = r < 0.08;
      const site = random.pick(blocked ? BLOCKED_SITES : SITES);
      return {
        ...base,
        userName: user,
        dstIp: external,
        message: `${blocked ? 'BLOCKED' : 'GET'} https://${site}/${rare}`,
        fields: {
          url: `https://${site}/`,
          status: blocked ? 403 : 200,
          category: blocked ? 'risky' : 'business',
        },
      };
    }
    case 3: {
      const type = random.pick(TRANSACTIONS);
      const channel = random.pick(CHANNELS);
      const amount = Math.round(random.next() ** 3 * 12_000 * 100) / 100;
      return {
        ...base,
        userName: user,
        message: `${type} of ${amount.toFixed(2)} USD via ${channel}${rare}`,
        fields: {
          transactionType: type,
          amount,
          currency: 'USD',
          channel,
          accountId: `ACCT-${random.int(100000, 999999)}`,
        },
      };
    }
    case 4: {
      const site = random.pick(SITES);
      return {
        ...base,
        message: `query A ${site} from ${srcIp}${rare}`,
        fields: { query: site, qtype: 'A', rcode: r < 0.05 ? 'NXDOMAIN' : 'NOERROR' },
      };
    }
    default:
      return {
        ...base,
        userName: user,
        dstIp: external,
        message: `session started for ${user} from ${external}${rare}`,
        fields: { gateway: `vpn-${random.int(1, 3)}`, mfa: r < 0.9 },
      };
  }
}

/**
 * Inserts `count` events of one organisation with times spread over the day before `end`, in one
 * statement, with the distributions of `benchEvent`.
 */
export async function insertDayOfEvents(query: Query, orgId: string, end: Date, count: number) {
  await query(
    `INSERT INTO events (org_id, ts, received_at, host, src_ip, dst_ip, user_name, data_source, message, fields)
     SELECT $1::uuid, ts, ts + interval '1 second', host, src::inet,
            CASE WHEN k IN (1, 2, 5) THEN ext::inet END,
            CASE WHEN k IN (0, 2, 3, 5) THEN usr END,
            ($4::text[])[k + 1],
            CASE k
              WHEN 0 THEN CASE WHEN r < 0.12 THEN 'An account failed to log on: '
                               ELSE 'An account was successfully logged on: ' END || usr
              WHEN 1 THEN CASE WHEN r < 0.2 THEN 'deny' ELSE 'allow' END || ' tcp ' || src || ' -> ' || ext || ':' || port
              WHEN 2 THEN CASE WHEN r < 0.08 THEN 'BLOCKED' ELSE 'GET' END || ' https://' || site || '/'
              WHEN 3 THEN txn || ' of ' || amount || ' USD via ' || channel
              WHEN 4 THEN 'query A ' || site || ' from ' || src
              ELSE 'session started for ' || usr || ' from ' || ext
            END || CASE WHEN rare < $11::float8 THEN ' connection ' || $12 ELSE '' END,
            CASE k
              WHEN 0 THEN jsonb_build_object('eventId', CASE WHEN r < 0.12 THEN 4625 ELSE 4624 END,
                            'outcome', CASE WHEN r < 0.12 THEN 'failure' ELSE 'success' END,
                            'logonType', (ARRAY[2, 3, 10])[1 + floor(r2 * 3)::int])
              WHEN 1 THEN jsonb_build_object('action', CASE WHEN r < 0.2 THEN 'deny' ELSE 'allow' END,
                            'dstPort', port, 'protocol', 'tcp', 'bytes', 200 + floor(r2 * 249800)::int)
              WHEN 2 THEN jsonb_build_object('url', 'https://' || site || '/', 'status', CASE WHEN r < 0.08 THEN 403 ELSE 200 END,
                            'category', CASE WHEN r < 0.08 THEN 'risky' ELSE 'business' END)
              WHEN 3 THEN jsonb_build_object('transactionType', txn, 'amount', amount, 'currency', 'USD',
                            'channel', channel, 'accountId', 'ACCT-' || (100000 + floor(r2 * 900000)::int))
              WHEN 4 THEN jsonb_build_object('query', site, 'qtype', 'A', 'rcode', CASE WHEN r < 0.05 THEN 'NXDOMAIN' ELSE 'NOERROR' END)
              ELSE jsonb_build_object('gateway', 'vpn-' || (1 + floor(r2 * 3)::int), 'mfa', r < 0.9)
            END
       FROM (SELECT ts, k, r, r2, rare,
                    ($5::text[])[1 + h % 5] || '-' || h AS host,
                    '10.0.' || (h / 250) || '.' || (h % 250 + 1) AS src,
                    'user' || floor(ru ^ 2 * $6::int)::int AS usr,
                    '203.0.113.' || (1 + floor(rx * 254)::int) AS ext,
                    ($7::int[])[1 + floor(r2 * 7)::int] AS port,
                    CASE WHEN k = 2 AND r < 0.08 THEN ($9::text[])[1 + floor(r2 * 3)::int]
                         ELSE ($8::text[])[1 + floor(r2 * 5)::int] END AS site,
                    ($10::text[])[1 + floor(r2 * 5)::int] AS txn,
                    ($14::text[])[1 + floor(rx * 4)::int] AS channel,
                    round((r2 ^ 3 * 12000)::numeric, 2) AS amount
               FROM (SELECT $2::timestamptz - random() * interval '1 day' AS ts,
                            floor(random() * $13::int)::int AS h, floor(random() * 6)::int AS k,
                            random() AS r, random() AS r2, random() AS ru, random() AS rx, random() AS rare
                       FROM generate_series(1, $3::int)) g) e`,
    [
      orgId,
      end.toISOString(),
      count,
      DATA_SOURCES,
      HOST_KINDS,
      USER_COUNT,
      PORTS,
      SITES,
      BLOCKED_SITES,
      TRANSACTIONS,
      RARE_WORD_SHARE,
      RARE_WORD,
      HOST_COUNT,
      CHANNELS,
    ],
  );
}

export const SEED_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * `count` events of the scratch organisation over the SEED_DAYS days before `now`, written in SQL one
 * day at a time into daily partitions created first, then analysed. Answers a line saying so.
 */
export async function seedEvents(scratch: Scratch, count: number, now: number): Promise<string> {
  await ensurePartitions(scratch.database.db, {
    now: new Date(now - SEED_DAYS * DAY_MS),
    daysAhead: SEED_DAYS + PARTITION_DAYS_AHEAD,
  });
  const started = Date.now();
  const perDay = Math.round(count / SEED_DAYS);
  for (let day = 0; day < SEED_DAYS; day++) {
    await insertDayOfEvents(scratch.query, scratch.orgId, new Date(now - day * DAY_MS), perDay);
  }
  await scratch.query('ANALYZE events');
  return `seeded ${perDay * SEED_DAYS} events over ${SEED_DAYS} days in ${seconds(started)}`;
}
