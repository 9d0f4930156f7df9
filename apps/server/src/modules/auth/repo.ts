import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orgs } from '../orgs/tables';
import { normaliseEmail } from '../users/repo';
import { userEmails, users } from '../users/tables';
import { loginFailures, passwordLinks, webauthnCredentials } from './tables';

const authUserColumns = {
  id: users.id,
  email: userEmails.email,
  firstName: users.firstName,
  lastName: users.lastName,
  active: users.active,
  homeOrgId: users.homeOrgId,
  roleId: users.roleId,
  readOnlyMode: users.readOnlyMode,
  passwordHash: users.passwordHash,
  google2faSecret: users.google2faSecret,
  google2faPendingSecret: users.google2faPendingSecret,
  google2faEnabled: users.google2faEnabled,
  google2faLastStep: users.google2faLastStep,
  orgRequiresTwoFactor: sql<boolean>`coalesce((${orgs.settings}->>'requireTwoFactor')::boolean, false)`,
};

export type AuthUser = Awaited<ReturnType<typeof findAuthUserById>> & {};

function authUserQuery(db: Db) {
  return db
    .select(authUserColumns)
    .from(users)
    .innerJoin(userEmails, and(eq(userEmails.userId, users.id), eq(userEmails.primary, true)))
    .innerJoin(orgs, eq(orgs.id, users.homeOrgId));
}

export async function findAuthUserById(db: Db, userId: string) {
  const [row] = await authUserQuery(db).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** The user any of whose e-mail addresses is `email`. */
export async function findAuthUserByEmail(db: Db, email: string) {
  const [match] = await db
    .select({ userId: userEmails.userId })
    .from(userEmails)
    .where(eq(userEmails.email, normaliseEmail(email)))
    .limit(1);
  return match ? findAuthUserById(db, match.userId) : null;
}

export async function updateUserSecurity(
  db: Db,
  userId: string,
  values: Partial<
    Pick<
      typeof users.$inferInsert,
      | 'passwordHash'
      | 'google2faSecret'
      | 'google2faPendingSecret'
      | 'google2faEnabled'
      | 'google2faLastStep'
      | 'lastLoginAt'
    >
  >,
) {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function countFailuresSince(db: Db, by: { email: string } | { ip: string }, since: Date) {
  const condition =
    'email' in by ? eq(loginFailures.email, normaliseEmail(by.email)) : eq(loginFailures.ip, by.ip);
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(condition, gte(loginFailures.createdAt, since)));
  return row?.count ?? 0;
}

export async function recordFailure(db: Db, email: string, ip: string) {
  await db.insert(loginFailures).values({ email: normaliseEmail(email), ip });
}

export async function clearFailures(db: Db, email: string) {
  await db.delete(loginFailures).where(eq(loginFailures.email, normaliseEmail(email)));
}

export async function listCredentials(db: Db, userId: string) {
  return db.select().from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
}

export async function insertCredential(db: Db, values: typeof webauthnCredentials.$inferInsert) {
  await db.insert(webauthnCredentials).values(values);
}

export async function markCredentialUsed(db: Db, id: string, counter: number) {
  await db
    .update(webauthnCredentials)
    .set({ counter, lastUsedAt: new Date() })
    .where(eq(webauthnCredentials.id, id));
}

export async function deleteCredentials(db: Db, userId: string) {
  await db.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
}

export async function insertPasswordLink(db: Db, values: typeof passwordLinks.$inferInsert) {
  const [link] = await db.insert(passwordLinks).values(values).returning();
  return link!;
}

/** Marks an unused, unexpired link used; answers its user, or null when it cannot be used. */
export async function consumePasswordLink(db: Db, id: string, secretHash: string) {
  const [link] = await db
    .update(passwordLinks)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordLinks.id, id),
        eq(passwordLinks.secretHash, secretHash),
        isNull(passwordLinks.usedAt),
        gte(passwordLinks.expiresAt, new Date()),
      ),
    )
    .returning({ userId: passwordLinks.userId, purpose: passwordLinks.purpose });
  return link ?? null;
}
