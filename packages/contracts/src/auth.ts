import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits';

/** GET /api/user/saml-enabled?email= */
export const samlEnabledResponseSchema = z.object({
  ssoEnabled: z.boolean(),
  ssoName: z.string().optional(),
  ssoUrl: z.string().optional(),
  samlRequest: z.string().optional(),
});
export type SamlEnabledResponse = z.infer<typeof samlEnabledResponseSchema>;

/** POST /api/user/login (Basic authorisation). */
export const loginResponseSchema = z.object({
  /** True when the session is pending until a second factor is given (or set up). */
  secondFactorRequired: z.boolean(),
  google2faInitialized: z.boolean(),
  u2fInitialized: z.boolean(),
  /** otpauth:// URI of a new secret, when the organisation requires a second factor none is set up. */
  google2faUri: z.string().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** GET /api/user */
export const currentUserSchema = z.object({
  id: z.string(),
  emails: z.array(z.object({ email: z.string() })),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  homeOrgId: z.string(),
  roleId: z.string(),
  active: z.boolean(),
  google2faEnabled: z.boolean(),
  u2fEnabled: z.boolean(),
  readOnlyMode: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** POST /api/user/google2fa/setup: a new, not yet confirmed authenticator secret. */
export const totpSetupResponseSchema = z.object({ google2faUri: z.string(), secret: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

/** The one-time code as typed: digits only. */
export const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/);

export const forgotPasswordRequestSchema = z.object({ email: z.email() });

/** POST /api/user/password-reset: `id` and `confirmation` come from the e-mailed link. */
export const passwordResetRequestSchema = z.object({
  id: z.string().min(1),
  confirmation: z.string().min(1),
  newPassword: z.string(),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** POST /api/org/:orgId/user/:id/password */
export const passwordChangeRequestSchema = z.object({
  requiredPassword: z.string(),
  newPassword: z.string(),
});

/** POST /api/user/password-check */
export const passwordCheckResponseSchema = z.object({ common: z.boolean() });

export const knowledgeBaseLoginResponseSchema = z.object({ loginUrl: z.string() });

/** A reset or new-user link stays valid this long and works once. */
export const PASSWORD_LINK_LIFETIME_MS = 24 * 60 * 60_000;

/** Runs of this many repeated or consecutive characters are refused ("aaaa", "1234", "dcba"). */
export const PASSWORD_MAX_RUN = 4;

export type PasswordRuleKey =
  | 'ERROR_REQUIRED'
  | 'PASSWORDS_MUST_VALIDATE_LENGTH'
  | 'PASSWORD_NOT_PRINTABLE'
  | 'PASSWORD_CONTAINS_USER_DATA'
  | 'PASSWORD_REPEATED_CHARACTERS'
  | 'PASSWORD_SEQUENTIAL_CHARACTERS';

function longestRun(password: string, step: number): number {
  let longest = 1;
  let run = 1;
  for (let i = 1; i < password.length; i++) {
    run = password.charCodeAt(i) - password.charCodeAt(i - 1) === step ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return password.length === 0 ? 0 : longest;
}

/**
 * The password rules of spec 2 section 5: 8 to 4096 printable characters, no part of the user's
 * e-mail or name, no long repeated or sequential runs. Answers the first broken rule, or null.
 */
export function checkPasswordRules(
  password: string,
  user: { email?: string; firstName?: string; lastName?: string } = {},
): PasswordRuleKey | null {
  if (password.length === 0) return 'ERROR_REQUIRED';
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    return 'PASSWORDS_MUST_VALIDATE_LENGTH';
  }
  // Printable: no control characters (Unicode category Cc) and no unassigned or format codes.
  if (/[\p{Cc}\p{Cf}\p{Cn}]/u.test(password)) return 'PASSWORD_NOT_PRINTABLE';
  const lower = password.toLowerCase();
  const email = user.email?.toLowerCase() ?? '';
  const userData = [email, email.split('@')[0] ?? '', user.firstName ?? '', user.lastName ?? '']
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.length >= 3);
  if (userData.some((part) => lower.includes(part))) return 'PASSWORD_CONTAINS_USER_DATA';
  if (longestRun(password, 0) >= PASSWORD_MAX_RUN) return 'PASSWORD_REPEATED_CHARACTERS';
  if (longestRun(lower, 1) >= PASSWORD_MAX_RUN || longestRun(lower, -1) >= PASSWORD_MAX_RUN) {
    return 'PASSWORD_SEQUENTIAL_CHARACTERS';
  }
  return null;
}
