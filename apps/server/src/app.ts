import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { alertRoutes } from './modules/alerts/routes';
import { assetRoutes } from './modules/assets/routes';
import { defineAuthJobs } from './modules/auth/jobs';
import { authRoutes } from './modules/auth/routes';
import { findSession } from './modules/auth/sessions';
import { bannerRoutes } from './modules/banners/routes';
import { ingestRoutes, type IngestOptions } from './modules/events/ingest';
import { defineDemoJobs } from './demo/events';
import { defineTriggerJobs } from './modules/triggers/engine';
import { defineEventJobs, eventRoutes } from './modules/events/routes';
import { infoRoutes } from './modules/info/routes';
import { defineEscalationJobs } from './modules/metadata/escalation-engine';
import { escalationRoutes } from './modules/metadata/escalation-routes';
import { metadataRoutes } from './modules/metadata/routes';
import { orgRoutes } from './modules/orgs/routes';
import { reportRoutes } from './modules/reports/routes';
import { defineReportJobs, queueOn } from './modules/reports/service';
import { roleRoutes } from './modules/roles/routes';
import { restrictionRoutes } from './modules/restrictions/routes';
import { riskRoutes } from './modules/risk/routes';
import { ssoAdminRoutes } from './modules/sso/admin-routes';
import { ssoRoutes } from './modules/sso/routes';
import { APP_VERSION, systemRoutes } from './modules/system/routes';
import { classifierRoutes } from './modules/classifiers/routes';
import { customParserRoutes } from './modules/custom-parsers/routes';
import { dashboardRoutes } from './modules/dashboards/routes';
import { defineRollupPrefillJobs, prefillQueue } from './modules/dashboards/prefill';
import { autoEvidenceRoutes } from './modules/governance/auto-evidence-routes';
import { defineAutoEvidenceJobs } from './modules/governance/auto-evidence';
import { policyRoutes } from './modules/governance/policy-routes';
import { governanceRoutes } from './modules/governance/routes';
import { workspaceRoutes } from './modules/dashboards/workspace-routes';
import { homeRoutes } from './modules/home/routes';
import { savedQueryRoutes } from './modules/saved-queries/routes';
import { watchlistRoutes } from './modules/watchlists/routes';
import { triggerRoutes } from './modules/triggers/routes';
import { triggerScheduleRoutes } from './modules/triggers/schedules';
import { triggerLibraryRoutes } from './modules/triggers/library-routes';
import { defineScheduleJobs } from './modules/schedules/engine';
import { taskScheduleRoutes } from './modules/schedules/routes';
import { threatRoutes } from './modules/threat/routes';
import { ticketRoutes } from './modules/tickets/routes';
import { onIncidentClosed } from './modules/tickets/service';
import { tokenRoutes } from './modules/tokens/routes';
import { createS3Access, defineIntegrationJobs } from './modules/integrations/collector';
import { defineActionJobs } from './modules/integrations/actions';
import { defineNoDataJobs } from './modules/integrations/no-data';
import { markRisksToRevisit } from './modules/risk/incidents';
import { defineReviewReminderJobs } from './modules/risk/reminders';
import { DEFAULT_ENTRA_ENDPOINTS } from './modules/integrations/entra';
import { integrationRoutes } from './modules/integrations/routes';
import { actionRoutes } from './modules/integrations/action-routes';
import { loadOrgAccess } from './modules/users/access';
import { userAdminRoutes } from './modules/users/admin-routes';
import { jobDescriptorRoutes } from './modules/users/job-descriptor-routes';
import { userRoutes } from './modules/users/routes';
import { registerAccessControl } from './platform/access';
import { registerCsrfGuard } from './platform/csrf';
import { registerErrorHandler, sendError } from './platform/error-handler';
import type { SecretBox } from './platform/crypto';
import { AppError } from './platform/errors';
import type { JobRunner } from './platform/jobs';
import { createMailTransport, defineMailJob } from './platform/mail';

export interface AppDeps {
  config: Pick<
    Config,
    | 'LOG_LEVEL'
    | 'PUBLIC_URL'
    | 'NODE_ENV'
    | 'DATA_DIR'
    | 'SMTP_URL'
    | 'KNOWLEDGE_BASE_URL'
    | 'KNOWLEDGE_BASE_SECRET'
  > &
    Partial<
      Pick<
        Config,
        | 'S3_ENDPOINT'
        | 'STS_ENDPOINT'
        | 'S3_REGION'
        | 'S3_FORCE_PATH_STYLE'
        | 'S3_ACCESS_KEY_ID'
        | 'S3_SECRET_ACCESS_KEY'
        | 'ENTRA_LOGIN_URL'
        | 'ENTRA_GRAPH_URL'
      >
    >;
  database: Database;
  /** Areas define their jobs on it; the caller starts it once the app is built. */
  jobs: JobRunner;
  secrets: SecretBox;
  /** Folder of the built web app; omitted or missing means the API alone is served. */
  webDist?: string;
  logger?: FastifyServerOptions['logger'];
  /** Batch size and rate limit of the ingest API (tests lower them). */
  ingest?: IngestOptions;
}

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const API_DOCS_PREFIX = '/api/docs';

export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.LOG_LEVEL },
    trustProxy: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Mantine writes inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RateLimitException',
        'GENERIC_RATE_LIMITED',
        `Too many requests; retry in ${context.after}`,
        {
          params: { retryAfter: context.after },
        },
      ),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Vigil API',
        version: APP_VERSION,
        description:
          'Security operations, fraud monitoring, risk and compliance console. Org-scoped calls live under ' +
          '/api/org/{orgId}; state-changing calls need the X-Requested-With header. Errors are ' +
          '{ type, key, message, params?, field?, validValues?, errorId }.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'vigil_session' },
          ingestToken: { type: 'http', scheme: 'bearer', description: 'An API input token: <key>.<secret>' },
        },
      },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
    hideUntagged: false,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, staticCSP: true });

  registerCsrfGuard(app, deps.config.PUBLIC_URL);
  registerAccessControl(app, {
    authenticate: (token) => findSession(deps.database.db, token),
    loadOrgAccess: (user, orgId) => loadOrgAccess(deps.database.db, user, orgId),
    exemptPrefixes: [API_DOCS_PREFIX],
  });

  const { config, database } = deps;
  const sendMail = defineMailJob(
    deps.jobs,
    createMailTransport({ smtpUrl: config.SMTP_URL, outboxDir: path.resolve(config.DATA_DIR, 'outbox') }),
  );
  defineAuthJobs(deps.jobs, database.db);
  defineEventJobs(deps.jobs, database.db);
  defineDemoJobs(deps.jobs, database.db);
  defineTriggerJobs(deps.jobs, database.db, sendMail);
  defineScheduleJobs(deps.jobs, database.db);
  defineEscalationJobs(deps.jobs, database.db, config.PUBLIC_URL);
  defineReportJobs(deps.jobs, database.db, sendMail);
  const s3 = createS3Access({
    endpoint: config.S3_ENDPOINT,
    stsEndpoint: config.STS_ENDPOINT,
    region: config.S3_REGION ?? 'us-east-1',
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? false,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });
  app.addHook('onClose', async () => s3.sts.destroy());
  defineIntegrationJobs(deps.jobs, database.db, s3);
  defineActionJobs(deps.jobs, database.db, deps.secrets);
  defineNoDataJobs(deps.jobs, database.db);
  defineAutoEvidenceJobs(deps.jobs, database.db);
  defineReviewReminderJobs(deps.jobs, database.db, config.PUBLIC_URL);
  // Closing an incident with a root cause asks for its risks' scores to be revisited (tickets cannot import risk).
  onIncidentClosed(markRisksToRevisit);
  defineRollupPrefillJobs(deps.jobs, database.db);
  const publicUrl = (request: FastifyRequest) => config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  await app.register(systemRoutes(database));
  await app.register(
    authRoutes({
      db: database.db,
      secrets: deps.secrets,
      sendMail,
      publicUrl,
      knowledgeBase:
        config.KNOWLEDGE_BASE_URL && config.KNOWLEDGE_BASE_SECRET
          ? { url: config.KNOWLEDGE_BASE_URL, secret: config.KNOWLEDGE_BASE_SECRET }
          : undefined,
    }),
  );
  await app.register(ssoRoutes({ db: database.db, publicUrl }));
  await app.register(ssoAdminRoutes(database.db));
  await app.register(orgRoutes(database.db));
  await app.register(bannerRoutes(database.db));
  await app.register(infoRoutes(database.db));
  await app.register(metadataRoutes(database.db));
  await app.register(escalationRoutes(database.db));
  await app.register(restrictionRoutes(database.db));
  await app.register(userRoutes(database.db));
  await app.register(userAdminRoutes({ db: database.db, secrets: deps.secrets, sendMail, publicUrl }));
  await app.register(roleRoutes(database.db));
  await app.register(jobDescriptorRoutes(database.db));
  await app.register(assetRoutes(database.db));
  await app.register(eventRoutes(database.db));
  await app.register(ingestRoutes(database.db, deps.ingest));
  await app.register(savedQueryRoutes(database.db, prefillQueue(deps.jobs)));
  await app.register(watchlistRoutes(database.db));
  await app.register(triggerRoutes(database.db));
  await app.register(triggerScheduleRoutes(database.db));
  await app.register(triggerLibraryRoutes(database.db));
  await app.register(customParserRoutes(database.db));
  await app.register(threatRoutes(database.db));
  await app.register(alertRoutes(database.db, sendMail));
  await app.register(ticketRoutes({ db: database.db, sendMail, log: app.log }));
  await app.register(taskScheduleRoutes(database.db));
  await app.register(governanceRoutes(database.db));
  await app.register(policyRoutes(database.db));
  await app.register(autoEvidenceRoutes(database.db));
  await app.register(dashboardRoutes(database.db, prefillQueue(deps.jobs)));
  await app.register(workspaceRoutes(database.db));
  await app.register(reportRoutes(database.db, queueOn(deps.jobs)));
  await app.register(homeRoutes(database.db));
  await app.register(riskRoutes(database.db));
  await app.register(classifierRoutes(database.db));
  await app.register(tokenRoutes({ db: database.db, secrets: deps.secrets }));
  await app.register(
    integrationRoutes({
      db: database.db,
      secrets: deps.secrets,
      jobs: deps.jobs,
      entra: {
        loginUrl: config.ENTRA_LOGIN_URL ?? DEFAULT_ENTRA_ENDPOINTS.loginUrl,
        graphUrl: config.ENTRA_GRAPH_URL ?? DEFAULT_ENTRA_ENDPOINTS.graphUrl,
      },
    }),
  );
  await app.register(actionRoutes({ db: database.db, secrets: deps.secrets }));

  const webDist = deps.webDist ?? DEFAULT_WEB_DIST;
  const serveWeb = existsSync(path.join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      setHeaders: (response, filePath) => {
        response.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && request.url !== '/api';
    if (serveWeb && isPage) {
      // The single-page app resolves its own routes, including its not-found page.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(
      reply,
      new AppError(
        'NotFoundException',
        'GENERIC_NOT_FOUND',
        `No route ${request.method} ${request.url.split('?')[0]}`,
      ),
    );
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
