/**
 * Properties of the compiler over arbitrary user text, checked against a real database: the SQL text
 * never carries user text, its placeholders match the parameters, and every compiled query runs and
 * answers TRUE or FALSE for every event.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQuery, compileQuery, DEFAULT_EVENT_SCHEMA, validateQuery, type QueryFilter } from './index';
import {
  EVENTS,
  evaluate,
  matching,
  openEventsDatabase,
  type EventsDatabase,
  type TestEvent,
} from './test/events-database';

let db: EventsDatabase;

beforeAll(async () => {
  db = await openEventsDatabase();
});

afterAll(async () => {
  await db?.close();
});

const NASTY = [
  "'; DROP TABLE events; --",
  "' OR '1'='1",
  '$1',
  '$2::text',
  '\\',
  '"',
  "'",
  '%',
  '_',
  '\\%_',
  '*',
  '?',
  '日本語',
  '🚨 alert',
  'e\u0301',
  '\u202e',
  '10.0.0.1',
  '10.0.0.0/8',
  'fe80::1',
  '::',
  '1.2.3',
  '999.1.1.1',
  '10.0.0.0/33',
  '2024-05-01',
  '2024-02-30',
  '2024-05-01T10:00:00+02:00',
  '0000-01-01',
  '9999-12-31',
  '1e5',
  '1e999',
  '-3.5',
  '0401',
  '9'.repeat(200),
  'true',
  'null',
  'NaN',
  'Infinity',
  '{"a":1}',
  '[1,2]',
  'AND',
  'TO',
  '_exists_',
  'fields',
  'a.b.c',
  '.',
  '',
];

/** User strings: hostile constants and arbitrary text PostgreSQL can hold. */
const userText = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.stringMatching(/^[0-9a-fA-F:./]{1,20}$/),
  fc.stringMatching(/^[0-9T:.+Z-]{4,26}$/),
  fc.stringMatching(/^-?[0-9]{1,4}(\.[0-9]{1,3})?$/),
);
const storableText = userText.filter((text) => !/\0|[\uD800-\uDFFF]/.test(text));
const fieldName = fc.oneof(
  fc.constantFrom(...Object.keys(DEFAULT_EVENT_SCHEMA.columns), ...Object.keys(DEFAULT_EVENT_SCHEMA.aliases)),
  fc.constantFrom(
    'action',
    'status',
    'bytes',
    'http.method',
    'http.status',
    'tags',
    'account.id',
    'constructor',
    '__proto__',
  ),
  storableText,
);

const quote = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;
/** An unquoted word: every character but letters and digits escaped. */
const escapeWord = (text: string) => text.replace(/[^A-Za-z0-9]/g, '\\$&');
const wordOrQuoted = (text: string, quoted: boolean) =>
  quoted || text === '' ? quote(text) : escapeWord(text);
/** A word with wildcards between escaped literal parts. */
const wildcardWord = fc
  .array(fc.oneof(storableText.map(escapeWord), fc.constantFrom('*', '?')), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''));
const bound = fc.oneof(
  fc.constant('*'),
  fc.tuple(storableText, fc.boolean()).map(([text, quoted]) => wordOrQuoted(text, quoted)),
);

const term: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fieldName, storableText, fc.boolean())
    .map(([field, value, quoted]) => `${quote(field)}:${wordOrQuoted(value, quoted)}`),
  fc.tuple(fieldName, wildcardWord).map(([field, value]) => `${quote(field)}:${value}`),
  fc
    .tuple(fieldName, bound, bound, fc.constantFrom('[]', '{}', '[}', '{]'))
    .map(([field, low, high, [open, close]]) => `${quote(field)}:${open}${low} TO ${high}${close}`),
  fc
    .tuple(fieldName, fc.constantFrom('>', '>=', '<', '<='), storableText)
    .map(([field, operator, value]) => `${quote(field)}:${operator}${quote(value)}`),
  fieldName.map((field) => `_exists_:${quote(field)}`),
  storableText.map((text) => wordOrQuoted(text, true)),
  storableText.filter((text) => text !== '').map(escapeWord),
  wildcardWord,
);
const query: fc.Arbitrary<string> = fc.letrec<{ query: string }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc
      .tuple(tie('query'), fc.constantFrom(' AND ', ' OR ', ' '), tie('query'))
      .map(([a, op, b]) => `${a}${op}${b}`),
    tie('query').map((inner) => `NOT ${inner}`),
    tie('query').map((inner) => `-(${inner})`),
    tie('query').map((inner) => `(${inner})`),
  ),
})).query;

const TRUSTED_WORDS = new Set([
  ...'AND OR NOT IS NULL TRUE FALSE COALESCE CASE WHEN THEN ELSE END ILIKE'.split(' '),
  ...'lower host jsonb_typeof plainto_tsquery phraseto_tsquery text numeric inet timestamptz jsonb'.split(
    ' ',
  ),
  ...'ts received_at id user_name data_source message src_ip dst_ip fields search'.split(' '),
]);
const TRUSTED_LITERALS = new Set(["'simple'", "'null'", "'^-?[0-9]{1,100}([.][0-9]{1,100})?$'"]);
const TOKEN = /\s+|\$\d+|'[^']*'|[A-Za-z_][A-Za-z0-9_]*|::|<<=|>=|<=|<>|@>|@@|#>>|#>|[=<>~(),[\]]/y;

/** The SQL's tokens, each a trusted word, literal, operator or placeholder, or a failure. */
function untrustedTokens(sql: string): string[] {
  const untrusted: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < sql.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(sql);
    if (!match) return [...untrusted, sql.slice(at)];
    const token = match[0];
    if (/^[A-Za-z_]/.test(token) && !TRUSTED_WORDS.has(token)) untrusted.push(token);
    if (token.startsWith("'") && !TRUSTED_LITERALS.has(token)) untrusted.push(token);
  }
  return untrusted;
}

/**
 * Whether user text would stand out in the SQL: it holds a word that is no part of a trusted one, or
 * a character the compiled SQL never holds.
 */
const distinctive = (text: string) =>
  /[;"\\%*!&|^`]/.test(text) ||
  (text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).some(
    (word) => ![...TRUSTED_WORDS, ...TRUSTED_LITERALS].some((trusted) => trusted.includes(word)),
  );

describe('compileQuery properties', () => {
  it('never puts user text in the SQL, and numbers the placeholders 1…n in order', () => {
    fc.assert(
      fc.property(query, fc.integer({ min: 1, max: 50 }), (text, firstParam) => {
        fc.pre(validateQuery(text).valid);
        const { sql, params } = compileQuery(text, DEFAULT_EVENT_SCHEMA, { firstParam });
        expect(untrustedTokens(sql)).toEqual([]);
        const placeholders = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
        expect(placeholders).toEqual(params.map((_, index) => firstParam + index));
        for (const param of params.flat()) {
          if (typeof param === 'string' && distinctive(param)) {
            expect(sql).not.toContain(param);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('compiles queries that run on the database and answer TRUE or FALSE for every event', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        fc.pre(validateQuery(text).valid);
        const { sql, params } = compileQuery(text, DEFAULT_EVENT_SCHEMA);
        const values = await evaluate(db, sql, params);
        expect(values).toHaveLength(EVENTS.length);
        expect(values.filter((row) => typeof row.matched !== 'boolean')).toEqual([]);
        // The negation is the complement: callers may write NOT (condition).
        const negated = await matching(db, `NOT ${sql}`, params);
        expect(negated).toEqual(values.filter((row) => !row.matched).map((row) => row.id));
      }),
      { numRuns: 400 },
    );
  });

  it('runs whatever text the parser accepts', async () => {
    const special = fc.constantFrom(
      ...' ab1:*?"\'\\()[]{}<>=-/.@%_$;',
      ' AND ',
      ' OR ',
      'NOT ',
      ' TO ',
      '_exists_',
      'ip',
      'ts',
      'bytes',
    );
    const soup = fc.array(special, { maxLength: 16 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.oneof(soup, fc.string({ maxLength: 40 })), async (text) => {
        fc.pre(validateQuery(text).valid);
        const { sql, params } = compileQuery(text, DEFAULT_EVENT_SCHEMA);
        const values = await evaluate(db, sql, params);
        expect(values.filter((row) => typeof row.matched !== 'boolean')).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

/** Decimal text in a canonical form, to compare numbers as PostgreSQL's numeric does. */
function canonicalDecimal(text: string): string | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let scale = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  return `${sign}${digits}e${scale}`;
}

/** Whether a stored field value equals a filter value, as the query builder promises. */
function storedEquals(stored: unknown, value: string): boolean {
  if (typeof stored === 'string') return stored === value;
  if (typeof stored === 'number') {
    const canonical = canonicalDecimal(value);
    return canonical !== null && canonical === canonicalDecimal(String(stored));
  }
  if (typeof stored === 'boolean') return String(stored) === value;
  if (Array.isArray(stored))
    return stored.some((element) => !Array.isArray(element) && storedEquals(element, value));
  return false;
}

function storedValue(event: TestEvent, field: string): unknown {
  if (field in DEFAULT_EVENT_SCHEMA.columns) return event[field as keyof TestEvent];
  let value: unknown = event.fields;
  for (const key of field.split('.')) {
    value =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  return value;
}

const ROUND_TRIP_FIELDS = [
  'host',
  'user_name',
  'data_source',
  'src_ip',
  'action',
  'http.method',
  'status',
  'bytes',
  'tags',
  'flagged',
  'user agent',
  'account.id',
  'amount',
];

/** Values seen in the events for a field, with variants, and arbitrary text. */
function valuesFor(field: string): fc.Arbitrary<string> {
  const seen = EVENTS.map((event) => storedValue(event, field))
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value) => value !== null && value !== undefined && typeof value !== 'object')
    .map(String);
  const variants = seen.flatMap((value) => [
    value.toUpperCase(),
    `${value} `,
    `0${value}`,
    `${value}.0`,
    `${value}*`,
  ]);
  const pool = fc.constantFrom(...(seen.length ? seen : ['none']), ...(seen.length ? variants : []));
  return field === 'src_ip' ? pool : fc.oneof(pool, pool, storableText);
}

describe('buildQuery round trip', () => {
  it('matches exactly the events whose field holds one of the values (or none, when excluded)', async () => {
    const filter: fc.Arbitrary<QueryFilter> = fc.constantFrom(...ROUND_TRIP_FIELDS).chain((field) =>
      fc.record({
        field: fc.constant(field),
        values: fc.array(valuesFor(field), { minLength: 1, maxLength: 3 }),
        exclude: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(filter, { minLength: 1, maxLength: 3 }), async (filters) => {
        const text = buildQuery(filters);
        const { sql, params } = compileQuery(text, DEFAULT_EVENT_SCHEMA);
        // buildQuery merges the filters on one field (and one `exclude`) into one.
        const merged = new Map<string, QueryFilter>();
        for (const f of filters) {
          const key = `${f.field}|${f.exclude}`;
          merged.set(key, { ...f, values: [...(merged.get(key)?.values ?? []), ...f.values] });
        }
        const expected = EVENTS.filter((event) =>
          [...merged.values()].every((f) => {
            // Addresses compare as addresses: 2001:DB8::5 is 2001:db8::5.
            const normal = (value: string) => (f.field === 'src_ip' ? value.toLowerCase() : value);
            const holds = f.values.some((value) => storedEquals(storedValue(event, f.field), normal(value)));
            return f.exclude ? !holds : holds;
          }),
        ).map((event) => event.id);
        expect(await matching(db, sql, params)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
