import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCH_ALL, parseQuery, QUERY_MAX_LENGTH, QueryParseError, validateQuery } from './index';

describe('query package', () => {
  it('offers a match-all condition with no parameters', () => {
    expect(MATCH_ALL).toEqual({ sql: 'TRUE', params: [] });
  });
});

describe('parseQuery', () => {
  it.each([
    ['field:value', 'host:web01'],
    ['a dotted field and a hyphenated host', 'host.name:web-01.bank.example'],
    ['a quoted phrase', '"failed login"'],
    ['a quoted value', 'message:"wire transfer"'],
    ['a quoted IP address', 'src_ip:"10.0.0.1"'],
    ['AND, OR and NOT', 'a:1 AND b:2 OR NOT c:3'],
    ['implicit AND', 'user:bob action:login'],
    ['a minus sign', '-status:ok'],
    ['parentheses', 'severity:high AND (type:fraud OR type:phishing)'],
    ['a wildcard', 'user:adm*'],
    ['a single-character wildcard', 'user:b?b'],
    ['an inclusive range', 'bytes:[100 TO 500]'],
    ['an exclusive range', 'bytes:{100 TO 500}'],
    ['a comparison', 'status:>=400'],
    ['_exists_', '_exists_:user'],
    ['a regular expression', 'path:/admin.*/'],
  ])('accepts %s', (_name, text) => {
    expect(() => parseQuery(text)).not.toThrow();
    expect(validateQuery(text)).toEqual({ valid: true });
  });

  it('answers the syntax tree', () => {
    expect(parseQuery('host:web01 AND NOT user:bob')).toMatchObject({
      type: 'LogicalExpression',
      operator: { operator: 'AND' },
      left: { type: 'Tag', field: { name: 'host' }, expression: { value: 'web01' } },
      right: { type: 'UnaryOperator', operator: 'NOT', operand: { field: { name: 'user' } } },
    });
  });

  it.each([
    ['an unclosed parenthesis', '(a:b', 4],
    ['an unclosed quote', 'msg:"unterminated', 17],
    ['a dangling operator', 'a:b AND', 7],
    ['an operator alone', 'NOT', 3],
    ['an unclosed range', 'bytes:[1 TO', 11],
    ['a stray closing parenthesis', 'a:b)', 3],
    ['a colon without a field', ':', 0],
    ['an unquoted IP address', 'ip:10.0.0.1', 7],
    ['a field without a value', 'host:', 5],
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

  it('names the unexpected character and the empty field', () => {
    expect(validateQuery('a:b)')).toMatchObject({ message: 'Unexpected ")" at position 4' });
    expect(validateQuery('host:')).toMatchObject({ message: 'The field host has no value' });
  });

  it('refuses a query longer than the limit', () => {
    const long = `a:${'x'.repeat(QUERY_MAX_LENGTH)}`;
    expect(validateQuery(long)).toMatchObject({ valid: false, position: QUERY_MAX_LENGTH });
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
);
const query: fc.Arbitrary<string> = fc.letrec<{ query: string }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.tuple(tie('query'), fc.constantFrom('AND', 'OR'), tie('query')).map(([a, op, b]) => `${a} ${op} ${b}`),
    // liqe does not take NOT NOT without parentheses between.
    tie('query').map((inner) => `NOT (${inner})`),
    term.map((inner) => `NOT ${inner}`),
    tie('query').map((inner) => `(${inner})`),
  ),
})).query;

describe('parseQuery properties', () => {
  it('accepts every query built from the grammar', () => {
    fc.assert(fc.property(query, (text) => validateQuery(text).valid));
  });

  it('never throws anything but QueryParseError, and places the problem inside the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const result = validateQuery(text);
        return result.valid || (result.position >= 0 && result.position <= text.length);
      }),
    );
  });

  it('refuses a query once a parenthesis is left open', () => {
    fc.assert(fc.property(query, (text) => !validateQuery(`(${text}`).valid));
  });
});
