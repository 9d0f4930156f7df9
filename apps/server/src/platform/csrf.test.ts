import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp((app) => {
    app.post('/api/change', { config: { auth: 'public' } }, async () => ({ changed: true }));
    app.post('/api/machine', { config: { auth: 'public', csrf: false } }, async () => ({ changed: true }));
  });
});
afterAll(() => ctx.close());

describe('CSRF guard', () => {
  it('refuses a state-changing call without X-Requested-With, as a cross-site form would send it', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/change' });
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('CSRF_HEADER_MISSING');
  });

  it('refuses a foreign Origin even with the header', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/change',
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        origin: 'https://evil.example',
        host: 'vigil.example',
      },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('CSRF_ORIGIN_REFUSED');
  });

  it('accepts the header from the same origin, and token routes that opt out', async () => {
    const same = await ctx.app.inject({
      method: 'POST',
      url: '/api/change',
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        origin: 'http://vigil.example',
        host: 'vigil.example',
      },
    });
    expect(same.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/machine' })).statusCode).toBe(200);
  });
});
