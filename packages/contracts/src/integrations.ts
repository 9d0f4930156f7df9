import { z } from 'zod';

/**
 * Integrations (spec 2 sections 3, 5 and 9): cloud accounts and log sources, banking platforms and the
 * identity directory. Secrets (client secrets, Entra ID secret values) are write-only: answers carry
 * only whether one is stored.
 */
export const INTEGRATION_KINDS = ['AWS', 'AZURE', 'CRM', 'APITURE', 'FINXACT', 'ENTRA_ID'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

export const AWS_INTEGRATION_TYPES = ['CLOUDTRAIL', 'ELB'] as const;
export type AwsIntegrationType = (typeof AWS_INTEGRATION_TYPES)[number];

/** The logs types of an S3 log source, in the order the spec lists them. */
export const S3_LOGS_TYPES = [
  'DEFAULT',
  'APITURE_DIGITAL_BANKING',
  'CEF_JSON',
  'CELEBRUS',
  'CLOUDTRAIL',
  'CLOUDWATCH',
  'JSONL',
  'FRAUD_EVENT',
] as const;
export type S3LogsType = (typeof S3_LOGS_TYPES)[number];

export const INTEGRATION_NAME_MAX_LENGTH = 128;
export const INTEGRATION_TEXT_MAX_LENGTH = 256;
export const INTEGRATION_SECRET_MAX_LENGTH = 1024;
export const INTEGRATION_URL_MAX_LENGTH = 2048;
/** The first log file of a new AWS source may take this long to arrive. */
export const AWS_FIRST_FILE_WAIT_MINUTES = 10;
/** Data older than this is labelled "last received over 24 hours". */
export const INTEGRATION_STALE_HOURS = 24;
export const AZURE_NO_DATA_THRESHOLD_MAX_HOURS = 168;

export const AWS_ACCOUNT_ID_PATTERN = /^\d{12}$/;
/** A full IAM role ARN (`arn:aws:iam::123456789012:role/path/name`), not only a role name. */
export const IAM_ROLE_ARN_PATTERN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
/** S3 bucket naming rules: 3 to 63 lower-case letters, digits, dots and hyphens. */
export const S3_BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
export const AZURE_STORAGE_ACCOUNT_PATTERN = /^[a-z0-9]{3,24}$/;
export const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a well-formed http(s) URL with a host. */
export function isWellFormedUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const name = z.string().trim().min(1).max(INTEGRATION_NAME_MAX_LENGTH);
const text = z.string().trim().min(1).max(INTEGRATION_TEXT_MAX_LENGTH);
const url = z.string().trim().min(1).max(INTEGRATION_URL_MAX_LENGTH);
/** A secret: required on create; on update omitted or null keeps the stored one. */
const secret = z.string().min(1).max(INTEGRATION_SECRET_MAX_LENGTH);

// Patterns are checked by the server so that each failure answers its own catalogue key.
export const awsSettingsSchema = z.object({
  accountId: z.string().trim().max(32),
  integrationType: z.enum(AWS_INTEGRATION_TYPES),
});
export const azureSettingsSchema = z.object({
  subscriptionId: text,
  resourceGroup: text,
  storageAccount: text,
  alertOnNoData: z.boolean().default(false),
  noDataThresholdHours: z.number().int().min(1).max(AZURE_NO_DATA_THRESHOLD_MAX_HOURS).default(24),
  deletionEnabled: z.boolean().default(false),
});
export const crmSettingsSchema = z.object({ instanceUrl: url, clientId: text });
export const apitureSettingsSchema = z.object({ url, clientId: text });
export const finxactSettingsSchema = z.object({ url, clientId: text, userRole: text });
export const entraSettingsSchema = z.object({ tenantId: text, applicationId: text, secretId: text });

/** Which secrets each kind keeps (encrypted at rest, never answered). */
export const INTEGRATION_SECRET_FIELDS = {
  AWS: [],
  AZURE: [],
  CRM: ['clientSecret'],
  APITURE: ['clientSecret'],
  FINXACT: ['clientSecret'],
  ENTRA_ID: ['secretValue'],
} as const satisfies Record<IntegrationKind, readonly string[]>;

const withSecret = <K extends string>(field: K, required: boolean) =>
  z.object({ [field]: required ? secret : secret.nullish() } as Record<K, typeof secret>);

function inputSchema(required: boolean) {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('AWS'), name, settings: awsSettingsSchema }),
    z.object({ kind: z.literal('AZURE'), name, settings: azureSettingsSchema }),
    z.object({
      kind: z.literal('CRM'),
      name,
      settings: crmSettingsSchema,
      secrets: withSecret('clientSecret', required),
    }),
    z.object({
      kind: z.literal('APITURE'),
      name,
      settings: apitureSettingsSchema,
      secrets: withSecret('clientSecret', required),
    }),
    z.object({
      kind: z.literal('FINXACT'),
      name,
      settings: finxactSettingsSchema,
      secrets: withSecret('clientSecret', required),
    }),
    z.object({
      kind: z.literal('ENTRA_ID'),
      name,
      settings: entraSettingsSchema,
      secrets: withSecret('secretValue', required),
    }),
  ]);
}

/** POST /integrations. */
export const integrationCreateSchema = inputSchema(true);
export type IntegrationCreateInput = z.input<typeof integrationCreateSchema>;
/** PUT /integration/:id: the same shape; a secret left out keeps the stored one. The kind cannot change. */
export const integrationUpdateSchema = inputSchema(false);
export type IntegrationUpdateInput = z.input<typeof integrationUpdateSchema>;

/**
 * WAITING_FIRST_FILE: an AWS account younger than the first-file wait with no data yet; NO_DATA: none
 * yet; RECEIVING: data within 24 hours; STALE: last received over 24 hours; ERROR: the last collection
 * or validation failed; VALIDATED: an Entra ID integration whose last validation passed.
 */
export const INTEGRATION_STATUSES = [
  'WAITING_FIRST_FILE',
  'NO_DATA',
  'RECEIVING',
  'STALE',
  'ERROR',
  'VALIDATED',
] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

export const integrationSchema = z.object({
  id: z.string(),
  kind: z.enum(INTEGRATION_KINDS),
  name: z.string(),
  settings: z.record(z.string(), z.unknown()),
  /** For each secret field of the kind, whether one is stored. */
  secretsSet: z.record(z.string(), z.boolean()),
  status: z.enum(INTEGRATION_STATUSES),
  lastDataAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastValidatedAt: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Integration = z.infer<typeof integrationSchema>;

export const integrationListQuerySchema = z.object({ kind: z.enum(INTEGRATION_KINDS).optional() });
export const integrationListSchema = z.object({ items: z.array(integrationSchema), total: z.number() });

/** POST /integration/:id/log-sources and PUT /log-source/:id (an AWS account's S3 log sources). */
export const s3LogSourceInputSchema = z.object({
  bucket: z.string().trim().min(1).max(63),
  /** Optional; when given, a full IAM role ARN. */
  roleArn: z.string().trim().max(2048).nullish(),
  prefix: z.string().trim().max(1024).default(''),
  logsType: z.enum(S3_LOGS_TYPES),
  enabled: z.boolean().default(true),
});
export type S3LogSourceInput = z.input<typeof s3LogSourceInputSchema>;

export const s3LogSourceSchema = z.object({
  id: z.string(),
  integrationId: z.string(),
  bucket: z.string(),
  roleArn: z.string().nullable(),
  prefix: z.string(),
  logsType: z.enum(S3_LOGS_TYPES),
  enabled: z.boolean(),
  status: z.enum(INTEGRATION_STATUSES),
  objectsRead: z.number(),
  eventsIngested: z.number(),
  failedObjects: z.number(),
  lastPolledAt: z.string().nullable(),
  lastDataAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** The catalogue key of the last error when it has one (INTEGRATION_ROLE_NOT_ASSUMED). */
  lastErrorKey: z.string().nullable(),
  createdOn: z.string(),
});
export type S3LogSource = z.infer<typeof s3LogSourceSchema>;
export const s3LogSourceListSchema = z.object({ items: z.array(s3LogSourceSchema), total: z.number() });

/** One object a log source read: its events, or why it could not be read. */
export const s3LogObjectSchema = z.object({
  key: z.string(),
  etag: z.string(),
  size: z.number(),
  events: z.number(),
  rejected: z.number(),
  error: z.string().nullable(),
  readAt: z.string(),
});
export type S3LogObject = z.infer<typeof s3LogObjectSchema>;
export const s3LogObjectListSchema = z.object({ items: z.array(s3LogObjectSchema), total: z.number() });

// --- Action integrations and actions (spec 3) ---------------------------------------------------

/** Banking platforms actions are sent to; one action integration per provider and organisation. */
export const ACTION_PROVIDERS = ['Q2', 'APITURE', 'SYMXCHANGE'] as const;
export type ActionProvider = (typeof ACTION_PROVIDERS)[number];

/** ADD_WARNING_CODE puts a warning code on an account (Symxchange); DISABLE_USER disables online banking (Q2, Apiture). */
export const ACTION_TYPES = ['ADD_WARNING_CODE', 'DISABLE_USER'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const ACTION_TYPE_PROVIDERS: Record<ActionType, readonly ActionProvider[]> = {
  ADD_WARNING_CODE: ['SYMXCHANGE'],
  DISABLE_USER: ['Q2', 'APITURE'],
};

/** When the action's fields hold several values: send each one at a time, only the first, or none. */
export const ACTION_MULTIPLE_VALUES = ['SEND_ALL', 'SEND_FIRST', 'SEND_NONE'] as const;
export type ActionMultipleValues = (typeof ACTION_MULTIPLE_VALUES)[number];

/** Event fields one action reads its values from. */
export const ACTION_MAX_FIELDS = 5;
export const SYMXCHANGE_WARNING_CODE_MIN = 1;
export const SYMXCHANGE_WARNING_CODE_MAX = 999;
export const SYMXCHANGE_MAX_WARNING_CODES = 20;
/** Values one run may carry. */
export const ACTION_RUN_MAX_VALUES = 100;

export const actionIntegrationInputSchema = z.object({
  provider: z.enum(ACTION_PROVIDERS),
  apiBaseUrl: url,
  authBaseUrl: url,
  clientId: text,
  /** Required on create; on update omitted or null keeps the stored one. */
  clientSecret: secret.nullish(),
});
export type ActionIntegrationInput = z.input<typeof actionIntegrationInputSchema>;

export const actionIntegrationSchema = z.object({
  id: z.string(),
  provider: z.enum(ACTION_PROVIDERS),
  apiBaseUrl: z.string(),
  authBaseUrl: z.string(),
  clientId: z.string(),
  clientSecretSet: z.boolean(),
  createdOn: z.string(),
});
export type ActionIntegration = z.infer<typeof actionIntegrationSchema>;
export const actionIntegrationListSchema = z.object({
  items: z.array(actionIntegrationSchema),
  total: z.number(),
});

export const actionInputSchema = z.object({
  name,
  type: z.enum(ACTION_TYPES),
  provider: z.enum(ACTION_PROVIDERS),
  /** Event fields the values come from (account number, online-banking user). */
  fields: z.array(z.string().trim().min(1).max(INTEGRATION_TEXT_MAX_LENGTH)).min(1),
  multipleValues: z.enum(ACTION_MULTIPLE_VALUES).default('SEND_ALL'),
  /** ADD_WARNING_CODE: the code added, 1 to 999. */
  warningCode: z.number().int().nullish(),
});
export type ActionInput = z.input<typeof actionInputSchema>;

export const actionSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(ACTION_TYPES),
  provider: z.enum(ACTION_PROVIDERS),
  fields: z.array(z.string()),
  multipleValues: z.enum(ACTION_MULTIPLE_VALUES),
  warningCode: z.number().nullable(),
  createdOn: z.string(),
});
export type Action = z.infer<typeof actionSchema>;
export const actionListSchema = z.object({ items: z.array(actionSchema), total: z.number() });

/** POST /action/:id/run: the values (accounts, users) to act on, or an event whose fields hold them. */
export const actionRunSchema = z
  .object({
    values: z
      .array(z.string().trim().min(1).max(INTEGRATION_TEXT_MAX_LENGTH))
      .max(ACTION_RUN_MAX_VALUES)
      .optional(),
    event: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((input) => input.values !== undefined || input.event !== undefined, {
    message: 'values or event is required',
  });

export const PENDING_ACTION_STATES = ['PENDING', 'RUNNING', 'EXECUTED', 'FAILED', 'REVERTED'] as const;
export type PendingActionState = (typeof PENDING_ACTION_STATES)[number];

export const pendingActionSchema = z.object({
  id: z.string(),
  actionId: z.string().nullable(),
  actionName: z.string(),
  provider: z.enum(ACTION_PROVIDERS),
  type: z.enum(ACTION_TYPES),
  /** The account or user acted on. */
  value: z.string(),
  /** Run for an alert: the trigger and the alert (null when run by hand or the alert was notify-only). */
  triggerId: z.string().nullable(),
  alertId: z.string().nullable(),
  state: z.enum(PENDING_ACTION_STATES),
  request: z.record(z.string(), z.unknown()).nullable(),
  response: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  executedAt: z.string().nullable(),
  revertedAt: z.string().nullable(),
  createdOn: z.string(),
});
export type PendingAction = z.infer<typeof pendingActionSchema>;
export const pendingActionListSchema = z.object({ items: z.array(pendingActionSchema), total: z.number() });
