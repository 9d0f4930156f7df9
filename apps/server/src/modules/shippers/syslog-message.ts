import type { EventInput } from '@vigil/contracts';

const FACILITIES = [
  'kern',
  'user',
  'mail',
  'daemon',
  'auth',
  'syslog',
  'lpr',
  'news',
  'uucp',
  'cron',
  'authpriv',
  'ftp',
  'ntp',
  'security',
  'console',
  'solaris-cron',
  'local0',
  'local1',
  'local2',
  'local3',
  'local4',
  'local5',
  'local6',
  'local7',
];
const SEVERITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The structured-data element a source puts its own API token in (RFC 5424 private enterprise id). */
export const TOKEN_SD_ID = 'vigil@32473';

export type StructuredData = Record<string, Record<string, string>>;

export interface SyslogMessage {
  /** `raw` when the text is neither RFC 5424 nor RFC 3164: it is kept whole as the message. */
  format: 'rfc5424' | 'rfc3164' | 'raw';
  facility?: string;
  severity?: string;
  timestamp?: Date;
  host?: string;
  app?: string;
  procid?: string;
  msgid?: string;
  structuredData: StructuredData;
  /** The source's own API token (TOKEN_SD_ID's `token`), taken out of the structured data. */
  token?: string;
  message: string;
}

const nil = (value: string | undefined) => (value === undefined || value === '-' ? undefined : value);

/** RFC 5424 SD-ELEMENTs from the start of `text`; answers them and the rest, or null when malformed. */
function parseStructuredData(text: string): { data: StructuredData; rest: string } | null {
  if (text.startsWith('-')) return { data: {}, rest: text.slice(1) };
  const data: StructuredData = {};
  let at = 0;
  while (text[at] === '[') {
    const id = /^[^\s=\]"]+/.exec(text.slice(at + 1))?.[0];
    if (!id) return null;
    at += 1 + id.length;
    const params: Record<string, string> = {};
    while (text[at] === ' ') {
      const name = /^ ([^\s=\]"]+)="/.exec(text.slice(at));
      if (!name) return null;
      at += name[0].length;
      let value = '';
      while (at < text.length && text[at] !== '"') {
        // Inside a value only `"`, `\` and `]` are escaped; another backslash stays as it is.
        if (text[at] === '\\' && ['"', '\\', ']'].includes(text[at + 1] ?? '')) at += 1;
        value += text[at];
        at += 1;
      }
      if (text[at] !== '"') return null;
      at += 1;
      params[name[1]!] = value;
    }
    if (text[at] !== ']') return null;
    at += 1;
    data[id] = { ...data[id], ...params };
  }
  return at === 0 ? null : { data, rest: text.slice(at) };
}

function parseRfc5424(text: string): Omit<SyslogMessage, 'facility' | 'severity'> | null {
  const header = /^1 (\S+) (\S+) (\S+) (\S+) (\S+) /.exec(text);
  if (!header) return null;
  const sd = parseStructuredData(text.slice(header[0].length));
  if (!sd || (sd.rest !== '' && !sd.rest.startsWith(' '))) return null;
  const stamp = nil(header[1]);
  const at = stamp === undefined ? undefined : new Date(stamp);
  return {
    format: 'rfc5424',
    timestamp: at && !Number.isNaN(at.getTime()) ? at : undefined,
    host: nil(header[2]),
    app: nil(header[3]),
    procid: nil(header[4]),
    msgid: nil(header[5]),
    structuredData: sd.data,
    message: sd.rest.slice(1).replace(/^\uFEFF/, ''),
  };
}

/**
 * RFC 3164 time `Mmm dd hh:mm:ss` has no year and no zone: UTC of the current year, a year earlier
 * when that would be more than a day ahead (a December message read in January).
 */
function bsdTime(month: string, day: string, time: string, now: Date): Date | undefined {
  const [hours, minutes, seconds] = time.split(':').map(Number) as [number, number, number];
  const at = (year: number) =>
    new Date(Date.UTC(year, MONTHS.indexOf(month), Number(day), hours, minutes, seconds));
  const guess = at(now.getUTCFullYear());
  if (Number.isNaN(guess.getTime())) return undefined;
  return guess.getTime() > now.getTime() + 24 * 3600_000 ? at(now.getUTCFullYear() - 1) : guess;
}

function parseRfc3164(text: string, now: Date): Omit<SyslogMessage, 'facility' | 'severity'> {
  let rest = text;
  let timestamp: Date | undefined;
  const bsd = /^([A-Z][a-z]{2}) ([ \d]?\d) (\d\d:\d\d:\d\d) /.exec(rest);
  const iso = /^(\d{4}-\d\d-\d\dT\S+) /.exec(rest);
  if (bsd && MONTHS.includes(bsd[1]!)) {
    timestamp = bsdTime(bsd[1]!, bsd[2]!.trim(), bsd[3]!, now);
    rest = rest.slice(bsd[0].length);
  } else if (iso) {
    const at = new Date(iso[1]!);
    if (!Number.isNaN(at.getTime())) timestamp = at;
    rest = rest.slice(iso[0].length);
  }
  // A word ending in `:` or holding `[` right after the time is the tag of a message sent without host.
  let host: string | undefined;
  const first = /^(\S+) /.exec(rest);
  if (timestamp && first && !/[:[]/.test(first[1]!)) {
    host = first[1];
    rest = rest.slice(first[0].length);
  }
  const tag = /^([^\s:[\]]{1,48})(?:\[([^\]\s]*)\])?: ?/.exec(rest);
  return {
    format: 'rfc3164',
    timestamp,
    host,
    app: tag?.[1],
    procid: tag?.[2] || undefined,
    structuredData: {},
    message: tag ? rest.slice(tag[0].length) : rest,
  };
}

/**
 * One syslog message: RFC 5424 when the version follows the priority, else RFC 3164 (BSD); text
 * without a priority is `raw`, kept whole. Never throws: syslog is best effort by nature.
 */
export function parseSyslog(input: string, now: Date = new Date()): SyslogMessage {
  const text = input.replace(/[\r\n]+$/, '');
  const pri = /^<(\d{1,3})>/.exec(text);
  if (!pri || Number(pri[1]) > 191) return { format: 'raw', structuredData: {}, message: text };
  const value = Number(pri[1]);
  const body = text.slice(pri[0].length);
  const parsed = parseRfc5424(body) ?? parseRfc3164(body, now);
  const message: SyslogMessage = {
    ...parsed,
    facility: FACILITIES[value >> 3],
    severity: SEVERITIES[value & 7],
  };
  const own = message.structuredData[TOKEN_SD_ID];
  if (own && 'token' in own) {
    const { token, ...others } = own;
    message.token = token;
    if (Object.keys(others).length > 0) message.structuredData[TOKEN_SD_ID] = others;
    else delete message.structuredData[TOKEN_SD_ID];
  }
  return message;
}

const defined = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

/**
 * The event of a syslog message: hostname (else the sender's address) → host, app-name or tag →
 * dataSource; facility, severity, procid, msgid, structured data (never the token), the format and the
 * sender's address → `fields.syslog`. No timestamp means the receive time.
 */
export function syslogEvent(message: SyslogMessage, peer: string): EventInput {
  const structured = Object.keys(message.structuredData).length > 0 ? message.structuredData : undefined;
  return {
    timestamp: message.timestamp?.toISOString(),
    host: message.host ?? peer,
    dataSource: message.app,
    message: message.message,
    fields: {
      syslog: defined({
        format: message.format,
        facility: message.facility,
        severity: message.severity,
        procid: message.procid,
        msgid: message.msgid,
        sd: structured,
        peer,
      }),
    },
  };
}
