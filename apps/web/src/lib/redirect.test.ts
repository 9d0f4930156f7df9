import { describe, expect, it } from 'vitest';
import { safeRedirectPath, searchParamOf, withSearchParam } from './redirect';

describe('safeRedirectPath', () => {
  it.each(['/', '/dashboards/default', '/settings/users?orgId=3&tab=a', '/search#top', '/a/b?c=%2F%2Fx'])(
    'keeps the same-site path %s',
    (path) => {
      expect(safeRedirectPath(path)).toBe(path);
    },
  );

  it.each([
    ['another origin', '//evil.example/x'],
    ['a backslash origin', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a script', 'javascript:alert(1)'],
    ['a relative path', 'dashboards/default'],
    ['an empty string', ''],
    ['a tab that browsers strip', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
  ])('discards %s', (_what, value) => {
    expect(safeRedirectPath(value)).toBeUndefined();
  });

  it('discards anything that is not a string', () => {
    expect(safeRedirectPath(undefined)).toBeUndefined();
    expect(safeRedirectPath(42)).toBeUndefined();
    expect(safeRedirectPath({ href: '/x' })).toBeUndefined();
  });
});

describe('withSearchParam and searchParamOf', () => {
  it('sets, replaces and removes one parameter and keeps the rest', () => {
    expect(withSearchParam('/dashboards/default', 'orgId', 'a1')).toBe('/dashboards/default?orgId=a1');
    expect(withSearchParam('/x?orgId=old&tab=2#h', 'orgId', 'new')).toBe('/x?orgId=new&tab=2#h');
    expect(withSearchParam('/x?orgId=old&tab=2', 'orgId', undefined)).toBe('/x?tab=2');
  });

  it('reads one parameter', () => {
    expect(searchParamOf('/x?orgId=a1&tab=2', 'orgId')).toBe('a1');
    expect(searchParamOf('/x', 'orgId')).toBeUndefined();
  });
});
