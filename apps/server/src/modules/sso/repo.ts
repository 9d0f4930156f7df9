import { and, arrayContains, arrayOverlaps, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { findUserIdByEmail } from '../users/repo';
import { users } from '../users/tables';
import { samlProviders } from './tables';

export type SamlProvider = typeof samlProviders.$inferSelect;

export interface NewSamlProvider {
  orgId: string;
  name: string;
  entryPoint: string;
  idpIssuer: string;
  idpCert: string;
  emailDomains: string[];
  enabled?: boolean;
}

/**
 * The enabled provider that signs in users of an e-mail domain. Sign-in comes before any
 * organisation is known, so this lookup spans organisations; the oldest provider wins if two claim
 * the same domain.
 */
export async function findProviderForDomain(db: Db, domain: string): Promise<SamlProvider | null> {
  const [provider] = await db
    .select()
    .from(samlProviders)
    .where(
      and(eq(samlProviders.enabled, true), arrayContains(samlProviders.emailDomains, [domain.toLowerCase()])),
    )
    .orderBy(asc(samlProviders.createdAt), asc(samlProviders.id))
    .limit(1);
  return provider ?? null;
}

export async function findProviderById(db: Db, id: string): Promise<SamlProvider | null> {
  const [provider] = await db.select().from(samlProviders).where(eq(samlProviders.id, id)).limit(1);
  return provider ?? null;
}

export async function insertSamlProvider(db: Db, input: NewSamlProvider): Promise<SamlProvider> {
  const [provider] = await db
    .insert(samlProviders)
    .values({ ...input, emailDomains: input.emailDomains.map((domain) => domain.trim().toLowerCase()) })
    .returning();
  return provider!;
}

/** The user an e-mail belongs to (any of their addresses), with whether they may sign in. */
export async function findUserForSignIn(
  db: Db,
  email: string,
): Promise<{ id: string; active: boolean } | null> {
  const userId = await findUserIdByEmail(db, email);
  if (!userId) return null;
  const [user] = await db
    .select({ id: users.id, active: users.active })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user ?? null;
}

/** Notes the time of a completed sign-in on the user. */
export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
}

export async function listOrgProviders(db: Db, orgId: string): Promise<SamlProvider[]> {
  return db
    .select()
    .from(samlProviders)
    .where(eq(samlProviders.orgId, orgId))
    .orderBy(asc(samlProviders.name));
}

export async function findOrgProvider(db: Db, orgId: string, id: string): Promise<SamlProvider | null> {
  const [provider] = await db
    .select()
    .from(samlProviders)
    .where(and(eq(samlProviders.orgId, orgId), eq(samlProviders.id, id)))
    .limit(1);
  return provider ?? null;
}

/** Domains of `domains` that an enabled provider other than `exceptId` already signs in. */
export async function findClaimedDomains(db: Db, domains: string[], exceptId?: string): Promise<string[]> {
  const rows = await db
    .select({ id: samlProviders.id, emailDomains: samlProviders.emailDomains })
    .from(samlProviders)
    .where(and(eq(samlProviders.enabled, true), arrayOverlaps(samlProviders.emailDomains, domains)));
  return [...new Set(rows.filter((row) => row.id !== exceptId).flatMap((row) => row.emailDomains))].filter(
    (domain) => domains.includes(domain),
  );
}

export async function updateOrgProvider(
  db: Db,
  orgId: string,
  id: string,
  values: Omit<NewSamlProvider, 'orgId'>,
) {
  const [provider] = await db
    .update(samlProviders)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(samlProviders.orgId, orgId), eq(samlProviders.id, id)))
    .returning();
  return provider ?? null;
}

export async function deleteOrgProvider(db: Db, orgId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(samlProviders)
    .where(and(eq(samlProviders.orgId, orgId), eq(samlProviders.id, id)))
    .returning({ id: samlProviders.id });
  return deleted.length > 0;
}
