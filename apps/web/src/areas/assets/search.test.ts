import { describe, expect, it } from 'vitest';
import { ANY_TIME, assetFilters, assetSearchParams, isFiltered, validateAssetListSearch } from './search';

describe('asset list search', () => {
  it('keeps known keys with valid, non-default values only', () => {
    expect(
      validateAssetListSearch({
        labels: 'Firewall',
        softwareNames: 'OpenSSH',
        tracked: 'both',
        status: 'deleted',
        importance: 'urgent',
        lastSeenAfter: '2026-02-30x',
        lastSeenBefore: '2026-03-01',
        sortBy: 'owner',
        desc: 'true',
        page: 3,
        query: '   ',
      }),
    ).toEqual({
      query: undefined,
      labels: 'Firewall',
      softwareNames: ['OpenSSH'],
      tracked: undefined,
      status: 'deleted',
      importance: undefined,
      lastSeenAfter: undefined,
      lastSeenBefore: '2026-03-01',
      sortBy: 'owner',
      desc: true,
      page: 3,
    });
    // The router reads number-like values as numbers.
    expect(validateAssetListSearch({ labels: 2024, page: 1, lastSeenAfter: ANY_TIME })).toMatchObject({
      labels: '2024',
      page: undefined,
      lastSeenAfter: ANY_TIME,
    });
  });

  it('turns dates into whole local days and leaves the window out when cleared', () => {
    const now = new Date(2026, 2, 31, 15, 30);
    expect(assetFilters({ lastSeenBefore: '2026-03-10' }, now)).toEqual({
      tracked: 'both',
      active: true,
      importance: 'all',
      lastSeenAfter: new Date(2026, 2, 1).toISOString(),
      lastSeenBefore: new Date(2026, 2, 11).toISOString(),
    });
    expect(assetFilters({ lastSeenAfter: ANY_TIME, status: 'deleted' }, now)).toEqual({
      tracked: 'both',
      active: false,
      importance: 'all',
    });
    expect(isFiltered({ lastSeenAfter: ANY_TIME })).toBe(false);
    expect(isFiltered({ tracked: 'untracked' })).toBe(true);
  });

  it('repeats software names in the query string', () => {
    expect(
      assetSearchParams(
        { tracked: 'both', softwareNames: ['a b', 'c'], active: true },
        { sortBy: 'name', desc: false },
        { pageSize: 25, pageId: 2 },
      ),
    ).toBe(
      'tracked=both&softwareNames=a+b&softwareNames=c&active=true&sortBy=name&desc=false&pageSize=25&pageId=2',
    );
  });
});
