import { z } from 'zod';

/** Params of every org-scoped route; the access hook has already checked the organisation. */
export const orgParamsSchema = z.object({ orgId: z.string() });

/** `attachment; filename=...` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
