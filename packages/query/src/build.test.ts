import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  andQueries,
  buildQuery,
  excludeFilter,
  formatQueryField,
  includeFilter,
  parseQuery,
  quoteQueryValue,
  validateQuery,
} from './index';

describe('buildQuery', () => {
  it('quotes values, OR-joins one field and AND-joins different fields', () => {
    expect(buildQuery([{ field: 'host', values: ['web01'] }])).toBe('host:"web01"');
    expect(
      buildQuery([
        { field: 'host', values: ['web01', 'web 02'] },
        { field: 'src_ip', values: ['10.0.0.1'] },
      ]),
    ).toBe('(host:"web01" OR host:"web 02") AND src_ip:"10.0.0.1"');
  });

  it('escapes quotes and backslashes, and keeps wildcards and operators literal', () => {
    expect(quoteQueryValue('a "b" \\')).toBe('"a \\"b\\" \\\\"');
    expect(includeFilter('path', ['C:\\temp "x" *'])).toBe('path:"C:\\\\temp \\"x\\" *"');
    expect(includeFilter('note', ['AND'])).toBe('note:"AND"');
  });

  it('merges filters on the same field, drops repeated values and filters without values', () => {
    expect(
      buildQuery([
        { field: 'host', values: ['a'] },
        { field: 'user', values: [] },
        { field: 'host', values: ['b', 'a'] },
      ]),
    ).toBe('(host:"a" OR host:"b")');
    expect(buildQuery([])).toBe('');
  });

  it('excludes with NOT', () => {
    expect(excludeFilter('host', ['a'])).toBe('NOT host:"a"');
    expect(excludeFilter('host', ['a', 'b'])).toBe('NOT (host:"a" OR host:"b")');
    expect(excludeFilter('host', [])).toBe('');
    expect(
      buildQuery([
        { field: 'host', values: ['a'] },
        { field: 'host', values: ['b'], exclude: true },
      ]),
    ).toBe('host:"a" AND NOT host:"b"');
  });

  it('quotes field names the language could not read bare', () => {
    expect(formatQueryField('http.status')).toBe('http.status');
    expect(formatQueryField('@timestamp')).toBe('@timestamp');
    expect(formatQueryField('user agent')).toBe('"user agent"');
    expect(formatQueryField('-x')).toBe('"-x"');
    expect(formatQueryField('_exists_')).toBe('"_exists_"');
    expect(formatQueryField('NOT')).toBe('"NOT"');
    expect(formatQueryField('')).toBe('""');
  });

  it('adds a filter to the query in the search bar', () => {
    expect(andQueries('a OR b', 'host:"x"')).toBe('(a OR b) AND (host:"x")');
    expect(andQueries('  ', 'host:"x"')).toBe('host:"x"');
    expect(andQueries()).toBe('');
  });
});

/** Strings PostgreSQL can hold: no NUL, no unpaired surrogate. */
const storable = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '*', '?', ':', '(', ')', ' ', '-'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 40,
  })
  .filter((text) => !/\0|[\uD800-\uDFFF]/.test(text));

describe('buildQuery properties', () => {
  it('writes each value so that it parses back to exactly that value, matched exactly', () => {
    fc.assert(
      fc.property(storable, storable, (field, value) => {
        const ast = parseQuery(includeFilter(field, [value]));
        expect(ast).toMatchObject({
          type: 'term',
          field,
          value: { kind: 'match', text: value, quoted: true, pattern: null },
        });
      }),
      { numRuns: 500 },
    );
  });

  it('always builds a valid query', () => {
    const filter = fc.record({
      field: storable,
      values: fc.array(storable, { maxLength: 4 }),
      exclude: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(filter, { maxLength: 5 }), (filters) => {
        const text = buildQuery(filters);
        return text.length > 2048 || validateQuery(text).valid;
      }),
    );
  });
});
