import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv6, type AddressInfo, type Server, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { authenticateInputToken, type AuthenticatedToken } from '../tokens/service';
import { ingestEventRows } from '../events/pipeline';
import { EventInputError, eventRow, type NewEventRow } from '../events/store';
import { parseSyslog, syslogEvent } from './syslog-message';

/** Events of one organisation stored together at most, and the longest a message waits for others. */
export const SYSLOG_BATCH = { maxEvents: 500, maxDelayMs: 250 } as const;
/** Longest message kept; a longer TCP line is cut there, a longer octet-counted frame closes the connection. */
export const SYSLOG_MAX_MESSAGE_BYTES = 256 * 1024;
/** How long a token's check is reused: a revoked token stops working within this time. */
const TOKEN_CACHE_MS = 60_000;
const TOKEN_CACHE_MAX = 10_000;
/** Refusals are logged at most once in this time, with their count, so a noisy source cannot flood logs. */
const REFUSAL_LOG_MS = 60_000;

export interface SyslogListenerOptions {
  db: Db;
  /** One port for TCP and UDP; 0 picks a free one (for tests). */
  port: number;
  host?: string;
  /** The listener's API token (`<key>.<secret>`), used for messages that carry none of their own. */
  token?: string;
  log?: FastifyBaseLogger;
  batch?: { maxEvents: number; maxDelayMs: number };
}

export interface SyslogStats {
  /** Events handed to the ingest pipeline. */
  accepted: number;
  /** Messages without a valid token, or whose event could not be built; never stored. */
  refused: number;
}

export interface SyslogListener {
  /** The bound port, TCP and UDP. */
  port: number;
  readonly stats: SyslogStats;
  /** Stops both transports and stores the messages received so far. */
  close(): Promise<void>;
}

class FrameTooLarge extends Error {}

/**
 * TCP framing of RFC 6587: octet counting (`<length> <message>`) when a frame starts with digits and a
 * space, else one message a line. Both may alternate on one connection.
 */
export class SyslogFramer {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes = SYSLOG_MAX_MESSAGE_BYTES) {}

  /** The messages completed by `chunk`; throws FrameTooLarge for a frame announcing more than maxBytes. */
  push(chunk: Buffer): string[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages: string[] = [];
    while (this.buffer.length > 0) {
      const head = this.buffer.subarray(0, 12).toString('latin1');
      const counted = /^(\d{1,10}) /.exec(head);
      if (counted) {
        const length = Number(counted[1]);
        if (length > this.maxBytes) throw new FrameTooLarge(`frame of ${length} bytes`);
        const start = counted[0].length;
        if (this.buffer.length < start + length) break;
        messages.push(this.buffer.subarray(start, start + length).toString('utf8'));
        this.buffer = this.buffer.subarray(start + length);
        continue;
      }
      if (/^\d{1,10}$/.test(head)) break; // the length is still arriving
      const newline = this.buffer.indexOf(0x0a);
      if (newline === -1) {
        if (this.buffer.length > this.maxBytes) {
          messages.push(this.buffer.subarray(0, this.maxBytes).toString('utf8'));
          this.buffer = this.buffer.subarray(this.maxBytes);
          continue;
        }
        break;
      }
      messages.push(this.buffer.subarray(0, newline).toString('utf8'));
      this.buffer = this.buffer.subarray(newline + 1);
    }
    return messages.filter((message) => message.trim() !== '');
  }

  /** What is left when the connection ends, as a last message. */
  end(): string[] {
    const rest = this.buffer.toString('utf8');
    this.buffer = Buffer.alloc(0);
    return rest.trim() === '' ? [] : [rest];
  }
}

/**
 * Token checks, reused for TOKEN_CACHE_MS so a busy source does not cost a query a message; the check
 * itself is shared, so a burst of messages with a new token makes one query.
 */
class TokenCache {
  private readonly entries = new Map<string, { token: Promise<AuthenticatedToken | null>; until: number }>();

  constructor(private readonly db: Db) {}

  resolve(presented: string): Promise<AuthenticatedToken | null> {
    const now = Date.now();
    const known = this.entries.get(presented);
    if (known && known.until > now) return known.token;
    const token = authenticateInputToken(this.db, presented, ['API']);
    // A failed check (the database away) is not remembered.
    token.catch(() => this.entries.delete(presented));
    if (this.entries.size >= TOKEN_CACHE_MAX) this.entries.clear();
    this.entries.set(presented, { token, until: now + TOKEN_CACHE_MS });
    return token;
  }
}

/** Rows waiting per organisation, stored when SYSLOG_BATCH.maxEvents are there or maxDelayMs passed. */
class OrgBatches {
  private readonly waiting = new Map<string, { rows: NewEventRow[]; timer: NodeJS.Timeout }>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly limits: { maxEvents: number; maxDelayMs: number },
    private readonly log: FastifyBaseLogger | undefined,
  ) {}

  add(orgId: string, row: NewEventRow) {
    let batch = this.waiting.get(orgId);
    if (!batch) {
      batch = { rows: [], timer: setTimeout(() => this.flush(orgId), this.limits.maxDelayMs) };
      this.waiting.set(orgId, batch);
    }
    batch.rows.push(row);
    if (batch.rows.length >= this.limits.maxEvents) this.flush(orgId);
  }

  private flush(orgId: string) {
    const batch = this.waiting.get(orgId);
    if (!batch) return;
    this.waiting.delete(orgId);
    clearTimeout(batch.timer);
    const run = ingestEventRows(this.db, orgId, batch.rows, this.log)
      .then(() => undefined)
      .catch((error: unknown) => {
        this.log?.error(
          { err: error, orgId, events: batch.rows.length },
          'syslog events could not be stored',
        );
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  async close() {
    for (const orgId of [...this.waiting.keys()]) this.flush(orgId);
    await Promise.all(this.running);
  }
}

/** Starts the syslog listener (TCP and UDP on one port); events enter through the one ingest pipeline. */
export async function startSyslogListener(options: SyslogListenerOptions): Promise<SyslogListener> {
  const { db, log } = options;
  const host = options.host ?? '0.0.0.0';
  const tokens = new TokenCache(db);
  const batches = new OrgBatches(db, options.batch ?? SYSLOG_BATCH, log);
  const stats: SyslogStats = { accepted: 0, refused: 0 };
  const handling = new Set<Promise<void>>();
  let lastRefusalLog = 0;

  const refuse = (peer: string, reason: string) => {
    stats.refused += 1;
    const now = Date.now();
    if (now - lastRefusalLog < REFUSAL_LOG_MS) return;
    lastRefusalLog = now;
    log?.warn({ peer, reason, refusedSoFar: stats.refused }, 'syslog message refused, not stored');
  };

  const accept = async (text: string, peer: string) => {
    const receivedAt = new Date();
    const message = parseSyslog(text, receivedAt);
    // A source's own token wins; a wrong one is refused rather than stored under the listener's.
    const presented = message.token ?? options.token;
    const token = presented ? await tokens.resolve(presented) : null;
    if (!token) return refuse(peer, presented ? 'invalid API token' : 'no API token');
    let row: NewEventRow;
    try {
      row = eventRow(token.orgId, syslogEvent(message, peer), receivedAt);
    } catch (error) {
      if (!(error instanceof EventInputError)) throw error;
      return refuse(peer, error.message);
    }
    stats.accepted += 1;
    batches.add(token.orgId, row);
  };
  const receive = (text: string, peer: string) => {
    const run = accept(text, peer)
      .catch((error: unknown) => log?.error({ err: error, peer }, 'syslog message failed'))
      .finally(() => handling.delete(run));
    handling.add(run);
  };
  const peerOf = (address: string | undefined) => (address ?? 'unknown').replace(/^::ffff:/, '');

  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    const peer = peerOf(socket.remoteAddress);
    const framer = new SyslogFramer();
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const text of framer.push(chunk)) receive(text, peer);
      } catch (error) {
        if (!(error instanceof FrameTooLarge)) throw error;
        log?.warn({ peer, reason: error.message }, 'syslog connection closed: frame too large');
        socket.destroy();
      }
    });
    socket.on('end', () => {
      for (const text of framer.end()) receive(text, peer);
      socket.end();
    });
    socket.on('error', (error) => log?.debug({ err: error, peer }, 'syslog connection error'));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port, host, () => resolve());
  });
  const port = (tcp.address() as AddressInfo).port;

  const udp: UdpSocket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  udp.on('message', (datagram, remote) => {
    const text = datagram.toString('utf8', 0, Math.min(datagram.length, SYSLOG_MAX_MESSAGE_BYTES));
    if (text.trim() !== '') receive(text, peerOf(remote.address));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(port, host, () => resolve());
    });
  } catch (error) {
    await new Promise((resolve) => tcp.close(resolve));
    throw error;
  }
  udp.on('error', (error) => log?.warn({ err: error }, 'syslog UDP error'));

  return {
    port,
    stats,
    async close() {
      const tcpClosed = new Promise((resolve) => tcp.close(resolve));
      for (const socket of sockets) socket.end();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      // Connections that do not finish promptly are cut; what they sent before is kept.
      const cut = setTimeout(() => sockets.forEach((socket) => socket.destroy()), 1000);
      await tcpClosed;
      clearTimeout(cut);
      await Promise.all(handling);
      await batches.close();
    },
  };
}
