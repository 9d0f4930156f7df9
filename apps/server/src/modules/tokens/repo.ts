import {
  and,
  desc,
  type AnyColumn,
  eq,
  gt,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TokenKind, TokenState } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { users } from '../users/tables';
import { inputTokens } from './tables';

export type InputTokenRow = typeof inputTokens.$inferSelect;
export type NewInputToken = Omit<typeof inputTokens.$inferInsert, 'id' | 'orgId' | 'createdOn'>;

/** A token with the names of the people who created and revoked it. */
export interface InputTokenView {
  token: InputTokenRow;
  createdByName: string | null;
  revokedByName: string | null;
}

const creator = alias(users, 'token_creator');
const revoker = alias(users, 'token_revoker');
const nameOf = (table: { firstName: AnyColumn; lastName: AnyColumn }) =>
  sql<string | null>`${table.firstName} || ' ' || ${table.lastName}`;

/** SQL for the computed state of a token at `now`. */
function stateCondition(state: TokenState, now: Date): SQL | undefined {
  switch (state) {
    case 'revoked':
      return isNotNull(inputTokens.revokedAt);
    case 'expired':
      return and(isNull(inputTokens.revokedAt), lte(inputTokens.expiresAt, now));
    case 'active':
      return and(
        isNull(inputTokens.revokedAt),
        or(isNull(inputTokens.expiresAt), gt(inputTokens.expiresAt, now)),
      );
  }
}

function selectViews(db: Db) {
  return db
    .select({ token: inputTokens, createdByName: nameOf(creator), revokedByName: nameOf(revoker) })
    .from(inputTokens)
    .leftJoin(creator, eq(creator.id, inputTokens.createdBy))
    .leftJoin(revoker, eq(revoker.id, inputTokens.revokedBy));
}

/** One page of the organisation's tokens, newest first. */
export async function listInputTokens(
  db: Db,
  orgId: string,
  filter: { kind?: TokenKind; state?: TokenState; now: Date },
  page: { limit: number; offset: number },
): Promise<{ items: InputTokenView[]; total: number }> {
  const where = and(
    eq(inputTokens.orgId, orgId),
    filter.kind ? eq(inputTokens.kind, filter.kind) : undefined,
    filter.state ? stateCondition(filter.state, filter.now) : undefined,
  );
  const [items, [count]] = await Promise.all([
    selectViews(db)
      .where(where)
      .orderBy(desc(inputTokens.createdOn), desc(inputTokens.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(inputTokens)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findInputTokenView(db: Db, orgId: string, id: string): Promise<InputTokenView | null> {
  const [view] = await selectViews(db)
    .where(and(eq(inputTokens.orgId, orgId), eq(inputTokens.id, id)))
    .limit(1);
  return view ?? null;
}

/** The organisation's current external data-vendor token (the newest one, should there be more). */
export async function findExternalToken(db: Db, orgId: string): Promise<InputTokenView | null> {
  const [view] = await selectViews(db)
    .where(and(eq(inputTokens.orgId, orgId), eq(inputTokens.kind, 'EXTERNAL')))
    .orderBy(desc(inputTokens.createdOn), desc(inputTokens.id))
    .limit(1);
  return view ?? null;
}

export async function insertInputToken(db: Db, orgId: string, values: NewInputToken): Promise<InputTokenRow> {
  const [row] = await db
    .insert(inputTokens)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

/** Marks a token revoked unless it already is; null when there is no such unrevoked token. */
export async function revokeInputToken(
  db: Db,
  orgId: string,
  id: string,
  revokedBy: string,
): Promise<InputTokenRow | null> {
  const [row] = await db
    .update(inputTokens)
    .set({ revokedAt: new Date(), revokedBy })
    .where(and(eq(inputTokens.orgId, orgId), eq(inputTokens.id, id), isNull(inputTokens.revokedAt)))
    .returning();
  return row ?? null;
}

/** Removes the organisation's external data-vendor tokens, answering the removed rows. */
export async function deleteExternalTokens(db: Db, orgId: string): Promise<InputTokenRow[]> {
  return db
    .delete(inputTokens)
    .where(and(eq(inputTokens.orgId, orgId), eq(inputTokens.kind, 'EXTERNAL')))
    .returning();
}

/**
 * The token with this public key, in any organisation. The one look-up without an organisation: the
 * presented token is what names the organisation (ingest), and the caller must still check its secret.
 */
export async function findInputTokenByKey(db: Db, key: string): Promise<InputTokenRow | null> {
  const [row] = await db.select().from(inputTokens).where(eq(inputTokens.key, key)).limit(1);
  return row ?? null;
}

/** Records a use, unless one was recorded after `since`. */
export async function touchInputToken(
  db: Db,
  orgId: string,
  id: string,
  now: Date,
  since: Date,
): Promise<void> {
  await db
    .update(inputTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(inputTokens.orgId, orgId),
        eq(inputTokens.id, id),
        or(isNull(inputTokens.lastUsedAt), lt(inputTokens.lastUsedAt, since)),
      ),
    );
}
