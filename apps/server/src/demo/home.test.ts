import type { Readiness } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../test/app';
import { seedUser } from '../../test/fixtures';
import { bootstrap } from '../bootstrap/bootstrap';
import { orgs } from '../modules/orgs/tables';

/** The demo organisations' readiness: some checks met and some not, so the page shows what to put right. */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
  await bootstrap(ctx.database.db, {
    adminEmail: 'admin@vigil.example',
    demoData: true,
    demoPassword: 'demo-pass',
  });
});

afterAll(async () => {
  await ctx?.close();
});

describe('demo readiness', () => {
  it.each(['First Harbor Bank', 'Prairie Credit Union'])('%s shows met and unmet checks', async (name) => {
    const [org] = await ctx.database.db.select().from(orgs).where(eq(orgs.name, name));
    const user = await seedUser(ctx.database.db, { homeOrgId: org!.id, permissions: [] });
    const response = await orgRequest(ctx, org!.id, 'GET', '/home/readiness', user);
    expect(response.statusCode).toBe(200);
    const checks = response.json<Readiness>().categories.flatMap((category) => category.checks);
    expect(checks.some((check) => check.met)).toBe(true);
    expect(checks.some((check) => !check.met)).toBe(true);
  });
});
