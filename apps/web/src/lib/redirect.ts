/** Where a signed-in user lands when nothing else is asked for (spec 1 section 4.1). */
export const DEFAULT_LANDING = '/dashboards/default';

/**
 * `value` when it is a path on this site ("/x", "/x?y=1"), otherwise undefined. Anything that could
 * leave the site is discarded: another origin ("//host", "/\\host"), a scheme ("https:", "javascript:")
 * or control characters, which browsers strip before reading the address.
 */
export function safeRedirectPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/')) return undefined;
  if (value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  try {
    const base = 'http://vigil.invalid';
    const url = new URL(value, base);
    return url.origin === base ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `path` with the query parameter `name` set to `value` (or removed when undefined). */
export function withSearchParam(path: string, name: string, value: string | undefined): string {
  const url = new URL(path, 'http://vigil.invalid');
  if (value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The value of the query parameter `name` in `path`, if any. */
export function searchParamOf(path: string, name: string): string | undefined {
  return new URL(path, 'http://vigil.invalid').searchParams.get(name) ?? undefined;
}
