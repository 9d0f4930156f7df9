import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser } from '../../../test/fixtures';
import { clientErrors } from './tables';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('system routes', () => {
  it('reports health with the version and the database kind in use', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: process.env.VIGIL_TEST_DB === 'postgres' ? 'postgres' : 'pglite',
    });
  });

  it('publishes the OpenAPI document and the docs page under /api/docs', async () => {
    const spec = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    const document = spec.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/org/{orgId}/user/permissions']),
    );
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('stores client error reports, at most ten a minute per user', async () => {
    const org = await seedOrg(ctx.database.db);
    const user = await seedUser(ctx.database.db, { homeOrgId: org.id, permissions: [] });
    const report = {
      method: 'GET',
      url: '/api/org/:orgId/asset/:id',
      status: 500,
      key: 'GENERIC_SERVER_ERROR',
    };
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/client-errors',
        headers: browserHeaders(user.cookie),
        payload: report,
      });
    for (let i = 0; i < 10; i++) expect((await send()).statusCode).toBe(204);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().key).toBe('GENERIC_RATE_LIMITED');
    const stored = await ctx.database.db.select().from(clientErrors);
    expect(stored).toHaveLength(10);
    expect(stored[0]).toMatchObject({ ...report, userId: user.id });
    const unauthorised = await ctx.app.inject({
      method: 'POST',
      url: '/api/client-errors',
      headers: browserHeaders(),
      payload: report,
    });
    expect(unauthorised.statusCode).toBe(401);
  });

  it('sends security headers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
