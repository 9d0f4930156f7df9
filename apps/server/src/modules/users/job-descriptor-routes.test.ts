import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let offOrgId: string;
let staff: SeededUser;
let clientAdmin: SeededUser;
let stranger: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  offOrgId = (await seedOrg(db, { featureFlags: { jobDescriptors: false } })).id;
  staff = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['TRAC_USER', 'USER_EDIT'],
    authorisedOrgIds: [offOrgId],
  });
  clientAdmin = await seedUser(db, { homeOrgId: orgId, permissions: ['USER_EDIT'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['TRAC_USER'] });
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, who: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(who.cookie), ...(payload && { payload }) });
const path = (suffix: string, org = orgId) => `/api/org/${org}${suffix}`;

describe('job descriptors', () => {
  it('are created, renamed, listed with their holders and deleted, each change audited', async () => {
    const created = await call('POST', path('/job-descriptor'), staff, { name: 'Fraud desk' });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    await call('PUT', path(`/user/${clientAdmin.id}/job-descriptors`), staff, { jobDescriptorIds: [id] });

    const renamed = await call('PUT', path(`/job-descriptor/${id}`), staff, { name: 'Fraud desk lead' });
    expect(renamed.json()).toEqual({ id, name: 'Fraud desk lead', userCount: 1 });
    expect((await call('GET', path('/job-descriptors'), staff)).json()).toEqual({
      items: [{ id, name: 'Fraud desk lead', userCount: 1 }],
      total: 1,
    });
    // Users managers see them to assign them.
    expect((await call('GET', path('/job-descriptors'), clientAdmin)).statusCode).toBe(200);

    expect((await call('DELETE', path(`/job-descriptor/${id}`), staff)).statusCode).toBe(204);
    expect((await call('GET', path('/job-descriptors'), staff)).json().total).toBe(0);
    const actions = await ctx.database.db
      .select({ action: activityLog.action, details: activityLog.details })
      .from(activityLog)
      .where(and(eq(activityLog.targetId, id), eq(activityLog.targetType, 'job_descriptor')));
    expect(actions).toEqual([
      { action: 'job_descriptor.created', details: { after: { name: 'Fraud desk' } } },
      {
        action: 'job_descriptor.renamed',
        details: { before: { name: 'Fraud desk' }, after: { name: 'Fraud desk lead' } },
      },
      { action: 'job_descriptor.deleted', details: { before: { name: 'Fraud desk lead' }, after: null } },
    ]);
  });

  it('refuse a name in use, ignoring case, and an empty name', async () => {
    await call('POST', path('/job-descriptor'), staff, { name: 'Branch security' });
    const taken = await call('POST', path('/job-descriptor'), staff, { name: 'BRANCH SECURITY' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ key: 'JOB_DESCRIPTOR_NAME_TAKEN', field: 'name' });
    expect((await call('POST', path('/job-descriptor'), staff, { name: '  ' })).statusCode).toBe(400);
  });

  it('are managed by TRAC_USER holders only, where the feature is on', async () => {
    const refused = await call('POST', path('/job-descriptor'), clientAdmin, { name: 'Nope' });
    expect(refused.json().key).toBe('PERMISSION_DENIED');
    const off = await call('POST', path('/job-descriptor', offOrgId), staff, { name: 'Nope' });
    expect(off.json().key).toBe('FEATURE_NOT_ENABLED');
  });

  it('of another organisation answer 404', async () => {
    const foreign = (
      await call('POST', path('/job-descriptor', otherOrgId), stranger, { name: 'Theirs' })
    ).json();
    expect(
      (await call('PUT', path(`/job-descriptor/${foreign.id}`), staff, { name: 'Mine' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', path(`/job-descriptor/${foreign.id}`), staff)).statusCode).toBe(404);
    const assign = await call('PUT', path(`/user/${clientAdmin.id}/job-descriptors`), staff, {
      jobDescriptorIds: [foreign.id],
    });
    expect(assign.json()).toMatchObject({ key: 'INVALID_JOB_DESCRIPTORS' });
  });
});
