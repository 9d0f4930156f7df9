import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVIDENCE_REPORT_ELEMENTS,
  type EvaluationPeriod,
  type FrameworkDetail,
  type PolicyDetail,
} from '@vigil/contracts';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

let ctx: TestContext;
let orgId: string;
let officer: SeededUser;
let auditor: SeededUser;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

async function ok<T>(response: Promise<Awaited<ReturnType<typeof call>>>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json() as T;
}

async function pdfText(bytes: Uint8Array) {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(document, { mergePages: true })).text;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor Savings' })).id;
  officer = await seedUser(db, {
    homeOrgId: orgId,
    permissions: [
      'POLICY_FRAMEWORK_VIEW',
      'POLICY_FRAMEWORK_EDIT',
      'CUSTOM_POLICY_VIEW',
      'CUSTOM_POLICY_EDIT',
      'INCIDENT_VIEW',
      'INCIDENT_EDIT',
    ],
  });
  auditor = await seedUser(db, { homeOrgId: orgId, permissions: ['POLICY_FRAMEWORK_VIEW'] });
});

afterAll(() => ctx.close());

const reportOf = (periodId: string, elements: readonly string[] = EVIDENCE_REPORT_ELEMENTS) =>
  `/governance/period/${periodId}/evidence-report?elements=${elements.join(',')}`;

describe('evidence report', () => {
  it("combines the period's framework status, incidents and policy reviews, each only with its permission", async () => {
    const framework = await ok<FrameworkDetail>(
      call('POST', '/governance/framework-library/nist-csf-2.0/adopt', officer),
      201,
    );
    const year = new Date().getUTCFullYear();
    const period = await ok<EvaluationPeriod>(
      call('POST', `/governance/framework/${framework.id}/period`, officer, {
        name: `FY ${year}`,
        startsOn: `${year}-01-01`,
        endsOn: `${year}-12-31`,
      }),
      201,
    );
    const [first, second] = framework.controls;
    await ok(
      call('PUT', `/governance/period/${period.id}/control/${first!.id}`, officer, { status: 'IMPLEMENTED' }),
    );
    await ok(
      call('PUT', `/governance/period/${period.id}/control/${second!.id}`, officer, {
        status: 'NOT_IMPLEMENTED',
        notes: 'Budget asked for next year',
      }),
    );
    await ok(
      call('POST', `/governance/period/${period.id}/control/${first!.id}/evidence`, officer, {
        kind: 'link',
        name: 'Board minutes',
        url: 'https://intranet.example.com/minutes',
      }),
      201,
    );
    await ok(
      call('POST', `/governance/period/${period.id}/control/${first!.id}/auto-evidence`, officer, {
        kind: 'REVIEWS_DONE',
        window: 30,
      }),
      201,
    );
    await ok(call('POST', '/incident', officer, { title: 'Card skimming' }), 201);
    await ok(call('POST', '/incident', officer, { title: 'Phishing' }), 201);
    const policy = await ok<PolicyDetail>(
      call('POST', '/governance/policy', officer, { name: 'Information Security', body: 'Text' }),
      201,
    );
    await ok(
      call('POST', `/governance/policy/${policy.id}/version/${policy.versions[0]!.id}/approve`, officer),
    );

    const response = await call('GET', reportOf(period.id), officer);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('attachment');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Evidence report');
    expect(text).toContain(`NIST Cybersecurity Framework 2.0: FY ${year}`);
    expect(text).toContain('Harbor Savings');
    expect(text).toContain('2 of 106 controls answered');
    expect(text).toContain('Evidence items: 1');
    expect(text).toContain(`${second!.ref}`);
    expect(text).toContain('Budget asked for next year');
    const flowing = text.replace(/\s+/g, ' ');
    expect(flowing).toContain(`Automatic evidence Control Source State Reason Evaluated ${first!.ref}`);
    expect(flowing).toContain('No risk, control or policy review late UNKNOWN No review schedule is set.');
    expect(text).toContain('2 incidents opened in the period');
    expect(text).toContain('The risk register is not available to the requester.');
    expect(text).toContain('Information Security');
    expect(text).toContain('1 policy; 0 overdue for review.');

    // A framework-only reader gets the framework, not the incidents nor the policies.
    const limited = await pdfText((await call('GET', reportOf(period.id), auditor)).rawPayload);
    expect(limited).toContain('2 of 106 controls answered');
    expect(limited).toContain('Incidents are not available to the requester.');
    expect(limited).toContain('No policies are available to the requester.');
    expect(limited).not.toContain('Information Security');

    const stranger = await call(
      'GET',
      reportOf(period.id),
      officer,
      undefined,
      (await seedOrg(ctx.database.db, { name: 'Other' })).id,
    );
    expect(stranger.statusCode).toBe(403);
  });

  it('holds only the elements chosen, and refuses a report of none', async () => {
    const framework = await ok<FrameworkDetail>(
      call('POST', '/governance/framework-library/cisa-cpg-2.0/adopt', officer),
      201,
    );
    const period = await ok<EvaluationPeriod>(
      call('POST', `/governance/framework/${framework.id}/period`, officer, {
        name: 'Chosen parts',
        startsOn: '2026-01-01',
        endsOn: '2026-12-31',
      }),
      201,
    );
    for (const path of [`/governance/period/${period.id}/evidence-report`, reportOf(period.id, [])]) {
      const refused = await call('GET', path, officer);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        key: 'GOVERNANCE_EVIDENCE_REPORT_NO_ELEMENTS',
        field: 'elements',
      });
    }
    expect((await call('GET', reportOf(period.id, ['EVERYTHING']), officer)).statusCode).toBe(400);

    const incidents = await pdfText(
      (await call('GET', reportOf(period.id, ['INCIDENT_STATISTICS', 'AUTO_EVIDENCE']), officer)).rawPayload,
    );
    expect(incidents).toContain('Incident statistics');
    expect(incidents).toContain('No automatic evidence is set up in the period.');
    expect(incidents).not.toContain('Framework status');
    expect(incidents).not.toContain('Review status');
    expect(incidents).not.toContain('Risk register');

    // Repeated parameters work as well; an element without its permission stays a note, as before.
    const limited = await pdfText(
      (
        await call(
          'GET',
          `/governance/period/${period.id}/evidence-report?elements=FRAMEWORK_STATUS&elements=INCIDENT_STATISTICS`,
          auditor,
        )
      ).rawPayload,
    );
    expect(limited).toContain('Framework status');
    expect(limited).toContain('Incidents are not available to the requester.');
    expect(limited).not.toContain('Review status');
  });
});
