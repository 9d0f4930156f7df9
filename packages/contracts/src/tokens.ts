import { z } from 'zod';
import { pageParams } from './query-params';

/**
 * Input tokens (spec 2 sections 3 and 4): credentials data collectors present, as `<key>.<secret>`.
 * INSTALLER is the Windows agent installer token, API the ingest API token, EXTERNAL the one token of
 * an external data vendor (with its queue and cloud access key).
 */
export const TOKEN_KINDS = ['INSTALLER', 'API', 'EXTERNAL'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** A token is active, then expired (its expiry passed) or revoked. */
export const TOKEN_STATES = ['active', 'expired', 'revoked'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export const TOKEN_DESCRIPTION_MAX_LENGTH = 200;
export const TOKEN_QUEUE_NAME_MAX_LENGTH = 255;
export const TOKEN_CLOUD_KEY_ID_MAX_LENGTH = 128;
export const TOKEN_CLOUD_SECRET_MAX_LENGTH = 1024;
/** Public part of every token key. */
export const TOKEN_KEY_PREFIX = 'vgl_';
/** Expiry choices offered by the web page, in days from now; `null` never expires. */
export const TOKEN_EXPIRY_CHOICES_DAYS = [30, 90, 180, 365, null] as const;

/** POST /tokens/installer and POST /token/api. `expiresAt` must lie in the future. */
export const tokenCreateSchema = z.object({
  description: z.string().trim().max(TOKEN_DESCRIPTION_MAX_LENGTH).default(''),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});
export type TokenCreateInput = z.input<typeof tokenCreateSchema>;

/** PUT /tokens/external: creates the organisation's external data-vendor token or replaces it. */
export const externalTokenInputSchema = z.object({
  description: z.string().trim().max(TOKEN_DESCRIPTION_MAX_LENGTH).default(''),
  queueName: z.string().trim().min(1).max(TOKEN_QUEUE_NAME_MAX_LENGTH),
  cloudAccessKeyId: z.string().trim().min(1).max(TOKEN_CLOUD_KEY_ID_MAX_LENGTH),
  /** Encrypted at rest and never answered. */
  cloudSecret: z.string().min(1).max(TOKEN_CLOUD_SECRET_MAX_LENGTH),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});
export type ExternalTokenInput = z.input<typeof externalTokenInputSchema>;

/** A token as lists show it: never its secret, its hash or the cloud secret. */
export const inputTokenSchema = z.object({
  id: z.string(),
  kind: z.enum(TOKEN_KINDS),
  key: z.string(),
  description: z.string(),
  state: z.enum(TOKEN_STATES),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  /** External data-vendor tokens only. */
  queueName: z.string().nullable(),
  cloudAccessKeyId: z.string().nullable(),
  /** Whether a cloud secret is stored (it is never answered). */
  hasCloudSecret: z.boolean(),
});
export type InputToken = z.infer<typeof inputTokenSchema>;

/** The answer of a creation: the token with its full `<key>.<secret>`, shown this once. */
export const createdInputTokenSchema = inputTokenSchema.extend({ secret: z.string() });
export type CreatedInputToken = z.infer<typeof createdInputTokenSchema>;

/** GET /tokens: newest first. */
export const tokenListQuerySchema = z.object({
  kind: z.enum(TOKEN_KINDS).optional(),
  state: z.enum(TOKEN_STATES).optional(),
  ...pageParams,
});

export const inputTokenListSchema = z.object({ items: z.array(inputTokenSchema), total: z.number() });

/** GET /tokens/external: the organisation's current external data-vendor token, if any. */
export const externalTokenAnswerSchema = z.object({ token: inputTokenSchema.nullable() });

/**
 * GET /getCredentials: what an external data vendor, presenting its external data-vendor token, uses to
 * deliver data: the organisation, the queue name and the cloud access key id and secret.
 */
export const vendorCredentialsSchema = z.object({
  orgId: z.string(),
  queueName: z.string(),
  cloudAccessKeyId: z.string(),
  cloudSecret: z.string(),
});
export type VendorCredentials = z.infer<typeof vendorCredentialsSchema>;
