import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  DeletedPolicy,
  GovernanceDashboard,
  PolicyAcknowledgements,
  PolicyDetail,
  PolicySummary,
  TicketPolicyLink,
} from '@vigil/contracts';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { addMonths } from './service';
import { governancePolicies } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let reader: SeededUser;
let catEditor: SeededUser;
let linker: SeededUser;
let ticketEditor: SeededUser;
let stranger: SeededUser;
let incidentSlug: string;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const expectError = (response: Awaited<ReturnType<typeof call>>, status: number, key: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

async function ok<T>(response: Promise<Awaited<ReturnType<typeof call>>>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json() as T;
}

const today = () => new Date().toISOString().slice(0, 10);

const createPolicy = (name: string, extra: object = {}, user = editor) =>
  ok<PolicyDetail>(
    call('POST', '/governance/policy', user, { name, body: `${name}: the rules.`, ...extra }),
    201,
  );

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor' })).id;
  otherOrgId = (await seedOrg(db, { name: 'Prairie' })).id;
  editor = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['CUSTOM_POLICY_VIEW', 'CUSTOM_POLICY_EDIT', 'INCIDENT_VIEW', 'INCIDENT_EDIT'],
  });
  reader = await seedUser(db, { homeOrgId: orgId, permissions: ['CUSTOM_POLICY_VIEW', 'INCIDENT_VIEW'] });
  catEditor = await seedUser(db, { homeOrgId: orgId, permissions: ['CAT_POLICY_VIEW', 'CAT_POLICY_EDIT'] });
  linker = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'POLICY_LINK_VIEW', 'POLICY_LINK_EDIT'],
  });
  ticketEditor = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['INCIDENT_VIEW', 'POLICY_LINK_VIEW', 'POLICY_LINK_EDIT'],
  });
  stranger = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: [
      'CUSTOM_POLICY_VIEW',
      'CUSTOM_POLICY_EDIT',
      'INCIDENT_VIEW',
      'INCIDENT_EDIT',
      'POLICY_LINK_VIEW',
    ],
  });
  incidentSlug = (
    await ok<{ slug: string }>(call('POST', '/incident', editor, { title: 'Phishing wave' }), 201)
  ).slug;
});

afterAll(() => ctx.close());

describe('custom policies', () => {
  it('creates a policy whose first version waits for approval; names are unique per kind in any case', async () => {
    const policy = await createPolicy('Acceptable Use', { ownerId: reader.id, reviewEveryMonths: 6 });
    expect(policy).toMatchObject({
      kind: 'CUSTOM',
      name: 'Acceptable Use',
      ownerId: reader.id,
      ownerName: 'Test User',
      reviewEveryMonths: 6,
      currentVersion: null,
      latestVersionNumber: 1,
      nextReviewOn: null,
      reviewOverdue: false,
    });
    expect(policy.versions).toMatchObject([{ number: 1, approvedOn: null, createdByName: 'Test User' }]);

    expectError(
      await call('POST', '/governance/policy', editor, { name: 'acceptable use', body: 'x' }),
      409,
      'GOVERNANCE_POLICY_NAME_IN_USE',
    );
    expectError(
      await call('POST', '/governance/policy', editor, { name: 'Owned', body: 'x', ownerId: stranger.id }),
      400,
      'GOVERNANCE_INVALID_OWNER',
    );
    expectError(
      await call('POST', '/governance/policy', editor, { name: 'Mapped', body: 'x', catRefs: ['D1'] }),
      400,
      'GOVERNANCE_POLICY_CAT_REF_UNKNOWN',
    );
    const names = (await ok<PolicySummary[]>(call('GET', '/governance/policies', reader))).map((p) => p.name);
    expect(names).toEqual(['Acceptable Use']);
  });

  it('keeps every version; only an approved version is current, with who approved it and when', async () => {
    const policy = await createPolicy('Incident Response');
    const v1 = policy.versions[0]!;
    const approved = await ok<PolicyDetail>(
      call('POST', `/governance/policy/${policy.id}/version/${v1.id}/approve`, editor),
    );
    expect(approved.currentVersion).toMatchObject({ id: v1.id, number: 1 });
    expect(approved.versions[0]).toMatchObject({ approvedByName: 'Test User' });
    expect(approved.nextReviewOn).toBe(addMonths(today(), 12));
    expectError(
      await call('POST', `/governance/policy/${policy.id}/version/${v1.id}/approve`, editor),
      409,
      'GOVERNANCE_POLICY_VERSION_ALREADY_APPROVED',
    );

    const drafted = await ok<PolicyDetail>(
      call('POST', `/governance/policy/${policy.id}/version`, editor, {
        body: 'Incident Response: call the CISO first.',
        changeNote: 'Escalation path',
      }),
      201,
    );
    expect(drafted.latestVersionNumber).toBe(2);
    expect(drafted.currentVersion?.number).toBe(1);
    expect(drafted.versions.map((version) => [version.number, version.body])).toEqual([
      [2, 'Incident Response: call the CISO first.'],
      [1, 'Incident Response: the rules.'],
    ]);
    const v3 = (
      await ok<PolicyDetail>(
        call('POST', `/governance/policy/${policy.id}/version`, editor, { body: 'Third text' }),
        201,
      )
    ).versions[0]!;
    const current = await ok<PolicyDetail>(
      call('POST', `/governance/policy/${policy.id}/version/${v3.id}/approve`, editor),
    );
    expect(current.currentVersion?.number).toBe(3);
    const v2 = drafted.versions[0]!;
    expectError(
      await call('POST', `/governance/policy/${policy.id}/version/${v2.id}/approve`, editor),
      409,
      'GOVERNANCE_POLICY_VERSION_SUPERSEDED',
    );
    const other = await createPolicy('Vendor Management');
    expectError(
      await call('POST', `/governance/policy/${other.id}/version/${v2.id}/approve`, editor),
      404,
      'GOVERNANCE_POLICY_VERSION_NOT_FOUND',
    );
    expectError(
      await call('POST', `/governance/policy/${policy.id}/version`, reader, { body: 'No' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('records reviews on the schedule; an unapproved policy cannot be reviewed', async () => {
    const policy = await createPolicy('Backup', { reviewEveryMonths: 3 });
    expectError(
      await call('POST', `/governance/policy/${policy.id}/review`, editor),
      409,
      'GOVERNANCE_POLICY_NOT_APPROVED',
    );
    await ok(
      call('POST', `/governance/policy/${policy.id}/version/${policy.versions[0]!.id}/approve`, editor),
    );
    const reviewed = await ok<PolicyDetail>(call('POST', `/governance/policy/${policy.id}/review`, editor));
    expect(reviewed).toMatchObject({ lastReviewedOn: today(), nextReviewOn: addMonths(today(), 3) });
    const changed = await ok<PolicyDetail>(
      call('PATCH', `/governance/policy/${policy.id}`, editor, { reviewEveryMonths: 1 }),
    );
    expect(changed.nextReviewOn).toBe(addMonths(today(), 1));
  });

  it('lists who has and has not acknowledged the current version; a new version needs a new acknowledgement', async () => {
    const policy = await createPolicy('Clean Desk');
    const v1 = policy.versions[0]!;
    expectError(
      await call('POST', `/governance/policy/${policy.id}/acknowledge`, reader, { versionId: v1.id }),
      409,
      'GOVERNANCE_POLICY_NOT_APPROVED',
    );
    await ok(call('POST', `/governance/policy/${policy.id}/version/${v1.id}/approve`, editor));
    const acknowledged = await ok<PolicyDetail>(
      call('POST', `/governance/policy/${policy.id}/acknowledge`, reader, { versionId: v1.id }),
    );
    expect(acknowledged).toMatchObject({ acknowledgedByMe: true, acknowledgedCount: 1 });
    // The five people of Harbor; Prairie's are not asked.
    expect(acknowledged.audienceCount).toBe(5);
    const first = await ok<PolicyAcknowledgements>(
      call('GET', `/governance/policy/${policy.id}/acknowledgements`, editor),
    );
    expect(first.version).toEqual({ id: v1.id, number: 1 });
    expect(first.acknowledged.map((ack) => ack.userId)).toEqual([reader.id]);
    expect(first.pending.map((person) => person.userId).sort()).toEqual(
      [editor.id, catEditor.id, linker.id, ticketEditor.id].sort(),
    );
    expect(first).toMatchObject({ acknowledgedTotal: 1, pendingTotal: 4 });
    // A page of each list, the totals kept.
    const paged = (query: string) =>
      ok<PolicyAcknowledgements>(
        call('GET', `/governance/policy/${policy.id}/acknowledgements?${query}`, editor),
      );
    const second = await paged('pageSize=3&pendingPage=2&acknowledgedPage=2');
    expect(second).toMatchObject({ acknowledged: [], acknowledgedTotal: 1, pendingTotal: 4 });
    expect(second.pending.map((person) => person.userId)).toEqual([first.pending[3]!.userId]);
    expect((await paged('pageSize=3')).pending.map((person) => person.userId)).toEqual(
      first.pending.slice(0, 3).map((person) => person.userId),
    );
    expect(
      (await call('GET', `/governance/policy/${policy.id}/acknowledgements?pendingPage=0`, editor))
        .statusCode,
    ).toBe(400);
    // Again: nothing changes.
    await ok(call('POST', `/governance/policy/${policy.id}/acknowledge`, reader, { versionId: v1.id }));
    expect(
      (
        await ok<PolicyAcknowledgements>(
          call('GET', `/governance/policy/${policy.id}/acknowledgements`, editor),
        )
      ).acknowledged[0]!.acknowledgedOn,
    ).toBe(first.acknowledged[0]!.acknowledgedOn);

    const v2 = (
      await ok<PolicyDetail>(
        call('POST', `/governance/policy/${policy.id}/version`, editor, { body: 'v2' }),
        201,
      )
    ).versions[0]!;
    expectError(
      await call('POST', `/governance/policy/${policy.id}/acknowledge`, reader, { versionId: v2.id }),
      409,
      'GOVERNANCE_POLICY_VERSION_NOT_CURRENT',
    );
    await ok(call('POST', `/governance/policy/${policy.id}/version/${v2.id}/approve`, editor));
    const reread = await ok<PolicyDetail>(call('GET', `/governance/policy/${policy.id}`, reader));
    expect(reread).toMatchObject({ acknowledgedByMe: false, acknowledgedCount: 0 });
    expectError(
      await call('POST', `/governance/policy/${policy.id}/acknowledge`, reader, { versionId: v1.id }),
      409,
      'GOVERNANCE_POLICY_VERSION_NOT_CURRENT',
    );
  });

  it('deletes restorably; a restore whose name was taken meanwhile is refused', async () => {
    const policy = await createPolicy('Remote Access');
    expect((await call('DELETE', `/governance/policy/${policy.id}`, editor)).statusCode).toBe(204);
    expectError(
      await call('GET', `/governance/policy/${policy.id}`, editor),
      404,
      'GOVERNANCE_POLICY_NOT_FOUND',
    );
    const taken = await createPolicy('Remote access');
    expectError(
      await call('POST', `/governance/policy/${policy.id}/restore`, editor),
      409,
      'GOVERNANCE_POLICY_NAME_IN_USE',
    );
    await call('DELETE', `/governance/policy/${taken.id}`, editor);
    const deleted = await ok<DeletedPolicy[]>(call('GET', '/governance/policies/deleted', editor));
    expect(deleted.map((item) => item.name)).toEqual(['Remote access', 'Remote Access']);
    expect(deleted[0]!.deletedOn >= deleted[1]!.deletedOn).toBe(true);
    expectError(await call('GET', '/governance/policies/deleted', reader), 403, 'PERMISSION_DENIED');
    const restored = await ok<PolicyDetail>(call('POST', `/governance/policy/${policy.id}/restore`, editor));
    expect(restored.name).toBe('Remote Access');
    const after = await ok<DeletedPolicy[]>(call('GET', '/governance/policies/deleted', editor));
    expect(after.map((item) => item.name)).toEqual(['Remote access']);
    expect(await ok<DeletedPolicy[]>(call('GET', '/governance/cat-policies/deleted', catEditor))).toEqual([]);
    expect(
      await ok<DeletedPolicy[]>(call('GET', '/governance/policies/deleted', stranger, undefined, otherOrgId)),
    ).toEqual([]);
  });

  it("refuses other organisations' policies and keeps the kinds apart", async () => {
    const policy = await createPolicy('Encryption');
    expectError(
      await call('GET', `/governance/policy/${policy.id}`, stranger, undefined, otherOrgId),
      404,
      'GOVERNANCE_POLICY_NOT_FOUND',
    );
    expectError(
      await call('GET', `/governance/cat-policy/${policy.id}`, catEditor),
      404,
      'GOVERNANCE_POLICY_NOT_FOUND',
    );
    expectError(await call('GET', '/governance/policies', catEditor), 403, 'PERMISSION_DENIED');
  });
});

describe('CAT policies', () => {
  it('names FFIEC CAT domains, factors or components', async () => {
    const refs = await ok<{ ref: string; depth: number }[]>(
      call('GET', '/governance/cat-policy-refs', catEditor),
    );
    expect(refs.filter((ref) => ref.depth === 0)).toHaveLength(5);
    expect(refs.filter((ref) => ref.depth === 1)).toHaveLength(15);
    const [domain, factor] = [refs[0]!.ref, refs[1]!.ref];
    const policy = await ok<PolicyDetail>(
      call('POST', '/governance/cat-policy', catEditor, {
        name: 'Cyber Risk Management',
        body: 'Oversight by the board.',
        catRefs: [domain, factor],
      }),
      201,
    );
    expect(policy).toMatchObject({ kind: 'CAT', catRefs: [domain, factor] });
    expectError(
      await call('PATCH', `/governance/cat-policy/${policy.id}`, catEditor, { catRefs: ['GV.OC-01'] }),
      400,
      'GOVERNANCE_POLICY_CAT_REF_UNKNOWN',
    );
    // The same name may exist once per kind.
    await createPolicy('Cyber Risk Management');
    expect(
      (await ok<PolicySummary[]>(call('GET', '/governance/cat-policies', catEditor))).map((p) => p.name),
    ).toEqual(['Cyber Risk Management']);
  });
});

describe('policy links from tickets', () => {
  it('needs the Policy Link permission and the ticket edit permission to change links', async () => {
    const policy = await createPolicy('Phishing Response');
    const path = `/incident/${incidentSlug}/policies`;
    expectError(await call('PUT', path, editor, { policyIds: [policy.id] }), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', path, ticketEditor, { policyIds: [policy.id] }), 403, 'PERMISSION_DENIED');
    const links = await ok<TicketPolicyLink[]>(call('PUT', path, linker, { policyIds: [policy.id] }));
    expect(links).toMatchObject([{ id: policy.id, name: 'Phishing Response', currentVersionNumber: null }]);
    expect(await ok<TicketPolicyLink[]>(call('GET', path, ticketEditor))).toHaveLength(1);
    // Seeing the links needs the Policy Link permission.
    expectError(await call('GET', path, reader), 403, 'PERMISSION_DENIED');

    const foreign = await ok<PolicyDetail>(
      call('POST', '/governance/policy', stranger, { name: 'Theirs', body: 'x' }, otherOrgId),
      201,
    );
    expectError(
      await call('PUT', path, linker, { policyIds: [policy.id, foreign.id] }),
      400,
      'GOVERNANCE_POLICY_LINK_INVALID',
    );
    expect(await ok<TicketPolicyLink[]>(call('GET', path, linker))).toHaveLength(1);
    expect(await ok<TicketPolicyLink[]>(call('PUT', path, linker, { policyIds: [] }))).toEqual([]);
    expectError(await call('GET', path, stranger, undefined, otherOrgId), 404, 'TICKET_NOT_FOUND');
  });
});

describe('governance dashboard', () => {
  it('lists the reviews due of the kinds the requester reads; it needs GOVERNANCE_DASHBOARD_VIEW', async () => {
    const policy = await createPolicy('Password Policy');
    await ok(
      call('POST', `/governance/policy/${policy.id}/version/${policy.versions[0]!.id}/approve`, editor),
    );
    await ctx.database.db
      .update(governancePolicies)
      .set({ lastReviewedOn: '2020-01-01' })
      .where(eq(governancePolicies.id, policy.id));
    const db = ctx.database.db;
    const dashboardViewer = await seedUser(db, {
      homeOrgId: orgId,
      permissions: ['GOVERNANCE_DASHBOARD_VIEW', 'CUSTOM_POLICY_VIEW'],
    });
    const dashboard = await ok<GovernanceDashboard>(call('GET', '/governance/dashboard', dashboardViewer));
    expect(dashboard.periods).toBeNull();
    // Soonest first: reviewed in 2020, it was due in 2021.
    expect(dashboard.reviews![0]).toMatchObject({ name: 'Password Policy', reviewOverdue: true });
    const horizon = addMonths(today(), 2);
    expect(dashboard.reviews!.every((item) => item.nextReviewOn! <= horizon)).toBe(true);
    const only = await seedUser(db, { homeOrgId: orgId, permissions: ['GOVERNANCE_DASHBOARD_VIEW'] });
    expect(await ok<GovernanceDashboard>(call('GET', '/governance/dashboard', only))).toEqual({
      reviews: null,
      periods: null,
    });
    expectError(await call('GET', '/governance/dashboard', reader), 403, 'PERMISSION_DENIED');
    const theirs = await seedUser(db, {
      homeOrgId: otherOrgId,
      permissions: ['GOVERNANCE_DASHBOARD_VIEW', 'CUSTOM_POLICY_VIEW'],
    });
    expect(
      (await ok<GovernanceDashboard>(call('GET', '/governance/dashboard', theirs, undefined, otherOrgId)))
        .reviews,
    ).toEqual([]);
  });
});
