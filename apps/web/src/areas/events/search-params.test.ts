import { describe, expect, it } from 'vitest';
import { addFilterValue, removeFilterValue, searchScope, validateEventSearch } from './search-params';

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
});
