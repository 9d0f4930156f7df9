import { buildApp } from './app';
import { bootstrap, type BootstrapResult } from './bootstrap/bootstrap';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { ensurePartitions, PARTITION_DAYS_AHEAD } from './modules/events/partitions';
import { REVIEW_REMINDER_JOB } from './modules/risk/reminders';
import { startShipperListeners } from './modules/shippers/listeners';
import { createSecretBox, loadSecretKey } from './platform/crypto';
import { JobRunner } from './platform/jobs';

function printSignIn(config: Config, address: string, result: BootstrapResult) {
  const url = config.PUBLIC_URL ?? address;
  const lines = [
    `Vigil is running at ${url}`,
    `API documentation: ${url}/api/docs`,
    `Administrator: ${result.adminEmail}`,
  ];
  if (result.generatedAdminPassword)
    lines.push(`Administrator password (shown once): ${result.generatedAdminPassword}`);
  if (result.demo) {
    lines.push('Demo organisations: ' + result.demo.orgs.map((org) => org.name).join(', '));
    lines.push('Demo users: ' + result.demo.users.map((user) => user.email).join(', '));
    if (result.demo.generatedPassword)
      lines.push(`Demo password (shown once): ${result.demo.generatedPassword}`);
  }
  console.log(['', ...lines.map((line) => `  ${line}`), ''].join('\n'));
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onConnectionError: (error) => console.error(`Database connection lost: ${error.message}`),
  });
  const secrets = createSecretBox(await loadSecretKey(config.SECRET_KEY, config.DATA_DIR));
  const result = await bootstrap(database.db, {
    adminEmail: config.BOOTSTRAP_ADMIN_EMAIL,
    adminPassword: config.BOOTSTRAP_ADMIN_PASSWORD,
    demoData: config.DEMO_DATA,
    demoPassword: config.DEMO_PASSWORD,
    s3Endpoint: config.S3_ENDPOINT,
    secrets,
  });

  // Daily event partitions from yesterday on; the events.partitions job keeps them ahead.
  await ensurePartitions(database.db, { daysAhead: PARTITION_DAYS_AHEAD });

  const jobs = new JobRunner(database);
  const app = await buildApp({ config, database, jobs, secrets });
  jobs.logger = app.log;

  const listeners = await startShipperListeners(config, database.db, app.log);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await listeners.close(); // stores the syslog messages still waiting in a batch
      await app.close(); // stops accepting and lets running requests finish
      await jobs.stop(); // lets running jobs finish
      await database.close(); // flushes the embedded database to disk
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  await jobs.start();
  // The daily review reminders once at start too, so a day the server was down at their hour is caught
  // up (they are sent once per stage and cycle however often the job runs).
  await jobs.send(REVIEW_REMINDER_JOB, {});
  app.log.debug({ address }, 'listening');
  printSignIn(config, `http://localhost:${config.PORT}`, result);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
