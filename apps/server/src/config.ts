import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  BOOTSTRAP_ADMIN_EMAIL: z.email().default('admin@vigil.example'),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DEMO_DATA: booleanFromEnv.default(true),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  KNOWLEDGE_BASE_URL: z.url().optional(),
  KNOWLEDGE_BASE_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Elasticsearch-compatible _bulk listener for shippers; off when unset. */
  ELASTIC_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  ELASTIC_HOST: z.string().min(1).optional(),
  /** Syslog listener, TCP and UDP on one port; off when unset. */
  SYSLOG_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SYSLOG_HOST: z.string().min(1).optional(),
  /** API token (`<key>.<secret>`) of syslog messages that carry none of their own. */
  SYSLOG_TOKEN: z.string().min(1).optional(),
  /** S3-compatible endpoint log sources are read from instead of AWS (MinIO, a local server). */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** STS-compatible endpoint log sources' roles are assumed at instead of AWS's. */
  STS_ENDPOINT: z.url().optional(),
  /** Path-style bucket addressing (`endpoint/bucket/key`), as most local S3 servers need. */
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  /**
   * The server's credentials, used only to assume log sources' roles (buckets are read with the
   * role's temporary credentials); without them the AWS SDK's default chain applies.
   */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Entra ID token endpoint and Microsoft Graph, for national clouds or tests. */
  ENTRA_LOGIN_URL: z.url().default('https://login.microsoftonline.com'),
  ENTRA_GRAPH_URL: z.url().default('https://graph.microsoft.com'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
});

export type Config = z.infer<typeof configSchema>;

/** Values never echoed in an error message: they are passwords or carry one. */
const SECRET_VARIABLES = new Set([
  'SECRET_KEY',
  'BOOTSTRAP_ADMIN_PASSWORD',
  'DEMO_PASSWORD',
  'DATABASE_URL',
  'SMTP_URL',
  'KNOWLEDGE_BASE_SECRET',
  'SYSLOG_TOKEN',
  'S3_SECRET_ACCESS_KEY',
]);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment once; an empty variable counts as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const shown = SECRET_VARIABLES.has(name)
          ? 'value hidden'
          : `got ${JSON.stringify(present[name] ?? null)}`;
        return `${name}: ${issue.message} (${shown})`;
      }),
    );
  }
  return parsed.data;
}
