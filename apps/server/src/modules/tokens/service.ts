import { timingSafeEqual } from 'node:crypto';
import {
  TOKEN_KEY_PREFIX,
  type CreatedInputToken,
  type InputToken,
  type TokenKind,
  type TokenState,
  type VendorCredentials,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import type { SecretBox } from '../../platform/crypto';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { hashToken, newToken } from '../../platform/tokens';
import {
  deleteExternalTokens,
  findInputTokenByKey,
  findInputTokenView,
  insertInputToken,
  revokeInputToken,
  touchInputToken,
  type InputTokenRow,
  type InputTokenView,
} from './repo';

/** A use is recorded at most this often per token. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export const tokenNotFound = () => new AppError('NotFoundException', 'TOKEN_NOT_FOUND', 'Token not found');

export function stateOf(token: Pick<InputTokenRow, 'revokedAt' | 'expiresAt'>, now = new Date()): TokenState {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toJson(
  { token, createdByName, revokedByName }: InputTokenView,
  now = new Date(),
): InputToken {
  return {
    id: token.id,
    kind: token.kind as TokenKind,
    key: token.key,
    description: token.description,
    state: stateOf(token, now),
    expiresAt: iso(token.expiresAt),
    revokedAt: iso(token.revokedAt),
    revokedByName,
    lastUsedAt: iso(token.lastUsedAt),
    createdBy: token.createdBy,
    createdByName,
    createdOn: token.createdOn.toISOString(),
    queueName: token.queueName,
    cloudAccessKeyId: token.cloudAccessKeyId,
    hasCloudSecret: token.cloudSecretEncrypted !== null,
  };
}

/** What the audit log keeps of a token: never a secret. */
const snapshot = (token: InputTokenRow) => ({
  kind: token.kind,
  key: token.key,
  description: token.description,
  expiresAt: iso(token.expiresAt),
  ...(token.kind === 'EXTERNAL' && {
    queueName: token.queueName,
    cloudAccessKeyId: token.cloudAccessKeyId,
  }),
});

/** A fresh public key and secret; only the secret's hash is stored. */
export function newCredentials() {
  const key = `${TOKEN_KEY_PREFIX}${newToken().slice(0, 24)}`;
  const secret = newToken();
  return { key, secret, secretHash: hashToken(secret) };
}

function futureExpiry(expiresAt: string | null | undefined, now: Date): Date | null {
  if (!expiresAt) return null;
  const date = new Date(expiresAt);
  if (date.getTime() <= now.getTime()) {
    throw validationFailed('TOKEN_EXPIRY_IN_PAST', 'The expiry must lie in the future', {
      field: 'expiresAt',
    });
  }
  return date;
}

export interface Actor {
  orgId: string;
  userId: string;
  ip?: string;
}

async function answerCreated(
  db: Db,
  actor: Actor,
  row: InputTokenRow,
  secret: string,
): Promise<CreatedInputToken> {
  const view = (await findInputTokenView(db, actor.orgId, row.id))!;
  return { ...toJson(view), secret: `${row.key}.${secret}` };
}

/** Creates an installer or API token, answering its secret this once. */
export async function createInputToken(
  db: Db,
  actor: Actor,
  kind: 'INSTALLER' | 'API',
  input: { description: string; expiresAt?: string | null },
): Promise<CreatedInputToken> {
  const expiresAt = futureExpiry(input.expiresAt, new Date());
  const { key, secret, secretHash } = newCredentials();
  return db.transaction(async (tx) => {
    const row = await insertInputToken(tx, actor.orgId, {
      kind,
      key,
      secretHash,
      description: input.description,
      expiresAt,
      createdBy: actor.userId,
    });
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'token.created',
      targetType: 'input-token',
      targetId: row.id,
      details: { after: snapshot(row) },
      ip: actor.ip,
    });
    return answerCreated(tx, actor, row, secret);
  });
}

/**
 * Creates the organisation's one external data-vendor token, replacing (deleting) the one it had. The
 * cloud secret is sealed with the SecretBox; the token's own secret is answered this once.
 */
export async function replaceExternalToken(
  db: Db,
  secrets: SecretBox,
  actor: Actor,
  input: {
    description: string;
    queueName: string;
    cloudAccessKeyId: string;
    cloudSecret: string;
    expiresAt?: string | null;
  },
): Promise<{ token: CreatedInputToken; replaced: boolean }> {
  const expiresAt = futureExpiry(input.expiresAt, new Date());
  const { key, secret, secretHash } = newCredentials();
  return db.transaction(async (tx) => {
    const removed = await deleteExternalTokens(tx, actor.orgId);
    const row = await insertInputToken(tx, actor.orgId, {
      kind: 'EXTERNAL',
      key,
      secretHash,
      description: input.description,
      queueName: input.queueName,
      cloudAccessKeyId: input.cloudAccessKeyId,
      cloudSecretEncrypted: secrets.seal(input.cloudSecret),
      expiresAt,
      createdBy: actor.userId,
    });
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: removed.length > 0 ? 'token.external.replaced' : 'token.created',
      targetType: 'input-token',
      targetId: row.id,
      details: {
        ...(removed[0] && { before: snapshot(removed[0]), replacedId: removed[0].id }),
        after: snapshot(row),
      },
      ip: actor.ip,
    });
    return { token: await answerCreated(tx, actor, row, secret), replaced: removed.length > 0 };
  });
}

/** Deletes the organisation's external data-vendor token; 404 when it has none. */
export async function deleteExternalToken(db: Db, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const removed = await deleteExternalTokens(tx, actor.orgId);
    if (removed.length === 0) throw tokenNotFound();
    for (const row of removed) {
      await recordActivity(tx, {
        orgId: actor.orgId,
        actorUserId: actor.userId,
        action: 'token.external.deleted',
        targetType: 'input-token',
        targetId: row.id,
        details: { before: snapshot(row) },
        ip: actor.ip,
      });
    }
  });
}

/** Revokes a token for good; it stays listed. 404 for another organisation's, 409 if already revoked. */
export async function revokeToken(db: Db, actor: Actor, id: string): Promise<InputToken> {
  return db.transaction(async (tx) => {
    const existing = await findInputTokenView(tx, actor.orgId, id);
    if (!existing) throw tokenNotFound();
    const row = await revokeInputToken(tx, actor.orgId, id, actor.userId);
    if (!row) throw conflict('TOKEN_ALREADY_REVOKED', 'The token is already revoked');
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'token.revoked',
      targetType: 'input-token',
      targetId: row.id,
      details: { before: snapshot(row) },
      ip: actor.ip,
    });
    return toJson((await findInputTokenView(tx, actor.orgId, id))!);
  });
}

export interface AuthenticatedToken {
  orgId: string;
  tokenId: string;
  kind: TokenKind;
}

// A key is the prefix and 24 base64url characters; a secret 43 base64url characters (32 bytes).
const PRESENTED = /^(vgl_[A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16,128})$/;

/**
 * The organisation and token a collector's `<key>.<secret>` stands for, or null when it is malformed,
 * unknown, of another kind than `kinds`, revoked, expired or its secret is wrong. Hashes are compared
 * in constant time. A use is recorded in lastUsedAt at most once a minute.
 */
export async function authenticateInputToken(
  db: Db,
  presented: string,
  kinds?: readonly TokenKind[],
  now: Date = new Date(),
): Promise<AuthenticatedToken | null> {
  const match = PRESENTED.exec(presented.trim());
  if (!match) return null;
  const [, key, secret] = match as unknown as [string, string, string];
  const row = await findInputTokenByKey(db, key);
  // Hash even when the key is unknown, so timing tells little about which keys exist.
  const presentedHash = Buffer.from(hashToken(secret), 'hex');
  const storedHash = Buffer.from(row?.secretHash ?? '', 'hex');
  const secretMatches =
    storedHash.length === presentedHash.length && timingSafeEqual(storedHash, presentedHash);
  if (!row || !secretMatches) return null;
  const kind = row.kind as TokenKind;
  if (kinds && !kinds.includes(kind)) return null;
  if (stateOf(row, now) !== 'active') return null;
  const since = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < since) {
    await touchInputToken(db, row.orgId, row.id, now, since);
  }
  return { orgId: row.orgId, tokenId: row.id, kind };
}

/**
 * The delivery credentials of the external data-vendor token a vendor presents (`<key>.<secret>`):
 * its organisation, queue name and cloud access key, the secret unsealed; null for any other token
 * (malformed, unknown, another kind, revoked or expired).
 */
export async function vendorCredentials(
  db: Db,
  secrets: SecretBox,
  presented: string,
): Promise<VendorCredentials | null> {
  const token = await authenticateInputToken(db, presented, ['EXTERNAL']);
  if (!token) return null;
  const view = await findInputTokenView(db, token.orgId, token.tokenId);
  const row = view?.token;
  if (!row?.queueName || !row.cloudAccessKeyId || !row.cloudSecretEncrypted) return null;
  return {
    orgId: row.orgId,
    queueName: row.queueName,
    cloudAccessKeyId: row.cloudAccessKeyId,
    cloudSecret: secrets.open(row.cloudSecretEncrypted),
  };
}
