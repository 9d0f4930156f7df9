import { screen, waitFor, within } from '@testing-library/react';
import type {
  AutoEvidenceSource,
  ControlAnswer,
  EvaluationPeriod,
  FrameworkDetail,
  FrameworkSummary,
  LibraryFramework,
  Report,
} from '@vigil/contracts';
import { describe, expect, it, vi } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { triggerFixture } from '../triggers/test-fixtures';
import { FRAMEWORK_EDIT, gov, withAccess } from './test-fixtures';

const summary: FrameworkSummary = {
  id: 'f1',
  name: 'NIST Cybersecurity Framework 2.0',
  version: '1.2.0',
  description: 'CSF 2.0',
  source: 'library',
  libraryKey: 'nist-csf-2.0',
  tiers: ['Partial', 'Risk Informed', 'Repeatable', 'Adaptive'],
  targetTier: null,
  sectionCount: 2,
  controlCount: 2,
  currentPeriod: null,
  createdOn: '2026-01-01T00:00:00.000Z',
};

const detail: FrameworkDetail = {
  ...summary,
  riskProfile: null,
  sections: [
    { id: 's1', parentId: null, ref: 'GV', title: 'GOVERN', description: 'Governance', targetTier: null },
    {
      id: 's2',
      parentId: 's1',
      ref: 'GV.OC',
      title: 'Organizational Context',
      description: 'Context is understood',
      targetTier: null,
    },
  ],
  controls: [
    {
      id: 'c1',
      sectionId: 's2',
      ref: 'GV.OC-01',
      title: 'GV.OC-01',
      statement: 'The organizational mission is understood',
      examples: ['Share the mission'],
      mandatory: true,
      alertable: false,
      triggerId: null,
      triggerName: null,
      triggerDomain: null,
    },
    {
      id: 'c2',
      sectionId: 's2',
      ref: 'GV.OC-02',
      title: 'GV.OC-02',
      statement: 'Stakeholders are understood',
      examples: [],
      mandatory: false,
      alertable: false,
      triggerId: null,
      triggerName: null,
      triggerDomain: null,
    },
  ],
};

const period = (overrides: Partial<EvaluationPeriod> = {}): EvaluationPeriod => ({
  id: 'p1',
  frameworkId: 'f1',
  name: 'FY 2026',
  startsOn: '2026-01-01',
  endsOn: '2026-12-31',
  state: 'IN_PROGRESS',
  extensions: [],
  finalizedOn: null,
  finalizedByName: null,
  tiers: {},
  riskProfile: {},
  answered: 0,
  controlCount: 2,
  createdOn: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const answer = (overrides: Partial<ControlAnswer> = {}): ControlAnswer => ({
  controlId: 'c1',
  status: 'IMPLEMENTED',
  ownerId: null,
  ownerName: null,
  notes: '',
  suggestion: null,
  evidence: [],
  modifiedByName: 'Test User',
  modifiedOn: '2026-02-01T00:00:00.000Z',
  ...overrides,
});

const library: LibraryFramework[] = [
  {
    key: 'nist-csf-2.0',
    name: 'NIST Cybersecurity Framework 2.0',
    version: '1.2.0',
    description: 'CSF',
    publisher: 'NIST',
    sectionCount: 28,
    controlCount: 106,
    adoptedId: null,
  },
  {
    key: 'ffiec-cat',
    name: 'FFIEC Cybersecurity Assessment Tool',
    version: '2017',
    description: 'CAT',
    publisher: 'FFIEC',
    sectionCount: 50,
    controlCount: 150,
    adoptedId: null,
  },
];

const frameworkRoutes = (periods: EvaluationPeriod[], answers: ControlAnswer[] = []) => ({
  [`GET ${gov}/framework/f1`]: { body: detail },
  [`GET ${gov}/framework/f1/periods`]: () => ({ body: periods }),
  [`GET ${gov}/period/p1/answers`]: () => ({ body: answers }),
  [`GET ${base}/user/summary`]: { body: [] },
});

describe('frameworks page', () => {
  it('shows the empty state and adopts a library framework, opening it', async () => {
    let adopted = false;
    const fetchMock = stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([]),
      [`GET ${gov}/frameworks`]: () => ({ body: adopted ? [summary] : [] }),
      [`GET ${gov}/framework-library`]: { body: library },
      [`POST ${gov}/framework-library/nist-csf-2.0/adopt`]: () => {
        adopted = true;
        return { status: 201, body: detail };
      },
    });
    const { user, router } = renderApp(`/governance/frameworks?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No frameworks yet')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Adopt NIST Cybersecurity Framework 2.0' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/governance/frameworks/f1'));
    expect(await screen.findByRole('navigation', { name: 'Sections' })).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/adopt') && init?.method === 'POST'),
    ).toBe(true);
  });

  it('hides adoption and import from viewers', async () => {
    stubApi({
      ...withAccess(['POLICY_FRAMEWORK_VIEW']),
      [`GET ${gov}/frameworks`]: {
        body: [
          { ...summary, currentPeriod: { id: 'p1', name: 'FY 2026', endsOn: '2026-12-31', answered: 1 } },
        ],
      },
      [`GET ${gov}/framework-library`]: { body: library },
    });
    renderApp(`/governance/frameworks?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('FY 2026: 1 of 2 answered')).toBeInTheDocument();
    expect(await screen.findByText('FFIEC Cybersecurity Assessment Tool')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Adopt/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import OSCAL catalog' })).not.toBeInTheDocument();
  });
});

describe('framework page', () => {
  it('answers a control of the current period; N/A is not offered for a mandatory control', async () => {
    let answers: ControlAnswer[] = [];
    const fetchMock = stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([period()], []),
      [`GET ${gov}/period/p1/answers`]: () => ({ body: answers }),
      [`PUT ${gov}/period/p1/control/c1`]: ({ init }) => {
        const body = requestBody(init);
        answers = [answer({ status: body.status as ControlAnswer['status'], notes: String(body.notes) })];
        return { body: answers[0] };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('combobox', { name: 'Status' }));
    expect(await screen.findByRole('option', { name: 'N/A' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await user.click(screen.getByRole('option', { name: 'Implemented' }));
    await user.type(within(drawer).getByRole('textbox', { name: 'Notes' }), 'Approved');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
      expect(requestBody(put?.[1])).toMatchObject({ status: 'IMPLEMENTED', notes: 'Approved' });
    });
    await user.click(within(drawer).getByRole('button', { name: /close/i }));
    const row = (await screen.findByRole('button', { name: 'Open GV.OC-01' })).closest('tr')!;
    expect(await within(row).findByText('Implemented')).toBeInTheDocument();
  });

  it('downloads the evidence report of the elements chosen, refusing none without asking the server', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const fetchMock = stubApi({
      ...withAccess([...FRAMEWORK_EDIT, 'INCIDENT_VIEW']),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/evidence-report`]: { body: {} },
    });
    const reportCalls = () =>
      fetchMock.mock.calls
        .filter(([url]) => String(url).includes('/evidence-report'))
        .map(([url]) => String(url));
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Evidence report (PDF)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Evidence report: FY 2026' });
    // Only the elements the user may read are offered, all chosen.
    for (const name of ['Framework status', 'Automatic evidence', 'Incident statistics']) {
      expect(within(dialog).getByRole('checkbox', { name })).toBeChecked();
    }
    expect(within(dialog).queryByRole('checkbox', { name: 'Risk register summary' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: 'Policy review status' })).not.toBeInTheDocument();
    for (const name of ['Framework status', 'Automatic evidence', 'Incident statistics']) {
      await user.click(within(dialog).getByRole('checkbox', { name }));
    }
    await user.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    expect(
      await within(dialog).findByText('Choose at least one element for the evidence report.'),
    ).toBeInTheDocument();
    expect(reportCalls()).toEqual([]);

    await user.click(within(dialog).getByRole('checkbox', { name: 'Incident statistics' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Framework status' }));
    await user.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(reportCalls()).toEqual([
      expect.stringMatching(/evidence-report\?elements=FRAMEWORK_STATUS,INCIDENT_STATISTICS$/),
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    click.mockRestore();
  });

  it('finalizes after confirming, then shows the answers read-only', async () => {
    let periods = [period({ answered: 1 })];
    stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([], [answer()]),
      [`GET ${gov}/framework/f1/periods`]: () => ({ body: periods }),
      [`POST ${gov}/period/p1/finalize`]: () => {
        periods = [period({ state: 'FINALIZED', answered: 1, finalizedByName: 'Test User' })];
        return { body: periods[0] };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Finalize' }));
    const confirm = await screen.findByRole('dialog', { name: 'Finalize evaluation period' });
    expect(within(confirm).getByText(/This is permanent/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Finalize' }));
    expect(await screen.findByText('Finalized')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Finalize' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('FY 2026 is finalized: its answers are read-only.')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('carries CAT answers over as suggestions, reviewed and saved one by one', async () => {
    let answers: ControlAnswer[] = [];
    const suggestion = answer({
      controlId: 'c2',
      status: null,
      suggestion: { status: 'PARTIALLY_IMPLEMENTED', from: 'CAT 2025 (FFIEC CAT: D1.G.IT.B)' },
      modifiedByName: null,
      modifiedOn: null,
    });
    const catSummary = {
      ...summary,
      id: 'f2',
      name: 'FFIEC Cybersecurity Assessment Tool',
      libraryKey: 'ffiec-cat',
    };
    const fetchMock = stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/answers`]: () => ({ body: answers }),
      [`GET ${gov}/frameworks`]: { body: [summary, catSummary] },
      [`GET ${gov}/framework/f2/periods`]: {
        body: [period({ id: 'p9', frameworkId: 'f2', name: 'CAT 2025', state: 'FINALIZED' })],
      },
      [`POST ${gov}/period/p1/carry-over`]: () => {
        answers = [suggestion];
        return { body: { suggested: 1, alreadyAnswered: 0 } };
      },
      [`PUT ${gov}/period/p1/control/c2`]: ({ init }) => {
        answers = [answer({ controlId: 'c2', status: requestBody(init).status as ControlAnswer['status'] })];
        return { body: answers[0] };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Carry over answers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carry answers over to FY 2026' });
    await user.click(within(dialog).getByRole('combobox', { name: 'From framework' }));
    await user.click(await screen.findByRole('option', { name: 'FFIEC Cybersecurity Assessment Tool' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'From evaluation period' }));
    await user.click(await screen.findByRole('option', { name: 'CAT 2025' }));
    await user.click(within(dialog).getByRole('button', { name: 'Carry over' }));
    expect(await within(dialog).findByText(/1 suggestion to review/)).toBeInTheDocument();
    const closes = within(dialog).getAllByRole('button', { name: /close/i });
    await user.click(closes.at(-1)!);

    await user.click(await screen.findByRole('switch', { name: 'Only suggestions to review (1)' }));
    expect(screen.queryByRole('button', { name: 'Open GV.OC-01' })).not.toBeInTheDocument();
    const row = screen.getByRole('button', { name: 'Open GV.OC-02' }).closest('tr')!;
    expect(within(row).getByText('Not answered')).toBeInTheDocument();
    expect(within(row).getByText('Suggested: Partially implemented')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Open GV.OC-02' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText(/Carried over from CAT 2025/)).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Use this answer' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
      expect(requestBody(put?.[1])).toMatchObject({ status: 'PARTIALLY_IMPLEMENTED' });
    });
  });

  it("rates the CAT's inherent risk profile and the assessed tier of the period", async () => {
    const cat: FrameworkDetail = {
      ...detail,
      name: 'FFIEC Cybersecurity Assessment Tool',
      libraryKey: 'ffiec-cat',
      tiers: ['Baseline', 'Evolving', 'Intermediate', 'Advanced', 'Innovative'],
      riskProfile: {
        levels: ['Least', 'Minimal', 'Moderate', 'Significant', 'Most'],
        categories: [
          { ref: 'TC', title: 'Technologies and Connection Types' },
          { ref: 'ET', title: 'External Threats' },
        ],
      },
    };
    const fetchMock = stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([period({ riskProfile: { TC: 'Minimal' } })]),
      [`GET ${gov}/framework/f1`]: { body: cat },
      [`PUT ${gov}/period/p1/risk-profile`]: ({ init }) => ({
        body: period({ riskProfile: (requestBody(init) as { levels: Record<string, string> }).levels }),
      }),
      [`PUT ${gov}/period/p1/tier`]: { body: period({ tiers: { framework: 'Evolving' } }) },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    const profile = await screen.findByRole('region', { name: 'Inherent risk profile' });
    expect(within(profile).getByRole('combobox', { name: 'Technologies and Connection Types' })).toHaveValue(
      'Minimal',
    );
    await user.click(within(profile).getByRole('combobox', { name: 'External Threats' }));
    await user.click(await screen.findByRole('option', { name: 'Significant' }));
    await waitFor(() => {
      const put = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/risk-profile'));
      expect(requestBody(put?.[1])).toEqual({ levels: { TC: 'Minimal', ET: 'Significant' } });
    });
    await user.click(screen.getByRole('combobox', { name: 'Assessed tier (FY 2026)' }));
    await user.click(await screen.findByRole('option', { name: 'Evolving' }));
    await waitFor(() => {
      const put = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/tier'));
      expect(requestBody(put?.[1])).toEqual({ sectionId: null, tier: 'Evolving' });
    });
  });

  it('shows a refusal of the server beside the new period form', async () => {
    stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([]),
      [`POST ${gov}/framework/f1/period`]: { status: 400, body: apiError('GOVERNANCE_PERIOD_INVALID_DATES') },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText(/No evaluation period yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New evaluation period' }));
    const dialog = await screen.findByRole('dialog', { name: 'New evaluation period' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'FY');
    await user.click(within(dialog).getByRole('button', { name: 'Start period' }));
    expect(
      await within(dialog).findByText('The start of an evaluation period must be before its end.'),
    ).toBeInTheDocument();
  });
});

describe('report evidence', () => {
  const report = (id: string, state: Report['state'], name: string): Report => ({
    id,
    templateId: 'tpl1',
    scheduleId: null,
    name,
    range: '7D',
    begin: '2026-02-01T00:00:00.000Z',
    end: '2026-02-08T00:00:00.000Z',
    state,
    errorKey: null,
    size: state === 'COMPLETED' ? 2048 : null,
    requestedByName: 'Test User',
    requestedOn: '2026-02-08T00:00:00.000Z',
    completedOn: state === 'COMPLETED' ? '2026-02-08T00:01:00.000Z' : null,
  });

  it('attaches a completed report of the reports area and downloads its PDF', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    let answers: ControlAnswer[] = [];
    const attached = answer({
      evidence: [
        {
          id: 'e1',
          kind: 'report',
          name: 'Weekly logins (2026-02-01 to 2026-02-08)',
          url: null,
          ticket: null,
          contentType: 'application/pdf',
          size: 2048,
          createdByName: 'Test User',
          createdOn: '2026-02-09T00:00:00.000Z',
        },
      ],
    });
    const fetchMock = stubApi({
      ...withAccess([...FRAMEWORK_EDIT, 'REPORT_VIEW']),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/answers`]: () => ({ body: answers }),
      [`GET ${gov}/period/p1/auto-evidence`]: { body: [] },
      [`GET ${base}/reports`]: {
        body: {
          items: [report('r1', 'COMPLETED', 'Weekly logins'), report('r2', 'BUILDING', 'Still building')],
          total: 2,
        },
      },
      [`POST ${gov}/period/p1/control/c1/evidence`]: () => {
        answers = [attached];
        return { status: 201, body: attached };
      },
      [`GET ${gov}/period/p1/evidence/e1`]: { body: {} },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(await within(drawer).findByRole('combobox', { name: 'Completed report' }));
    expect(screen.queryByRole('option', { name: /Still building/ })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Weekly logins (2026-02-01 to 2026-02-08)' }));
    await user.click(within(drawer).getByRole('button', { name: 'Attach report' }));
    await waitFor(() => {
      const post = fetchMock.mock.calls.find(
        ([url, init]) => String(url).endsWith('/control/c1/evidence') && init?.method === 'POST',
      );
      expect(requestBody(post?.[1])).toEqual({ kind: 'report', reportId: 'r1' });
    });
    await user.click(
      await within(drawer).findByRole('button', { name: 'Weekly logins (2026-02-01 to 2026-02-08)' }),
    );
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/period/p1/evidence/e1'))).toBe(true);
    click.mockRestore();
  });

  it('offers no report without the report permission', async () => {
    stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/auto-evidence`]: { body: [] },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByRole('button', { name: 'Add link' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Attach report' })).not.toBeInTheDocument();
  });
});

describe('automatic evidence', () => {
  const source = (overrides: Partial<AutoEvidenceSource> = {}): AutoEvidenceSource => ({
    id: 'a1',
    controlId: 'c1',
    kind: 'TRIGGER_ACTIVE',
    triggerId: 't1',
    triggerName: 'Privileged logins',
    window: 24,
    threshold: null,
    history: [
      {
        state: 'FAILING',
        reason: 'Privileged logins has not run in the last 24 h.',
        figures: { runs: 0 },
        evaluatedOn: '2026-03-01T10:00:00.000Z',
      },
    ],
    historyTotal: 1,
    ...overrides,
  });

  it('pages through the evaluations older than the latest ones', async () => {
    const evaluation = (day: number) => ({
      state: 'PASSING' as const,
      reason: `Run of day ${day}.`,
      figures: {},
      evaluatedOn: `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    });
    const days = Array.from({ length: 12 }, (_, index) => 12 - index);
    const fetchMock = stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/auto-evidence`]: {
        body: [source({ history: days.slice(0, 10).map(evaluation), historyTotal: 12 })],
      },
      [`GET ${gov}/period/p1/auto-evidence/a1/history`]: ({ url }) => {
        const page = Number(new URL(url, 'http://localhost').searchParams.get('pageNumber'));
        return { body: { items: days.slice((page - 1) * 10, page * 10).map(evaluation), total: 12 } };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    const earlier = await within(drawer).findByRole('list', { name: 'Earlier evaluations' });
    expect(within(earlier).getAllByRole('listitem')).toHaveLength(9);
    expect(within(drawer).queryByText(/Run of day 1\./)).not.toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'All 12 evaluations' }));
    const all = await within(drawer).findByRole('list', { name: 'All evaluations' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(10);
    await user.click(within(drawer).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(within(drawer).getByText(/Run of day 1\./)).toBeInTheDocument());
    expect(within(drawer).getByText(/Run of day 2\./)).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([url]) =>
        String(url).includes('/auto-evidence/a1/history?pageSize=10&pageNumber=2'),
      ),
    ).toBe(true);
    await user.click(within(drawer).getByRole('button', { name: 'Latest evaluations only' }));
    expect(await within(drawer).findByRole('list', { name: 'Earlier evaluations' })).toBeInTheDocument();
  });

  it('adds a source, evaluates it now and removes it after confirming', async () => {
    let sources: AutoEvidenceSource[] = [];
    const fetchMock = stubApi({
      ...withAccess([...FRAMEWORK_EDIT, 'TRIGGER_VIEW']),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/auto-evidence`]: () => ({ body: sources }),
      [`GET ${base}/triggers`]: {
        body: { items: [triggerFixture({ id: 't1', name: 'Privileged logins' })], total: 1 },
      },
      [`POST ${gov}/period/p1/control/c1/auto-evidence`]: () => {
        sources = [source()];
        return { status: 201, body: sources[0] };
      },
      [`POST ${gov}/period/p1/auto-evidence/a1/evaluate`]: () => {
        const passing = {
          state: 'PASSING' as const,
          reason: 'Privileged logins is active and ran 6 times without error in the last 24 h.',
          figures: { runs: 6 },
          evaluatedOn: '2026-03-02T10:00:00.000Z',
        };
        sources = [source({ history: [passing, ...source().history] })];
        return { body: sources[0] };
      },
      [`DELETE ${gov}/period/p1/auto-evidence/a1`]: () => {
        sources = [];
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText(/No automatic evidence yet/)).toBeInTheDocument();

    await user.click(within(drawer).getByRole('combobox', { name: 'Trigger' }));
    await user.click(await screen.findByRole('option', { name: 'Privileged logins' }));
    await user.click(within(drawer).getByRole('button', { name: 'Add source' }));
    await waitFor(() => {
      const post = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/control/c1/auto-evidence'));
      expect(requestBody(post?.[1])).toEqual({
        kind: 'TRIGGER_ACTIVE',
        triggerId: 't1',
        window: 24,
        threshold: null,
      });
    });
    expect(
      await within(drawer).findByText('Privileged logins has not run in the last 24 h.'),
    ).toBeInTheDocument();
    expect(within(drawer).getByText('Failing')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Evaluate now' }));
    expect(await within(drawer).findByText('Passing')).toBeInTheDocument();
    expect(within(drawer).getByRole('list', { name: 'Earlier evaluations' })).toHaveTextContent(
      'Failing · Privileged logins has not run',
    );

    await user.click(within(drawer).getByRole('button', { name: /^Remove Privileged logins active/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove automatic evidence' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(drawer).findByText(/No automatic evidence yet/)).toBeInTheDocument();
  });

  it('shows why a source could not be added and when the list failed to load', async () => {
    stubApi({
      ...withAccess(FRAMEWORK_EDIT),
      ...frameworkRoutes([period()]),
      [`GET ${gov}/period/p1/auto-evidence`]: {
        status: 404,
        body: apiError('GOVERNANCE_PERIOD_NOT_FOUND', 'NotFoundException'),
      },
      [`POST ${gov}/period/p1/control/c1/auto-evidence`]: {
        status: 400,
        body: { ...apiError('GOVERNANCE_AUTO_EVIDENCE_TRIGGER_NOT_FOUND'), field: 'triggerId' },
      },
    });
    const { user } = renderApp(`/governance/frameworks/f1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open GV.OC-01' }));
    const drawer = await screen.findByRole('dialog');
    expect(
      await within(drawer).findByText('The automatic evidence could not be loaded.'),
    ).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Add source' }));
    expect(await within(drawer).findByText('Choose an active trigger of the organisation.')).toHaveAttribute(
      'role',
      'alert',
    );
  });
});
