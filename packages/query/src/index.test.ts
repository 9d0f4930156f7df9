import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MATCH_ALL,
  parseQuery,
  QUERY_MAX_LENGTH,
  QueryParseError,
  validateQuery,
  type QueryAst,
} from './index';

describe('query package', () => {
  it('offers a match-all condition with no parameters', () => {
    expect(MATCH_ALL).toEqual({ sql: 'TRUE', params: [] });
  });

  it('limits queries to 2048 characters (spec 3 sections 5 and 9)', () => {
    expect(QUERY_MAX_LENGTH).toBe(2048);
  });
});

/** The tree without locations, for short expectations. */
function shape(ast: QueryAst): unknown {
  return JSON.parse(JSON.stringify(ast, (key, value: unknown) => (key === 'location' ? undefined : value)));
}

describe('parseQuery', () => {
  it.each([
    ['field:value', 'host:web01'],
    ['a dotted field and a hyphenated host', 'host.name:web-01.bank.example'],
    ['a quoted phrase', '"failed login"'],
    ['a single-quoted phrase', "'failed login'"],
    ['a quoted value', 'message:"wire transfer"'],
    ['a quoted IP address', 'src_ip:"10.0.0.1"'],
    ['an unquoted IP address', 'ip:10.0.0.1'],
    ['an IPv6 address', 'ip:fe80::1'],
    ['a network', 'ip:"10.0.0.0/8"'],
    ['AND, OR and NOT', 'a:1 AND b:2 OR NOT c:3'],
    ['implicit AND', 'user:bob action:login'],
    ['a minus sign', '-status:ok'],
    ['NOT NOT', 'NOT NOT a'],
    ['parentheses', 'severity:high AND (type:fraud OR type:phishing)'],
    ['a field group', 'type:(fraud OR phishing)'],
    ['a wildcard', 'user:adm*'],
    ['a single-character wildcard', 'user:b?b'],
    ['a wildcard in free text', 'adm*'],
    ['a field made present by *', 'user:*'],
    ['an inclusive range', 'bytes:[100 TO 500]'],
    ['an exclusive range', 'bytes:{100 TO 500}'],
    ['a range open at one end', 'bytes:[100 TO *]'],
    ['a date range', 'ts:[2024-05-01 TO 2024-05-31T23:59:59Z}'],
    ['a comparison', 'status:>=400'],
    ['a date-time comparison', 'ts:>2024-05-01T10:00:00+02:00'],
    ['_exists_', '_exists_:user'],
    ['an @ field', '@timestamp:2024-05-01'],
    ['a quoted field name', '"user agent":curl'],
    ['escaped special characters', 'path:C\\:\\\\temp\\ dir\\*'],
    ['an apostrophe inside a word', "user:O'Brien"],
    ['a path that is no regular expression', 'url:/admin/login'],
    ['an empty query', ''],
    ['a blank query', '  \t '],
  ])('accepts %s', (_name, text) => {
    expect(() => parseQuery(text)).not.toThrow();
    expect(validateQuery(text)).toEqual({ valid: true });
  });

  it('answers the syntax tree', () => {
    expect(shape(parseQuery('host:web01 AND NOT user:bob'))).toEqual({
      type: 'and',
      children: [
        {
          type: 'term',
          field: 'host',
          value: { kind: 'match', text: 'web01', quoted: false, pattern: null },
        },
        {
          type: 'not',
          operand: {
            type: 'term',
            field: 'user',
            value: { kind: 'match', text: 'bob', quoted: false, pattern: null },
          },
        },
      ],
    });
    expect(parseQuery('host:web01 AND NOT user:bob')).toMatchObject({
      location: { start: 0, end: 27 },
      children: [{ location: { start: 0, end: 10 } }, { location: { start: 15, end: 27 } }],
    });
  });

  it('binds NOT tighter than AND, and AND (written or implicit) tighter than OR', () => {
    const word = (text: string) => ({
      type: 'term',
      field: null,
      value: { kind: 'match', text, quoted: false, pattern: null },
    });
    expect(shape(parseQuery('a OR b c'))).toEqual({
      type: 'or',
      children: [word('a'), { type: 'and', children: [word('b'), word('c')] }],
    });
    expect(shape(parseQuery('a b OR c'))).toEqual(shape(parseQuery('a AND b OR c')));
    expect(shape(parseQuery('NOT a b'))).toEqual({
      type: 'and',
      children: [{ type: 'not', operand: word('a') }, word('b')],
    });
    expect(shape(parseQuery('-a OR b'))).toEqual({
      type: 'or',
      children: [{ type: 'not', operand: word('a') }, word('b')],
    });
    expect(shape(parseQuery('(a OR b) c'))).toEqual({
      type: 'and',
      children: [{ type: 'or', children: [word('a'), word('b')] }, word('c')],
    });
  });

  it('reads values: escapes, wildcards, phrases, ranges and comparisons', () => {
    expect(shape(parseQuery('f:a\\*b*'))).toMatchObject({
      value: { text: 'a*b*', pattern: [{ literal: 'a*b' }, { wildcard: '*' }] },
    });
    expect(shape(parseQuery('"say \\"hi\\" \\\\ *"'))).toMatchObject({
      field: null,
      value: { text: 'say "hi" \\ *', quoted: true, pattern: null },
    });
    expect(shape(parseQuery('"a.b c":1'))).toMatchObject({ field: 'a.b c' });
    expect(shape(parseQuery('n:{1 TO *]'))).toMatchObject({
      value: { kind: 'range', lower: { value: '1', inclusive: false }, upper: null },
    });
    expect(shape(parseQuery('n:<="x y"'))).toMatchObject({
      value: { kind: 'range', lower: null, upper: { value: 'x y', inclusive: true } },
    });
    expect(shape(parseQuery('_exists_:"a b"'))).toEqual({ type: 'exists', field: 'a b' });
    expect(shape(parseQuery('"_exists_":x'))).toMatchObject({ type: 'term', field: '_exists_' });
    expect(shape(parseQuery('h:(a OR -b)'))).toMatchObject({
      type: 'or',
      children: [{ field: 'h' }, { type: 'not', operand: { field: 'h' } }],
    });
  });

  it.each([
    ['an unclosed parenthesis', '(a:b', 4],
    ['an unclosed quote', 'msg:"unterminated', 17],
    ['a dangling operator', 'a:b AND', 7],
    ['an operator alone', 'NOT', 3],
    ['an unclosed range', 'bytes:[1 TO', 11],
    ['a range without TO', 'bytes:[1 5]', 9],
    ['a range without its end', 'bytes:[1 TO ]', 12],
    ['a stray closing parenthesis', 'a:b)', 3],
    ['a colon without a field', ':', 0],
    ['a field without a value', 'host:', 5],
    ['a field followed by a blank', 'host: web01', 5],
    ['a comparison without a value', 'bytes:>= 5', 8],
    ['two operators', 'a AND OR b', 6],
    ['a leading operator', 'OR b', 0],
    ['empty parentheses', 'a ()', 3],
    ['a detached minus sign', 'a - b', 2],
    ['a trailing backslash', 'a:b\\', 4],
    ['a wildcard-only query', '*', 0],
    ['a wildcard-only field and value', '*:*', 0],
    ['a wildcard-only word', 'host:a OR ?*', 10],
    ['a wildcard in a field name', 'ho*t:a', 0],
    ['a regular expression', 'path:/admin.*/', 5],
    ['a wildcard in a range', 'n:[a* TO b]', 3],
    ['a wildcard in a comparison', 'n:>a*', 3],
    ['_exists_ with wildcards', '_exists_:us*', 9],
    ['a NUL character', 'host:a\u0000b', 6],
    ['an unpaired surrogate', 'host:\uD800', 5],
  ])('refuses %s, saying where', (_name, text, position) => {
    let caught: unknown;
    try {
      parseQuery(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QueryParseError);
    expect((caught as QueryParseError).position).toBe(position);
    expect(validateQuery(text)).toEqual({
      valid: false,
      message: (caught as QueryParseError).message,
      position,
    });
  });

  it('explains the fault', () => {
    expect(validateQuery('a:b)')).toMatchObject({ message: 'Unexpected ")" at position 4' });
    expect(validateQuery('a AND OR b')).toMatchObject({ message: 'Unexpected "OR" at position 7' });
    expect(validateQuery('host:')).toMatchObject({ message: 'The field host has no value' });
    expect(validateQuery('(a')).toMatchObject({
      message: expect.stringMatching(/^The query ends too early/),
    });
    expect(validateQuery('*')).toMatchObject({ message: expect.stringMatching(/only of wildcards/) });
    expect(validateQuery('p:/a.*/')).toMatchObject({
      message: expect.stringMatching(/^Regular expressions/),
    });
  });

  it('refuses a query longer than the limit', () => {
    const long = `a:${'x'.repeat(QUERY_MAX_LENGTH)}`;
    expect(validateQuery(long)).toMatchObject({ valid: false, position: QUERY_MAX_LENGTH });
    expect(validateQuery(`a:${'x'.repeat(QUERY_MAX_LENGTH - 2)}`)).toEqual({ valid: true });
  });

  it('reads the longest queries quickly', () => {
    const worst = [
      'host:web01 AND '.repeat(136).slice(0, QUERY_MAX_LENGTH - 3) + 'x:y',
      '('.repeat(1020) + 'a' + ')'.repeat(1020),
      'NOT '.repeat(511) + 'a',
      'a '.repeat(1024),
    ];
    for (const text of worst) {
      const started = performance.now();
      expect(validateQuery(text)).toEqual({ valid: true });
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((text) => !/^(and|or|not|to)$/i.test(text));
const phrase = fc.stringMatching(/^[a-zA-Z0-9 .,@:-]{0,20}$/).map((text) => `"${text}"`);
const term = fc.oneof(
  fc.tuple(word, word).map(([field, value]) => `${field}:${value}`),
  fc.tuple(word, phrase).map(([field, value]) => `${field}:${value}`),
  fc.tuple(word, word).map(([field, value]) => `${field}:${value}*`),
  fc.tuple(word, fc.nat(1000), fc.nat(1000)).map(([field, low, high]) => `${field}:[${low} TO ${high}]`),
  word.map((field) => `_exists_:${field}`),
  phrase,
  word,
);
const query: fc.Arbitrary<string> = fc.letrec<{ query: string }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc
      .tuple(tie('query'), fc.constantFrom('AND', 'OR', ''), tie('query'))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    tie('query').map((inner) => `NOT (${inner})`),
    tie('query').map((inner) => `NOT ${inner}`),
    tie('query').map((inner) => `-(${inner})`),
    tie('query').map((inner) => `(${inner})`),
  ),
})).query;

describe('parseQuery properties', () => {
  it('accepts every query built from the grammar', () => {
    fc.assert(fc.property(query, (text) => validateQuery(text).valid));
  });

  it('never throws anything but QueryParseError, and places the problem inside the text', () => {
    const special = fc.constantFrom(
      ...' ab1:*?"\'\\()[]{}<>=-/.@',
      'AND',
      'OR',
      'NOT',
      'TO',
      '_exists_',
      '\u0000',
      '\uD800',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60, unit: 'binary' }),
          fc.array(special).map((parts) => parts.join('')),
        ),
        (text) => {
          const result = validateQuery(text);
          return result.valid || (result.position >= 0 && result.position <= text.length);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses a query once a parenthesis is left open', () => {
    fc.assert(fc.property(query, (text) => !validateQuery(`(${text}`).valid));
  });
});
