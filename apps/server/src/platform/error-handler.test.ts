import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../test/app';
import { orgs } from '../modules/orgs/tables';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp((app) => {
    app.post(
      '/api/echo',
      {
        config: { auth: 'public' },
        schema: {
          body: z.object({
            name: z.string().min(1),
            severity: z.enum(['LOW', 'MEDIUM', 'HIGH']),
            contact: z.object({ email: z.email() }).optional(),
          }),
        },
      },
      async (request) => request.body,
    );
    app.post('/api/duplicate-org', { config: { auth: 'public' } }, async () => {
      const [org] = await ctx.database.db.insert(orgs).values({ name: 'Twin' }).returning();
      await ctx.database.db.insert(orgs).values({ id: org!.id, name: 'Twin again' });
      return {};
    });
    app.get('/api/explode', { config: { auth: 'public' } }, async () => {
      throw new Error('connection string postgres://secret@db leaked?');
    });
  });
});

afterAll(() => ctx.close());

const post = (url: string, payload?: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: payload as object,
  });

describe('error answers', () => {
  it('answers a bad body field with 400 GENERIC_INVALID_FIELD_VALUE naming the field and value', async () => {
    const response = await post('/api/echo', { name: '', severity: 'LOW' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      type: 'ValidatorException',
      key: 'GENERIC_INVALID_FIELD_VALUE',
      field: 'name',
      params: { field: 'name', value: '' },
    });
    expect(response.json().errorId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists the valid values of an enumerated field and names nested fields by path', async () => {
    const enumResponse = await post('/api/echo', { name: 'x', severity: 'SEVERE' });
    expect(enumResponse.json()).toMatchObject({ field: 'severity', validValues: ['LOW', 'MEDIUM', 'HIGH'] });
    const nested = await post('/api/echo', { name: 'x', severity: 'LOW', contact: { email: 'nope' } });
    expect(nested.json()).toMatchObject({ field: 'contact.email', params: { value: 'nope' } });
  });

  it('answers malformed JSON with 400 and a catalogue key', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ type: 'ValidatorException', key: 'GENERIC_INVALID_FIELD_VALUE' });
  });

  it('turns a unique violation into 409 GENERIC_CONFLICT without database text', async () => {
    const response = await post('/api/duplicate-org');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ type: 'ConflictException', key: 'GENERIC_CONFLICT' });
    expect(response.body).not.toMatch(/duplicate key|orgs_pkey/);
  });

  it('answers an unexpected failure with 500, an errorId and no internals', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/explode' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ type: 'ServerException', key: 'GENERIC_SERVER_ERROR' });
    expect(response.body).not.toContain('secret');
  });

  it('answers an unknown API path with 404 GENERIC_NOT_FOUND', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      key: 'GENERIC_NOT_FOUND',
      message: 'No route GET /api/no-such-thing',
    });
  });
});
