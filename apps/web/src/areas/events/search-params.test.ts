import { describe, expect, it } from 'vitest';
import {
  addFilterValue,
  columnProblem,
  columnValue,
  removeFilterValue,
  searchScope,
  validateEventSearch,
} from './search-params';

describe('event search address', () => {
  it('keeps valid values only, the default range left out', () => {
    expect(
      validateEventSearch({
        query: 'host:a',
        begin: '2026-03-01T09:00:00.000Z',
        end: 'nonsense',
        intervalType: '24H',
        filters: [
          { field: 'host', values: ['a', 3] },
          { field: '', values: ['x'] },
        ],
        sort: 'asc',
        page: 3,
      }),
    ).toEqual({
      query: 'host:a',
      begin: '2026-03-01T09:00:00.000Z',
      end: undefined,
      intervalType: undefined,
      filters: [{ field: 'host', values: ['a', '3'] }],
      sort: 'asc',
      page: 3,
    });
  });

  it('sends begin and end when both are set, else the preset', () => {
    expect(searchScope({ begin: 'a', end: 'b', intervalType: '7D' })).toEqual({
      query: '',
      begin: 'a',
      end: 'b',
      filters: [],
    });
    expect(searchScope({ begin: 'a', query: ' x ' })).toEqual({
      query: 'x',
      intervalType: '24H',
      filters: [],
    });
  });

  it('joins values of one field and kind, and drops emptied filters', () => {
    let filters = addFilterValue([], 'host', 'a', false);
    filters = addFilterValue(filters, 'host', 'b', false);
    filters = addFilterValue(filters, 'host', 'a', false);
    filters = addFilterValue(filters, 'host', 'c', true);
    expect(filters).toEqual([
      { field: 'host', values: ['a', 'b'] },
      { field: 'host', values: ['c'], exclude: true },
    ]);
    expect(removeFilterValue(filters, 1, 'c')).toEqual([{ field: 'host', values: ['a', 'b'] }]);
  });

  it('keeps field columns that are named, new and not fixed, and a sort field other than the time', () => {
    expect(
      validateEventSearch({ columns: '["action","host","action"," ",7]', sortField: 'action' }),
    ).toMatchObject({ columns: ['action', '7'], sortField: 'action' });
    expect(validateEventSearch({ columns: 'nonsense', sortField: 'timestamp' })).toMatchObject({
      columns: undefined,
      sortField: undefined,
    });
  });

  it('checks a new column: named, not shown yet, a field of the events, within the maximum', () => {
    const known = ['action', 'host', 'geo.country'];
    expect(columnProblem([], ' ', known)).toBe('events.columnPicker.required');
    expect(columnProblem([], 'host', known)).toBe('events.columnPicker.duplicate');
    expect(columnProblem(['action'], 'action', known)).toBe('events.columnPicker.duplicate');
    expect(columnProblem([], 'nosuch', known)).toBe('events.columnPicker.unknown');
    expect(
      columnProblem(
        Array.from({ length: 50 }, (_, i) => `f${i}`),
        'action',
        known,
      ),
    ).toBe('events.columnPicker.tooMany');
    expect(columnProblem([], ' geo.country ', known)).toBeNull();
  });

  it('reads a column from nested fields or a dotted key', () => {
    const fields = { geo: { country: 'NL' }, 'a.b': 'flat', n: 3, none: null };
    expect(columnValue(fields, 'geo.country')).toBe('NL');
    expect(columnValue(fields, 'a.b')).toBe('flat');
    expect(columnValue(fields, 'n')).toBe('3');
    expect(columnValue(fields, 'none')).toBe('');
    expect(columnValue(fields, 'geo')).toBe('{"country":"NL"}');
  });
});
