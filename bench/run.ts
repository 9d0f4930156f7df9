/**
 * Benchmarks report ratios against a baseline measured in the same run, so they compare across
 * machines. Run with `npm run bench`.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { createSecretBox } from '../apps/server/src/platform/crypto';
import { JobRunner } from '../apps/server/src/platform/jobs';
import { openDatabase } from '../apps/server/src/db/client';
import { buildApp } from '../apps/server/src/app';
import { bootstrap } from '../apps/server/src/bootstrap/bootstrap';
import { createSession } from '../apps/server/src/modules/auth/sessions';
import { SESSION_COOKIE } from '../apps/server/src/platform/access';
import { users } from '../apps/server/src/modules/users/tables';

async function timeRequests(count: number, send: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i++) await send(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await send();
  return Number(process.hrtime.bigint() - start) / 1e6 / count;
}

async function accessHookBenchmark() {
  const database = await openDatabase({});
  const result = await bootstrap(database.db, {
    adminEmail: 'bench@vigil.example',
    adminPassword: 'bench-password',
    demoData: true,
    demoPassword: 'bench-password',
  });
  const [admin] = await database.db.select().from(users).limit(1);
  const cookie = `${SESSION_COOKIE}=${await createSession(database.db, { userId: admin!.id })}`;
  const orgId = result.demo!.orgs[0]!.id;
  const app = await buildApp({
    config: { LOG_LEVEL: 'silent', NODE_ENV: 'production', DATA_DIR: tmpdir() },
    database,
    jobs: new JobRunner(database),
    secrets: createSecretBox(randomBytes(32)),
    webDist: '/none',
    logger: false,
  });
  await app.ready();

  const count = 2000;
  const baseline = await timeRequests(count, () => app.inject({ method: 'GET', url: '/api/health' }));
  const guarded = await timeRequests(count, () =>
    app.inject({ method: 'GET', url: `/api/org/${orgId}/user/permissions`, headers: { cookie } }),
  );
  await app.close();
  await database.close();
  return {
    name: 'org-scoped request (session, org access, permissions) vs health check',
    baseline,
    measured: guarded,
  };
}

const results = [await accessHookBenchmark()];
for (const { name, baseline, measured } of results) {
  console.log(
    `${name}: ${measured.toFixed(3)} ms vs ${baseline.toFixed(3)} ms baseline, ratio ${(measured / baseline).toFixed(2)}`,
  );
}
