import { openDatabase } from '../apps/server/src/db/client';
import { bootstrap } from '../apps/server/src/bootstrap/bootstrap';
import { createSession } from '../apps/server/src/modules/auth/sessions';
import { users } from '../apps/server/src/modules/users/tables';
import { SESSION_COOKIE } from '../apps/server/src/platform/access';
import { benchApp, mean, ms, sample, type BenchResult } from './support';

/** The cost of the per-request access hook: an org-scoped call against the health check. */
export async function accessHookBenchmark(): Promise<BenchResult> {
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
  const app = await benchApp(database);
  const count = 2000;
  const baseline = mean(await sample(count, () => app.inject({ method: 'GET', url: '/api/health' })));
  const guarded = mean(
    await sample(count, () =>
      app.inject({ method: 'GET', url: `/api/org/${orgId}/user/permissions`, headers: { cookie } }),
    ),
  );
  await app.close();
  await database.close();
  return {
    name: 'org-scoped request (session, org access, permissions) vs health check, PGlite',
    lines: [`mean ${ms(guarded)} vs ${ms(baseline)} baseline, ratio ${(guarded / baseline).toFixed(2)}`],
  };
}
