/** A datetime-local input's value as ISO text, or null when blank. */
export const isoOf = (local: string) => (local ? new Date(local).toISOString() : null);

/** An ISO time as a datetime-local input's value, in local time. */
export function localOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
