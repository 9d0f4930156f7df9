import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { SECOND_FACTOR_TIMEOUT_MS } from '@vigil/contracts';
import type { AuthenticatedSession } from '../../platform/access';
import { hashToken, newToken } from '../../platform/tokens';
import { userEmails, users } from '../users/tables';
import { sessions } from './tables';

/** A session lives this long after its last use; the web app's heartbeat keeps an open tab alive. */
export const SESSION_IDLE_LIFETIME_MS = 12 * 60 * 60_000;
/** Last-use times are written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export async function createSession(
  db: Db,
  input: { userId: string; secondFactorPending?: boolean; ip?: string; userAgent?: string },
): Promise<string> {
  const token = newToken();
  const pending = input.secondFactorPending ?? false;
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId: input.userId,
    secondFactorPending: pending,
    // A pending second factor is owed within 10 minutes, and that deadline never moves.
    expiresAt: new Date(Date.now() + (pending ? SECOND_FACTOR_TIMEOUT_MS : SESSION_IDLE_LIFETIME_MS)),
    ip: input.ip,
    userAgent: input.userAgent,
  });
  return token;
}

/** The session of a cookie token, or null when it is unknown, expired or its user is inactive. */
export async function findSession(db: Db, token: string): Promise<AuthenticatedSession | null> {
  const now = new Date();
  const [row] = await db
    .select({
      sessionId: sessions.id,
      secondFactorPending: sessions.secondFactorPending,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      homeOrgId: users.homeOrgId,
      roleId: users.roleId,
      firstName: users.firstName,
      lastName: users.lastName,
      readOnlyMode: users.readOnlyMode,
      email: sql<string>`coalesce(${userEmails.email}, '')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userEmails, and(eq(userEmails.userId, users.id), eq(userEmails.primary, true)))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now), eq(users.active, true)))
    .limit(1);
  if (!row) return null;

  if (!row.secondFactorPending && now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_IDLE_LIFETIME_MS) })
      .where(eq(sessions.id, row.sessionId));
  }
  const { sessionId, secondFactorPending, lastSeenAt: _lastSeenAt, ...user } = row;
  return { sessionId, secondFactorPending, user };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, e.g. after a password change. */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function setSessionChallenge(
  db: Db,
  sessionId: string,
  challenge: string | null,
): Promise<void> {
  await db.update(sessions).set({ webauthnChallenge: challenge }).where(eq(sessions.id, sessionId));
}

export async function findSessionChallenge(db: Db, sessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ challenge: sessions.webauthnChallenge })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row?.challenge ?? null;
}

/** Removes sessions past their expiry; runs as a scheduled job. */
export async function deleteExpiredSessions(db: Db): Promise<number> {
  const removed = await db
    .delete(sessions)
    .where(lte(sessions.expiresAt, new Date()))
    .returning({ id: sessions.id });
  return removed.length;
}
