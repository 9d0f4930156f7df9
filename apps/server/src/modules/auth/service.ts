import { createHmac, randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  checkPasswordRules,
  PASSWORD_LINK_LIFETIME_MS,
  type CurrentUser,
  type LoginResponse,
} from '@vigil/contracts';
import * as OTPAuth from 'otpauth';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import type { SecretBox } from '../../platform/crypto';
import { AppError, invalidField, notFound } from '../../platform/errors';
import type { SendMail } from '../../platform/mail';
import { hashPassword, verifyPassword } from '../../platform/passwords';
import { hashToken, newToken } from '../../platform/tokens';
import {
  clearFailures,
  consumePasswordLink,
  countFailuresSince,
  deleteCredentials,
  findAuthUserByEmail,
  findAuthUserById,
  insertCredential,
  insertPasswordLink,
  listCredentials,
  markCredentialUsed,
  recordFailure,
  updateUserSecurity,
  type AuthUser,
} from './repo';
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  findSessionChallenge,
  setSessionChallenge,
} from './sessions';

/** Failed sign-ins (passwords and codes) allowed per account, and per address, in the window. */
export const LOGIN_LIMITS = { perAccount: 5, perIp: 30, windowMs: 15 * 60_000 } as const;
const TOTP_ISSUER = 'Vigil';
/** 80-bit secrets: the 16-character base32 secret the authenticator set-up shows. */
const TOTP_SECRET_BYTES = 10;

export interface AuthDeps {
  db: Db;
  secrets: SecretBox;
  sendMail: SendMail;
  knowledgeBase?: { url: string; secret: string };
}

/** Where and how a request reached us, for audit rows, links and WebAuthn. */
export interface RequestOrigin {
  ip: string;
  userAgent?: string;
  /** e.g. https://vigil.bank.example */
  publicUrl: string;
}

const loginFailed = () => new AppError('AuthenticationException', 'LOGIN_FAILED', 'Wrong e-mail or password');
const secondFactorExpired = () =>
  new AppError(
    'AuthenticationException',
    'SECOND_FACTOR_EXPIRED',
    'The second-factor step expired; sign in again',
  );
const invalidTotp = () =>
  new AppError('ValidatorException', 'INVALID_TOTP', 'The code is not valid', { field: 'code' });

// Verified against when the e-mail is unknown, so both failures take the same time.
const dummyHash = hashPassword(newToken());

export function toCurrentUser(user: AuthUser, u2fEnabled: boolean): CurrentUser {
  return {
    id: user.id,
    emails: [{ email: user.email }],
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    homeOrgId: user.homeOrgId,
    roleId: user.roleId,
    active: user.active,
    google2faEnabled: user.google2faEnabled,
    u2fEnabled,
    readOnlyMode: user.readOnlyMode,
  };
}

export async function currentUser(db: Db, userId: string): Promise<CurrentUser> {
  const user = await findAuthUserById(db, userId);
  if (!user) throw new AppError('AuthenticationException', 'NOT_AUTHENTICATED', 'Sign in to continue');
  return toCurrentUser(user, (await listCredentials(db, userId)).length > 0);
}

function totpFor(user: Pick<AuthUser, 'email'>, secretBase32: string) {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label: user.email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

async function assertNotRateLimited(db: Db, email: string, ip: string) {
  const since = new Date(Date.now() - LOGIN_LIMITS.windowMs);
  const [byAccount, byIp] = await Promise.all([
    countFailuresSince(db, { email }, since),
    countFailuresSince(db, { ip }, since),
  ]);
  if (byAccount >= LOGIN_LIMITS.perAccount || byIp >= LOGIN_LIMITS.perIp) {
    throw new AppError(
      'RateLimitException',
      'LOGIN_RATE_LIMITED',
      'Too many failed sign-ins; try again later',
    );
  }
}

async function noteFailure(
  deps: AuthDeps,
  email: string,
  origin: RequestOrigin,
  user: AuthUser | null,
  reason: string,
) {
  await recordFailure(deps.db, email, origin.ip);
  const failures = await countFailuresSince(deps.db, { email }, new Date(Date.now() - LOGIN_LIMITS.windowMs));
  await recordActivity(deps.db, {
    orgId: user?.homeOrgId,
    actorUserId: user?.id,
    action: failures === LOGIN_LIMITS.perAccount ? 'user.lockout' : 'user.login_failed',
    details: { email, reason, failures },
    ip: origin.ip,
  });
}

export interface LoginResult {
  response: LoginResponse;
  token: string;
}

/** Password sign-in. Opens a full session, or a pending one that still owes a second factor. */
export async function login(
  deps: AuthDeps,
  email: string,
  password: string,
  origin: RequestOrigin,
): Promise<LoginResult> {
  await assertNotRateLimited(deps.db, email, origin.ip);
  const user = await findAuthUserByEmail(deps.db, email);
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
  if (!user || !user.passwordHash || !user.active || !passwordMatches) {
    await noteFailure(deps, email, origin, user, user ? 'password' : 'unknown-email');
    throw loginFailed();
  }
  await clearFailures(deps.db, email);

  const u2fInitialized = (await listCredentials(deps.db, user.id)).length > 0;
  const google2faInitialized = user.google2faEnabled;
  const secondFactorRequired = u2fInitialized || google2faInitialized || user.orgRequiresTwoFactor;
  let google2faUri: string | undefined;
  if (secondFactorRequired && !u2fInitialized && !google2faInitialized) {
    // The organisation requires a second factor and none is set up: start the authenticator set-up.
    const secret = new OTPAuth.Secret({ size: TOTP_SECRET_BYTES }).base32;
    await updateUserSecurity(deps.db, user.id, { google2faPendingSecret: deps.secrets.seal(secret) });
    google2faUri = totpFor(user, secret).toString();
  }
  const token = await createSession(deps.db, {
    userId: user.id,
    secondFactorPending: secondFactorRequired,
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
  if (!secondFactorRequired) await completeLogin(deps, user, origin, 'password');
  return { token, response: { secondFactorRequired, google2faInitialized, u2fInitialized, google2faUri } };
}

async function completeLogin(deps: AuthDeps, user: AuthUser, origin: RequestOrigin, method: string) {
  await updateUserSecurity(deps.db, user.id, { lastLoginAt: new Date() });
  await recordActivity(deps.db, {
    orgId: user.homeOrgId,
    actorUserId: user.id,
    action: 'user.login',
    details: { method },
    ip: origin.ip,
  });
}

/** Replaces the pending session with a full one (session rotation at second-factor success). */
async function finishSecondFactor(
  deps: AuthDeps,
  pendingSessionId: string,
  user: AuthUser,
  origin: RequestOrigin,
  method: string,
) {
  await deleteSession(deps.db, pendingSessionId);
  const token = await createSession(deps.db, { userId: user.id, ip: origin.ip, userAgent: origin.userAgent });
  await completeLogin(deps, user, origin, method);
  return token;
}

/**
 * Checks a code against a secret within one 30-second step either side, refusing any step at or
 * before the last one accepted, so a code is never accepted twice.
 */
function acceptTotp(user: AuthUser, secretBase32: string, code: string): number | null {
  const totp = totpFor(user, secretBase32);
  const now = Date.now();
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / 30) + delta;
  if (user.google2faLastStep !== null && step <= user.google2faLastStep) return null;
  return step;
}

/** The one-time-code step of sign-in; also confirms a first-time authenticator set-up. */
export async function loginWithTotp(
  deps: AuthDeps,
  pending: { sessionId: string; userId: string } | null,
  code: string,
  origin: RequestOrigin,
): Promise<{ token: string; user: CurrentUser }> {
  if (!pending) throw secondFactorExpired();
  const user = await findAuthUserById(deps.db, pending.userId);
  if (!user) throw secondFactorExpired();
  const settingUp = !user.google2faEnabled;
  const sealed = settingUp ? user.google2faPendingSecret : user.google2faSecret;
  const step = sealed && /^\d{6}$/.test(code) ? acceptTotp(user, deps.secrets.open(sealed), code) : null;
  if (step === null) {
    await noteFailure(deps, user.email, origin, user, 'totp');
    const since = new Date(Date.now() - LOGIN_LIMITS.windowMs);
    if ((await countFailuresSince(deps.db, { email: user.email }, since)) >= LOGIN_LIMITS.perAccount) {
      await deleteSession(deps.db, pending.sessionId);
    }
    throw invalidTotp();
  }
  await updateUserSecurity(deps.db, user.id, {
    google2faLastStep: step,
    ...(settingUp && { google2faSecret: sealed, google2faPendingSecret: null, google2faEnabled: true }),
  });
  if (settingUp) {
    await recordActivity(deps.db, {
      orgId: user.homeOrgId,
      actorUserId: user.id,
      action: 'user.2fa_enabled',
      ip: origin.ip,
    });
  }
  await clearFailures(deps.db, user.email);
  const token = await finishSecondFactor(deps, pending.sessionId, user, origin, 'totp');
  return { token, user: await currentUser(deps.db, user.id) };
}

/** Starts an authenticator set-up for a signed-in user; the old one stays until a code confirms. */
export async function beginTotpSetup(deps: AuthDeps, userId: string) {
  const user = await findAuthUserById(deps.db, userId);
  if (!user) throw notFound('user');
  const secret = new OTPAuth.Secret({ size: TOTP_SECRET_BYTES }).base32;
  await updateUserSecurity(deps.db, userId, { google2faPendingSecret: deps.secrets.seal(secret) });
  return { google2faUri: totpFor(user, secret).toString(), secret };
}

export async function confirmTotpSetup(deps: AuthDeps, userId: string, code: string, origin: RequestOrigin) {
  const user = await findAuthUserById(deps.db, userId);
  if (!user?.google2faPendingSecret) {
    throw new AppError(
      'ValidatorException',
      'ERROR_SETTING_UP_TWO_FACTOR',
      'No authenticator set-up is under way',
    );
  }
  const step = /^\d{6}$/.test(code)
    ? acceptTotp(user, deps.secrets.open(user.google2faPendingSecret), code)
    : null;
  if (step === null) throw invalidTotp();
  await updateUserSecurity(deps.db, userId, {
    google2faSecret: user.google2faPendingSecret,
    google2faPendingSecret: null,
    google2faEnabled: true,
    google2faLastStep: step,
  });
  await recordActivity(deps.db, {
    orgId: user.homeOrgId,
    actorUserId: userId,
    action: 'user.2fa_enabled',
    ip: origin.ip,
  });
}

function webauthnSite(origin: RequestOrigin) {
  const url = new URL(origin.publicUrl);
  return { rpID: url.hostname, expectedOrigin: url.origin };
}

export async function beginWebauthnRegistration(
  deps: AuthDeps,
  sessionId: string,
  userId: string,
  origin: RequestOrigin,
) {
  const user = await findAuthUserById(deps.db, userId);
  if (!user) throw notFound('user');
  const existing = await listCredentials(deps.db, userId);
  const options = await generateRegistrationOptions({
    rpName: 'Vigil',
    rpID: webauthnSite(origin).rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({
      id: credential.credentialId,
      transports: (credential.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await setSessionChallenge(deps.db, sessionId, options.challenge);
  return options;
}

type AuthenticatorTransportFuture = NonNullable<RegistrationResponseJSON['response']['transports']>[number];

export async function finishWebauthnRegistration(
  deps: AuthDeps,
  sessionId: string,
  userId: string,
  response: RegistrationResponseJSON,
  origin: RequestOrigin,
) {
  const expectedChallenge = await findSessionChallenge(deps.db, sessionId);
  await setSessionChallenge(deps.db, sessionId, null);
  const site = webauthnSite(origin);
  const refused = () =>
    new AppError('ValidatorException', 'ERROR_SETTING_UP_TWO_FACTOR', 'The security key was not registered');
  if (!expectedChallenge) throw refused();
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: site.expectedOrigin,
    expectedRPID: site.rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) throw refused();
  const { credential } = verification.registrationInfo;
  await insertCredential(deps.db, {
    userId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? null,
  });
  const user = await findAuthUserById(deps.db, userId);
  await recordActivity(deps.db, {
    orgId: user?.homeOrgId,
    actorUserId: userId,
    action: 'user.security_key_added',
    ip: origin.ip,
  });
}

export async function beginWebauthnLogin(
  deps: AuthDeps,
  pending: { sessionId: string; userId: string } | null,
  origin: RequestOrigin,
) {
  if (!pending) throw secondFactorExpired();
  const credentials = await listCredentials(deps.db, pending.userId);
  const options = await generateAuthenticationOptions({
    rpID: webauthnSite(origin).rpID,
    allowCredentials: credentials.map((credential) => ({
      id: credential.credentialId,
      transports: (credential.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
    })),
    userVerification: 'preferred',
  });
  await setSessionChallenge(deps.db, pending.sessionId, options.challenge);
  return options;
}

export async function finishWebauthnLogin(
  deps: AuthDeps,
  pending: { sessionId: string; userId: string } | null,
  response: AuthenticationResponseJSON,
  origin: RequestOrigin,
): Promise<{ token: string; user: CurrentUser }> {
  if (!pending) throw secondFactorExpired();
  const user = await findAuthUserById(deps.db, pending.userId);
  const expectedChallenge = await findSessionChallenge(deps.db, pending.sessionId);
  await setSessionChallenge(deps.db, pending.sessionId, null);
  const credential = (await listCredentials(deps.db, pending.userId)).find(
    (entry) => entry.credentialId === response.id,
  );
  const site = webauthnSite(origin);
  const verification =
    user && expectedChallenge && credential
      ? await verifyAuthenticationResponse({
          response,
          expectedChallenge,
          expectedOrigin: site.expectedOrigin,
          expectedRPID: site.rpID,
          credential: {
            id: credential.credentialId,
            publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
            counter: credential.counter,
            transports: (credential.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
          },
          requireUserVerification: false,
        }).catch(() => null)
      : null;
  if (!user || !credential || !verification?.verified) {
    if (user) await noteFailure(deps, user.email, origin, user, 'security-key');
    throw loginFailed();
  }
  await markCredentialUsed(deps.db, credential.id, verification.authenticationInfo.newCounter);
  await clearFailures(deps.db, user.email);
  const token = await finishSecondFactor(deps, pending.sessionId, user, origin, 'security-key');
  return { token, user: await currentUser(deps.db, user.id) };
}

async function clearSecondFactor(db: Db, userId: string, kind: 'google2fa' | 'u2f') {
  if (kind === 'google2fa') {
    await updateUserSecurity(db, userId, {
      google2faSecret: null,
      google2faPendingSecret: null,
      google2faEnabled: false,
      google2faLastStep: null,
    });
  } else {
    await deleteCredentials(db, userId);
  }
}

/** An administrator clears a user's authenticator app or security keys. */
export async function resetSecondFactor(
  deps: AuthDeps,
  orgId: string,
  targetUserId: string,
  kind: 'google2fa' | 'u2f',
  actor: { userId: string; ip: string },
) {
  const user = await findAuthUserById(deps.db, targetUserId);
  // Users of other organisations answer as missing.
  if (!user || user.homeOrgId !== orgId) throw notFound('user');
  await clearSecondFactor(deps.db, targetUserId, kind);
  await recordActivity(deps.db, {
    orgId,
    actorUserId: actor.userId,
    action: kind === 'google2fa' ? 'user.2fa_reset' : 'user.security_keys_reset',
    targetType: 'user',
    targetId: targetUserId,
    ip: actor.ip,
  });
}

/** A user removes their own authenticator app or security keys, confirming with their password. */
export async function removeOwnSecondFactor(
  deps: AuthDeps,
  userId: string,
  kind: 'google2fa' | 'u2f',
  requiredPassword: string,
  origin: RequestOrigin,
) {
  const user = await findAuthUserById(deps.db, userId);
  if (!user) throw notFound('user');
  await assertNotRateLimited(deps.db, user.email, origin.ip);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, requiredPassword))) {
    await noteFailure(deps, user.email, origin, user, 'current-password');
    throw new AppError('ValidatorException', 'PASSWORD_CURRENT_INVALID', 'The current password is wrong', {
      field: 'requiredPassword',
    });
  }
  await clearSecondFactor(deps.db, userId, kind);
  await recordActivity(deps.db, {
    orgId: user.homeOrgId,
    actorUserId: userId,
    action: kind === 'google2fa' ? 'user.2fa_removed' : 'user.security_keys_removed',
    targetType: 'user',
    targetId: userId,
    ip: origin.ip,
  });
}

function assertPasswordRules(password: string, user: AuthUser) {
  const broken = checkPasswordRules(password, user);
  if (broken)
    throw new AppError('ValidatorException', broken, 'The new password breaks a password rule', {
      field: 'newPassword',
    });
}

/** Forgot password: always the same answer; a link is mailed only to an active user. */
export async function requestPasswordReset(deps: AuthDeps, email: string, origin: RequestOrigin) {
  const user = await findAuthUserByEmail(deps.db, email);
  if (!user || !user.active) return;
  const link = await createPasswordLink(deps, user.id, 'reset');
  await deps.sendMail({
    to: user.email,
    subject: 'Reset your Vigil password',
    text: [
      `Hello ${user.firstName},`,
      '',
      'Someone asked to reset the password of your Vigil account. To choose a new password, open this link within 24 hours:',
      '',
      `${origin.publicUrl}/reset-password?id=${link.id}&confirmation=${link.secret}`,
      '',
      'If it was not you, ignore this message: your password stays as it is.',
    ].join('\n'),
  });
  await recordActivity(deps.db, {
    orgId: user.homeOrgId,
    actorUserId: user.id,
    action: 'user.password_reset_requested',
    ip: origin.ip,
  });
}

export async function createPasswordLink(deps: AuthDeps, userId: string, purpose: 'reset' | 'new-user') {
  const secret = newToken();
  const link = await insertPasswordLink(deps.db, {
    userId,
    purpose,
    secretHash: hashToken(secret),
    expiresAt: new Date(Date.now() + PASSWORD_LINK_LIFETIME_MS),
  });
  return { id: link.id, secret };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sets a new password through a mailed link; the link works once, and every session ends. */
export async function resetPassword(
  deps: AuthDeps,
  input: { id: string; confirmation: string; newPassword: string },
  origin: RequestOrigin,
) {
  const linkInvalid = () =>
    new AppError('ValidatorException', 'PASSWORD_LINK_INVALID', 'The link is invalid, used or expired');
  if (!UUID_PATTERN.test(input.id)) throw linkInvalid();
  await deps.db.transaction(async (tx) => {
    const link = await consumePasswordLink(tx, input.id, hashToken(input.confirmation));
    if (!link) throw linkInvalid();
    const user = await findAuthUserById(tx, link.userId);
    if (!user || !user.active) throw linkInvalid();
    assertPasswordRules(input.newPassword, user);
    await updateUserSecurity(tx, user.id, { passwordHash: await hashPassword(input.newPassword) });
    await deleteUserSessions(tx, user.id);
    await recordActivity(tx, {
      orgId: user.homeOrgId,
      actorUserId: user.id,
      action: link.purpose === 'new-user' ? 'user.password_set' : 'user.password_reset',
      ip: origin.ip,
    });
  });
}

/** A signed-in user changes their own password; all their sessions end and this one is renewed. */
export async function changePassword(
  deps: AuthDeps,
  userId: string,
  input: { requiredPassword: string; newPassword: string },
  origin: RequestOrigin,
): Promise<string> {
  const user = await findAuthUserById(deps.db, userId);
  if (!user) throw notFound('user');
  await assertNotRateLimited(deps.db, user.email, origin.ip);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.requiredPassword))) {
    await noteFailure(deps, user.email, origin, user, 'current-password');
    throw new AppError('ValidatorException', 'PASSWORD_CURRENT_INVALID', 'The current password is wrong', {
      field: 'requiredPassword',
    });
  }
  assertPasswordRules(input.newPassword, user);
  if (input.newPassword === input.requiredPassword)
    throw invalidField('newPassword', '', undefined, 'The new password is the old one');
  const passwordHash = await hashPassword(input.newPassword);
  return deps.db.transaction(async (tx) => {
    await updateUserSecurity(tx, userId, { passwordHash });
    await deleteUserSessions(tx, userId);
    await recordActivity(tx, {
      orgId: user.homeOrgId,
      actorUserId: userId,
      action: 'user.password_changed',
      ip: origin.ip,
    });
    return createSession(tx, { userId, ip: origin.ip, userAgent: origin.userAgent });
  });
}

/**
 * A sign-in address for the knowledge base: its URL with the return path and a short-lived token
 * signed with the shared secret (JWT, HS256), as help-desk single sign-on expects.
 */
export async function knowledgeBaseLogin(deps: AuthDeps, userId: string, returnTo: string | undefined) {
  if (!deps.knowledgeBase) {
    throw new AppError(
      'NotFoundException',
      'ERROR_LOGGING_IN_TO_KNOWLEDGE_BASE',
      'No knowledge base is configured',
    );
  }
  const user = await findAuthUserById(deps.db, userId);
  if (!user) throw notFound('user');
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({
    sub: user.id,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`,
    iat: now,
    exp: now + 300,
    jti: randomUUID(),
  })}`;
  const signature = createHmac('sha256', deps.knowledgeBase.secret).update(unsigned).digest('base64url');
  const url = new URL(deps.knowledgeBase.url);
  url.searchParams.set('jwt', `${unsigned}.${signature}`);
  if (returnTo) url.searchParams.set('redirect_to', returnTo);
  return { loginUrl: url.toString() };
}
