/**
 * Checks of user values done in JavaScript before they reach PostgreSQL as parameters, so that a cast
 * in the compiled SQL (`$n::inet`, `$n::timestamptz`, `$n::numeric`, `$n::jsonb`) can never fail at
 * run time: a value these functions refuse is never cast, the condition becomes FALSE instead.
 */
import type { PatternPart } from './parse';

/** Decimal numbers as the compiler compares them: `-12`, `3.50`, `1e3` (exponent of at most 3 digits). */
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d{1,3})?$/;

export function isNumber(value: string): boolean {
  return NUMBER.test(value);
}

/** The number as a JSON literal (JSON refuses leading zeros): `-007.50` → `-7.50`. */
export function jsonNumber(value: string): string {
  return value.replace(/^(-?)0+(?=\d)/, '$1');
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9A-Fa-f]{1,4}$/;

function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const all = halves.flatMap(groups);
  let count = 0;
  for (const [index, group] of all.entries()) {
    if (index === all.length - 1 && IPV4.test(group)) count += 2;
    else if (HEXTET.test(group)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

export type Address = { kind: 'address' | 'network'; version: 4 | 6 };

/**
 * An IPv4 or IPv6 address (`10.0.0.1`, `fe80::1`) or network in CIDR notation (`10.0.0.0/8`), in
 * forms PostgreSQL's inet input accepts; null for anything else.
 */
export function parseAddress(text: string): Address | null {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const version = IPV4.test(address) ? 4 : isIpv6(address) ? 6 : null;
  if (version === null) return null;
  if (slash === -1) return { kind: 'address', version };
  const prefix = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128)) return null;
  return { kind: 'network', version };
}

/** An instant, or a whole day when the text gives only a date (`start` inclusive, `end` exclusive). */
export type Instant = { start: string; end: string | null };

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

const DAY_MS = 86_400_000;

function iso(ms: number): string | null {
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date.toISOString() : null;
}

/**
 * ISO 8601 dates (`2024-05-01`, a whole day) and date-times (`2024-05-01T10:30`, `…:15.250Z`,
 * `…+02:00`); a date-time without an offset is UTC. Null for anything else, including impossible
 * dates (`2024-02-30`). The answer is in `toISOString` form, which PostgreSQL reads as timestamptz.
 */
export function parseInstant(text: string): Instant | null {
  const match = INSTANT.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (h === undefined) {
    const start = iso(date.getTime());
    const end = iso(date.getTime() + DAY_MS);
    return start && end ? { start, end } : null;
  }
  date.setUTCHours(hour, minute, second, Number((fraction ?? '0').padEnd(3, '0').slice(0, 3)));
  let ms = date.getTime();
  if (sign && !zulu) {
    const offsetHours = Number(oh);
    const offsetMinutes = Number(om);
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    ms -= (sign === '+' ? 1 : -1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  const start = iso(ms);
  return start ? { start, end: null } : null;
}

/** A LIKE pattern for a wildcard word: `*` → `%`, `?` → `_`, and `%`, `_`, `\` escaped. */
export function likePattern(pattern: readonly PatternPart[]): string {
  return pattern
    .map((part) =>
      'wildcard' in part ? (part.wildcard === '*' ? '%' : '_') : part.literal.replace(/[\\%_]/g, '\\$&'),
    )
    .join('');
}
