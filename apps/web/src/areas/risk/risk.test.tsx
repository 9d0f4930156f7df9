import { screen, waitFor, within } from '@testing-library/react';
import type {
  AssessmentDetail,
  ControlDetail,
  InventoryDetail,
  ProductSku,
  Risk,
  RiskDetail,
} from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

// The risk pages are long forms: rendering and filling them takes a while under jsdom.
const SLOW = 60_000;

/** The search field of a multi-select, not the hidden input beside it that carries its value. */
const searchField = (container: HTMLElement, label: string) =>
  within(container)
    .getAllByLabelText(label)
    .find((element) => element.getAttribute('type') !== 'hidden')!;

const withRisk = (skus: ProductSku[], permissions = ['RISK_VIEW', 'RISK_EDIT'], isProvider = false) => ({
  ...signedInRoutes,
  'GET /api/orgs': {
    body: {
      homeOrgId: HOME_ORG_ID,
      orgs: [{ id: HOME_ORG_ID, name: 'First Harbor', productSkus: skus, isHome: true }],
    },
  },
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'First Harbor', {
      org: { productSkus: skus, isProvider },
      permissions: ['DASHBOARD_VIEW', ...permissions],
    }),
  ),
  [`GET ${base}/user/summary`]: { body: [] },
  [`GET ${base}/risk-lists`]: { body: [] },
  [`GET ${base}/tags`]: { body: { items: [], total: 0 } },
  [`GET ${base}/controls`]: { body: { items: [], total: 0 } },
  [`GET ${base}/inventory`]: { body: { items: [], total: 0 } },
  [`GET ${base}/risks`]: { body: { items: [], total: 0 } },
  [`GET ${base}/risk-assessments`]: { body: { items: [], total: 0 } },
});

const score = (value: string | null = null, recommended: string | null = null) => ({
  value,
  recommended,
  overrideReason: null,
});

const risk = (overrides: Partial<Risk> = {}): Risk => ({
  id: '11111111-1111-4111-8111-111111111111',
  publicId: 'R-0001',
  name: 'Phishing of staff',
  state: 'ACTIVE',
  library: false,
  copiedFromId: null,
  definition: '',
  keyRisk: false,
  showInPreview: false,
  riskEventType: null,
  riskEventSubType: null,
  causeCategory: null,
  causeSubType: null,
  consequence: null,
  consequenceSubType: null,
  ermConnections: [],
  response: null,
  mitigationPlan: '',
  businessOwner: null,
  modules: ['INFORMATION_SECURITY'],
  exception: false,
  dueDate: null,
  timeZoneId: null,
  dueDateStatus: null,
  potentialImpact: score() as Risk['potentialImpact'],
  likelihood: null,
  inherentRisk: score() as Risk['inherentRisk'],
  controlStrength: score() as Risk['controlStrength'],
  residualRisk: score() as Risk['residualRisk'],
  riskDirection: null,
  revisitScores: null,
  version: 2,
  createdOn: '2026-11-01T09:00:00.000Z',
  modifiedOn: '2026-11-01T09:00:00.000Z',
  ...overrides,
});

const detail = (overrides: Partial<RiskDetail> = {}): RiskDetail => ({
  ...risk(),
  businessUnits: [],
  watchers: [],
  audits: [],
  policies: [],
  tags: [],
  controls: [],
  relatedRisks: [],
  systems: [],
  lineItems: [],
  incidents: [],
  inRegister: false,
  history: [
    { id: 'h1', kind: 'CREATED', actorName: 'Ada Lovelace', details: {}, at: '2026-11-01T09:00:00.000Z' },
  ],
  ...overrides,
});

describe('the risk landing page', { timeout: SLOW }, () => {
  it('leads to the assessments with a risk product', async () => {
    stubApi(withRisk(['RISK_INFORMATION_SECURITY']));
    renderApp(`/risk?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Assessments' })).toBeInTheDocument();
    expect(await screen.findByText('No assessments yet')).toBeInTheDocument();
  });

  it('leads to the risk library without one', async () => {
    stubApi({
      ...withRisk([]),
      [`GET ${base}/risks/library`]: {
        body: { items: [{ ...risk({ publicId: 'LR-0001', library: true }), inRegister: false }], total: 1 },
      },
    });
    renderApp(`/risk?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Risk library' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'LR-0001' })).toBeInTheDocument();
    // Every module is offered in the library; copying needs a product.
    expect(screen.getByRole('button', { name: 'Third-Party Risk' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Copy to register/ })).not.toBeInTheDocument();
  });
});

describe('the risk register', { timeout: SLOW }, () => {
  it('toggles modules with the badge selector and filters exceptions', async () => {
    const fetchMock = stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY', 'RISK_THIRD_PARTY_RISK']),
      [`GET ${base}/risks`]: { body: { items: [risk()], total: 1 } },
    });
    const { user } = renderApp(`/risk/risks/register?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('link', { name: 'R-0001' })).toBeInTheDocument();
    const calls = () =>
      fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(`${base}/risks?`));
    expect(decodeURIComponent(calls()[0]!)).toContain('modules=INFORMATION_SECURITY,THIRD_PARTY_RISK');
    expect(screen.queryByRole('button', { name: 'Systems & Applications' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Third-Party Risk' }));
    await waitFor(() =>
      expect(decodeURIComponent(calls().at(-1)!)).toContain('modules=INFORMATION_SECURITY&'),
    );
    expect(screen.getByRole('button', { name: 'Third-Party Risk' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('combobox', { name: 'Exceptions' }));
    await user.click(await screen.findByRole('option', { name: 'Only exceptions' }));
    await waitFor(() => expect(calls().at(-1)).toContain('exceptions=ONLY_EXCEPTIONS'));
  });
});

describe('the risk editor', { timeout: SLOW }, () => {
  // The editor is a long form: typing into it takes a while under jsdom.
  it(
    'recommends scores as the server does and needs a reason to override one',
    { timeout: 60_000 },
    async () => {
      const fetchMock = stubApi({
        ...withRisk(['RISK_INFORMATION_SECURITY']),
        [`GET ${base}/risks`]: { body: { items: [], total: 0 } },
        [`POST ${base}/risk`]: { status: 201, body: detail() },
        [`GET ${base}/risk/R-0001`]: { body: detail() },
      });
      const { user } = renderApp(`/risk/risks/register/new?orgId=${HOME_ORG_ID}`);
      await user.click(await screen.findByRole('textbox', { name: 'Name' }));
      await user.paste('Phishing of staff');
      // The register's own fields, which library risks lack.
      for (const label of ['Owner', 'Due date', 'Exception']) {
        expect(screen.getAllByLabelText(label).length).toBeGreaterThan(0);
      }
      await user.click(screen.getByRole('combobox', { name: 'Potential impact' }));
      await user.click(await screen.findByRole('option', { name: 'High' }));
      await user.click(screen.getByRole('combobox', { name: 'Likelihood' }));
      await user.click(await screen.findByRole('option', { name: 'Moderate' }));
      expect(screen.getByText('Recommended: High')).toBeInTheDocument();
      expect(
        screen.getByText('No recommendation: it needs inherent risk and control strength.'),
      ).toBeInTheDocument();

      const inherent = screen.getByRole('combobox', { name: 'Inherent risk' });
      await user.click(inherent);
      await user.click(await screen.findByRole('option', { name: 'Very High' }));
      await user.click(screen.getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('Give a reason for overriding the recommendation.')).toBeInTheDocument();
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
      await user.click(screen.getByRole('textbox', { name: /Reason for overriding/ }));
      await user.paste('Board appetite');
      await user.click(screen.getByRole('button', { name: 'Create' }));
      await waitFor(() =>
        expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true),
      );
      const post = fetchMock.mock.calls.find(
        ([url, init]) => url === `${base}/risk` && init?.method === 'POST',
      );
      expect(requestBody(post?.[1])).toMatchObject({
        name: 'Phishing of staff',
        modules: ['INFORMATION_SECURITY'],
        scores: {
          potentialImpact: { value: 'HIGH' },
          likelihood: 'MODERATE',
          inherentRisk: { value: 'EXTREME', overrideReason: 'Board appetite' },
        },
      });
    },
  );

  it('lists the links a deactivation removes and confirms it', async () => {
    let current = detail({
      relatedRisks: [
        {
          id: '22222222-2222-4222-8222-222222222222',
          publicId: 'R-0002',
          name: 'Vendor breach',
          state: 'ACTIVE',
        },
      ],
    });
    const fetchMock = stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risks`]: { body: { items: [], total: 0 } },
      [`GET ${base}/risk/R-0001`]: () => ({ body: current }),
      [`GET ${base}/risk/${current.id}/review-schedule`]: { body: null },
      [`PUT ${base}/risk/${current.id}/state`]: () => {
        current = detail({ state: 'INACTIVE', version: 3 });
        return { body: current };
      },
    });
    const { user } = renderApp(`/risk/risks/register/R-0001?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate' });
    expect(within(dialog).getByText('R-0002 Vendor breach')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate and remove links' }));
    expect(await screen.findByRole('button', { name: 'Activate' })).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(requestBody(put?.[1])).toEqual({ version: 2, state: 'INACTIVE', confirmRemoveLinks: true });
  });
});

const inventoryItem = (overrides: Partial<InventoryDetail> = {}): InventoryDetail => ({
  id: '44444444-4444-4444-8444-444444444444',
  publicId: 'S-0001',
  kind: 'VENDOR',
  name: 'Card processor',
  library: false,
  copiedFromId: null,
  definition: '',
  vendor: null,
  goLiveDate: null,
  versionNumber: '',
  dataLocation: '',
  systemType: null,
  businessOwner: null,
  systemAdmin: null,
  assetType: null,
  dataSensitivity: 'HIGH',
  businessCriticality: 'LOW',
  inherentRisk: 'HIGH',
  dueDiligenceStrength: null,
  residualRisk: null,
  unanswered: 8,
  riskCount: 0,
  version: 1,
  createdOn: '2026-11-01T09:00:00.000Z',
  modifiedOn: '2026-11-01T09:00:00.000Z',
  answers: {},
  authorizedPeople: [],
  userAdministrators: [],
  lineItems: [],
  risks: [],
  inRegister: false,
  ...overrides,
});

describe('the potential impact of a risk', { timeout: SLOW }, () => {
  it('is recommended from the linked systems and needs a reason to differ', { timeout: 60_000 }, async () => {
    const system = inventoryItem();
    const fetchMock = stubApi({
      ...withRisk(['RISK_THIRD_PARTY_RISK']),
      [`GET ${base}/inventory`]: { body: { items: [system], total: 1 } },
      [`GET ${base}/inventory-item/${system.id}`]: { body: system },
      [`POST ${base}/risk`]: { status: 201, body: detail() },
      [`GET ${base}/risk/R-0001`]: { body: detail() },
    });
    const { user } = renderApp(`/risk/risks/register/new?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('textbox', { name: 'Name' }));
    await user.paste('Card data leak');
    expect(
      screen.getByText(
        'No recommendation: it needs linked systems with data sensitivity and business criticality.',
      ),
    ).toBeInTheDocument();
    await user.click(searchField(document.body, 'Systems, applications and vendors'));
    await user.click(await screen.findByRole('option', { name: 'S-0001 Card processor' }));
    expect(await screen.findByText('Recommended: High')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Potential impact' }));
    await user.click(await screen.findByRole('option', { name: 'Low' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Give a reason for overriding the recommendation.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('textbox', { name: /Reason for overriding/ }));
    await user.paste('Only test cards');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/risk` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toMatchObject({
      systemIds: [system.id],
      scores: { potentialImpact: { value: 'LOW', overrideReason: 'Only test cards' } },
    });
  });
});

describe('a copied risk', { timeout: SLOW }, () => {
  it('shows its due-date status and resyncs with the library once confirmed', async () => {
    let current = detail({
      copiedFromId: '55555555-5555-4555-8555-555555555555',
      dueDate: '2026-12-01',
      timeZoneId: 'Europe/London',
      dueDateStatus: 'ALMOST_DUE',
    });
    const fetchMock = stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risk/R-0001`]: () => ({ body: current }),
      [`GET ${base}/risk/${current.id}/review-schedule`]: { body: null },
      [`POST ${base}/risk/${current.id}/resync`]: () => {
        current = { ...current, definition: 'The library definition', version: 3 };
        return { body: current };
      },
    });
    const { user } = renderApp(`/risk/risks/register/R-0001?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Due 2026-12-01: Almost due')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resync with library' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resync with library' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/resync'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Resync with library' }));
    const again = await screen.findByRole('dialog', { name: 'Resync with library' });
    await user.click(within(again).getByRole('button', { name: 'Resync with library' }));
    expect(await screen.findByText('R-0001 now has the library content.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Definition' })).toHaveValue('The library definition');
    const post = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/resync'))!;
    expect(requestBody(post[1])).toEqual({ version: 2 });
  });

  it('offers no resync for a risk made in the register', async () => {
    stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risk/R-0001`]: { body: detail() },
      [`GET ${base}/risk/${detail().id}/review-schedule`]: { body: null },
    });
    renderApp(`/risk/risks/register/R-0001?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('button', { name: 'Deactivate' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resync with library' })).not.toBeInTheDocument();
    expect(screen.queryByText(/^Due \d/)).not.toBeInTheDocument();
  });
});

describe('the review schedule of a risk', { timeout: SLOW }, () => {
  it('shows a late review and marks it reviewed', async () => {
    const id = detail().id;
    let schedule = {
      id: 's1',
      every: 1,
      unit: 'year',
      nextReview: '2026-10-01',
      lastReviewed: null as string | null,
      watchers: [
        { id: 'u1', name: 'Nora Quinn' },
        { id: 'u2', name: 'Omar Reyes' },
      ],
      status: 'LATE',
      lastReminder: {
        stage: 'LATE',
        cycle: '2026-10-01',
        sentOn: '2026-10-02T06:00:00.000Z',
        recipients: 2,
        openTask: { id: 't1', slug: 'TASK-7', title: 'Review risk R-0001 Card skimming' } as {
          id: string;
          slug: string;
          title: string;
        } | null,
      },
    };
    const fetchMock = stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risks`]: { body: { items: [], total: 0 } },
      [`GET ${base}/risk/R-0001`]: { body: detail() },
      [`GET ${base}/risk/${id}`]: { body: detail() },
      [`GET ${base}/risk/${id}/review-schedule`]: () => ({ body: schedule }),
      [`POST ${base}/risk/${id}/review-schedule/reviewed`]: () => {
        schedule = {
          ...schedule,
          lastReviewed: '2026-11-24',
          nextReview: '2027-11-24',
          status: 'EARLY',
          lastReminder: { ...schedule.lastReminder, openTask: null },
        };
        return { body: schedule };
      },
    });
    const { user } = renderApp(`/risk/risks/register/R-0001?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Late')).toBeInTheDocument();
    expect(screen.getByText('Every 1 years; next review 2026-10-01')).toBeInTheDocument();
    expect(screen.getByText(/^Last reminder: Late, .*2026.*, to 2 watchers$/)).toBeInTheDocument();
    const task = screen.getByRole('link', { name: 'TASK-7 Review risk R-0001 Card skimming' });
    expect(task.getAttribute('href')).toContain('/tickets/task/TASK-7');
    await user.click(screen.getByRole('button', { name: 'Mark as reviewed' }));
    expect(await screen.findByText('Early')).toBeInTheDocument();
    // The review closed the reminder task: the last reminder stays, its task link goes.
    expect(screen.getByText(/^Last reminder: Late/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /TASK-7/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark as reviewed' })).toBeDisabled();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/review-schedule/reviewed'))).toBe(
      true,
    );
  });
});

describe('the inventory', { timeout: SLOW }, () => {
  it('derives data sensitivity from the answers and sends them with the item', async () => {
    const fetchMock = stubApi({
      ...withRisk(['RISK_SYSTEMS_AND_APPLICATIONS']),
      [`POST ${base}/inventory-item`]: {
        status: 201,
        body: inventoryItem({
          id: '22222222-2222-4222-8222-222222222222',
          kind: 'SYSTEM',
          name: 'Core banking',
          businessCriticality: null,
          inherentRisk: null,
          unanswered: 13,
        }),
      },
    });
    const { user } = renderApp(`/risk/inventory/register?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No systems, applications or vendors yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New system, application or vendor' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.paste('Core banking');
    expect(within(dialog).queryByText('Due-diligence questionnaire')).not.toBeInTheDocument();
    expect(within(dialog).getAllByLabelText('Vendor').length).toBeGreaterThan(0);
    for (const [question, answer] of [
      ["Does it store or process customers' non-public personal information?", 'Yes'],
      ['Does it store or process account numbers, card data or credentials?', 'Yes'],
      ['Does it hold confidential business data (strategy, financials, board material)?', 'Yes'],
      ['Is its data subject to regulatory protection (GLBA, PCI DSS, privacy law)?', 'No'],
    ] as const) {
      const group = within(dialog).getByRole('radiogroup', { name: question });
      await user.click(within(group).getByText(answer));
    }
    expect(within(dialog).getByText('Data sensitivity:').nextElementSibling).toHaveTextContent('High');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(requestBody(post[1])).toMatchObject({
      kind: 'SYSTEM',
      name: 'Core banking',
      answers: { S1: 'YES', S2: 'YES', S3: 'YES', S4: 'NO' },
    });
  });
});

const assessment = (overrides: Partial<AssessmentDetail> = {}): AssessmentDetail => ({
  id: '33333333-3333-4333-8333-333333333333',
  publicId: 'A-0001',
  kind: 'RISK',
  module: 'INFORMATION_SECURITY',
  name: 'Annual risk assessment',
  state: 'SAVED',
  itemCount: 1,
  items: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      publicId: 'R-0001',
      name: 'Phishing of staff',
      inherentRisk: 'HIGH',
      residualRisk: 'MODERATE',
    },
  ],
  executiveSummary: '',
  inherentRisk: { value: 'HIGH', recommended: 'HIGH', overridden: false },
  residualRisk: { value: 'MODERATE', recommended: 'MODERATE', overridden: false },
  completedOn: null,
  completedBy: null,
  version: 2,
  createdOn: '2026-11-01T09:00:00.000Z',
  modifiedOn: '2026-11-01T09:00:00.000Z',
  ...overrides,
});

describe('the assessments', { timeout: SLOW }, () => {
  it('show why an assessment cannot be completed, at the field', async () => {
    const fetchMock = stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risk-assessments`]: { body: { items: [assessment()], total: 1 } },
      [`GET ${base}/risk-assessment/A-0001`]: { body: assessment() },
      [`PATCH ${base}/risk-assessment/A-0001`]: { body: assessment({ version: 3 }) },
      [`POST ${base}/risk-assessment/A-0001/complete`]: {
        status: 400,
        body: { ...apiError('RISK_ASSESSMENT_SUMMARY_REQUIRED'), field: 'executiveSummary' },
      },
    });
    const { user } = renderApp(`/risk/assessments?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'A-0001' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('Recommended: High (the most severe score of the items)'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Complete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Complete the assessment?' });
    await user.click(within(confirm).getByRole('button', { name: 'Complete' }));
    const message = 'Write the executive summary before completing the assessment.';
    expect(await within(dialog).findByText('The assessment cannot be completed yet')).toBeInTheDocument();
    expect(within(dialog).getAllByText(message)).toHaveLength(2);
    const complete = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/complete'))!;
    expect(requestBody(complete[1])).toEqual({ version: 3 });
  });

  it('name the items whose mandatory questions are unanswered, at the covered items', async () => {
    const item = {
      id: '44444444-4444-4444-8444-444444444444',
      publicId: 'S-0002',
      name: 'Mail gateway',
      inherentRisk: null,
      residualRisk: null,
    };
    const inventory = assessment({ kind: 'INVENTORY', module: 'SYSTEMS_AND_APPLICATIONS', items: [item] });
    stubApi({
      ...withRisk(['RISK_SYSTEMS_AND_APPLICATIONS']),
      [`GET ${base}/risk-assessments`]: { body: { items: [inventory], total: 1 } },
      [`GET ${base}/risk-assessment/A-0001`]: { body: inventory },
      [`PATCH ${base}/risk-assessment/A-0001`]: { body: { ...inventory, version: 3 } },
      [`POST ${base}/risk-assessment/A-0001/complete`]: {
        status: 400,
        body: { ...apiError('RISK_MANDATORY_ITEM_INVALID'), field: 'itemIds', params: { 0: 'S-0002' } },
      },
    });
    const { user } = renderApp(`/risk/assessments?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'A-0001' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Complete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Complete the assessment?' });
    await user.click(within(confirm).getByRole('button', { name: 'Complete' }));
    const message =
      'Some covered items have not answered their mandatory questions (data sensitivity, business criticality and, for vendors, due diligence): S-0002';
    const shown = await within(dialog).findAllByText(message);
    expect(shown).toHaveLength(2);
    const field = searchField(dialog, 'Systems, applications and vendors assessed');
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('keep a new assessment saved when its completion is refused, and save it again on the next try', async () => {
    const fetchMock = stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`POST ${base}/risk-assessment`]: { status: 201, body: assessment({ state: 'DRAFT', version: 1 }) },
      [`PATCH ${base}/risk-assessment/A-0001`]: { body: assessment({ version: 2 }) },
      [`POST ${base}/risk-assessment/A-0001/complete`]: {
        status: 400,
        body: {
          ...apiError('RISK_ASSESSMENT_SCORE_REQUIRED'),
          field: 'residualRisk',
          params: { 0: 'residual risk' },
        },
      },
    });
    const { user } = renderApp(`/risk/assessments?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New assessment' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Annual risk assessment');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await user.click(within(dialog).getByRole('button', { name: 'Complete' }));
      const confirm = await screen.findByRole('dialog', { name: 'Complete the assessment?' });
      await user.click(within(confirm).getByRole('button', { name: 'Complete' }));
      expect(
        await within(dialog).findAllByText(
          'Set the aggregate residual risk score before completing the assessment.',
        ),
      ).toHaveLength(2);
    }
    const methods = fetchMock.mock.calls
      .filter(([url, init]) => String(url).startsWith(`${base}/risk-assessment`) && init?.method !== 'GET')
      .map(([url, init]) => `${init?.method} ${String(url).replace(base, '')}`);
    expect(methods).toEqual([
      'POST /risk-assessment',
      'POST /risk-assessment/A-0001/complete',
      'PATCH /risk-assessment/A-0001',
      'POST /risk-assessment/A-0001/complete',
    ]);
  });

  it('show a completed assessment read-only with its PDF', async () => {
    stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risk-assessments`]: {
        body: {
          items: [assessment({ state: 'COMPLETED', completedOn: '2026-11-20T10:00:00.000Z' })],
          total: 1,
        },
      },
      [`GET ${base}/risk-assessment/A-0001`]: {
        body: assessment({
          state: 'COMPLETED',
          executiveSummary: 'Phishing stays the top risk.',
          completedOn: '2026-11-20T10:00:00.000Z',
          completedBy: { id: 'u1', name: 'Nora Quinn' },
        }),
      },
    });
    const { user } = renderApp(`/risk/assessments?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('2026-11-20')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'A-0001' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Phishing stays the top risk.')).toBeInTheDocument();
    expect(within(dialog).getByText('Completed on 2026-11-20 by Nora Quinn')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Save as draft' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
  });
});

/** A provider administrator, who writes the libraries, in the provider's organisation. */
const providerAdmin = () => withRisk([], ['RISK_VIEW', 'RISK_EDIT', 'TRAC_ADMIN', 'TRAC_USER'], true);

const control = (overrides: Partial<ControlDetail> = {}): ControlDetail => ({
  id: '44444444-4444-4444-8444-444444444444',
  publicId: 'LC-0001',
  name: 'Library MFA',
  library: true,
  copiedFromId: null,
  definition: '',
  keyControl: false,
  owner: null,
  type: 'PREVENTATIVE',
  category: null,
  configuration: null,
  designEffectiveness: 'STRONG',
  operatingEffectiveness: 'STRONG',
  overallScore: { value: 'STRONG', recommended: 'STRONG', overrideReason: null },
  riskCount: 0,
  version: 1,
  createdOn: '2026-11-01T09:00:00.000Z',
  modifiedOn: '2026-11-01T09:00:00.000Z',
  risks: [],
  triggers: [],
  evidence: [],
  inRegister: false,
  history: [],
  ...overrides,
});

describe('the risk library', { timeout: SLOW }, () => {
  const libraryRisk = detail({
    publicId: 'LR-0001',
    name: 'Phishing of staff',
    library: true,
    riskEventType: 'EXTERNAL_FRAUD',
    riskEventSubType: 'Credential theft',
    causeCategory: 'PEOPLE',
    ermConnections: ['REPUTATIONAL', 'COMPLIANCE'],
    response: 'MITIGATE',
    mitigationPlan: 'Quarterly phishing drills',
    potentialImpact: { value: 'HIGH', recommended: null, overrideReason: null },
    likelihood: 'HIGH',
    residualRisk: { value: 'MODERATE', recommended: 'HIGH', overrideReason: 'Drills work' },
    controls: [
      { id: control().id, publicId: 'LC-0001', name: 'Library MFA', overallScore: 'STRONG', triggers: [] },
    ],
    inRegister: true,
  });

  it('marks what the register holds, and shows a reader the whole library risk without a form', async () => {
    stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/risks/library`]: {
        body: {
          items: [
            { ...risk({ publicId: 'LR-0001', library: true }), inRegister: true },
            {
              ...risk({
                id: '55555555-5555-4555-8555-555555555555',
                publicId: 'LR-0002',
                name: 'Vendor breach',
                library: true,
              }),
              inRegister: false,
            },
          ],
          total: 2,
        },
      },
      [`GET ${base}/risks/library/LR-0001`]: { body: libraryRisk },
    });
    const { user } = renderApp(`/risk/risks/library?orgId=${HOME_ORG_ID}`);
    const held = (await screen.findByRole('link', { name: 'LR-0001' })).closest('tr')!;
    expect(within(held).getByText('In the register')).toBeInTheDocument();
    const other = screen.getByRole('link', { name: 'LR-0002' }).closest('tr')!;
    expect(within(other).queryByText('In the register')).not.toBeInTheDocument();
    // Copying is offered; writing the library is not.
    expect(screen.getByRole('button', { name: /Copy to register/ })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'New risk' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'LR-0001' }));
    const threat = await screen.findByRole('table', { name: 'Threat type' });
    expect(
      within(threat).getByRole('row', { name: 'Event type External fraud (Credential theft)' }),
    ).toBeInTheDocument();
    expect(within(threat).getByRole('row', { name: 'Cause People' })).toBeInTheDocument();
    expect(
      within(threat).getByRole('row', { name: 'ERM connections Reputational, Compliance' }),
    ).toBeInTheDocument();
    const scores = screen.getByRole('table', { name: 'Scores' });
    expect(within(scores).getByRole('row', { name: 'Likelihood High' })).toBeInTheDocument();
    expect(
      within(scores).getByRole('row', { name: 'Residual risk Moderate — Drills work' }),
    ).toBeInTheDocument();
    const controls = screen.getByRole('table', { name: 'Linked controls' });
    expect(within(controls).getByRole('row', { name: 'LC-0001 Library MFA Strong' })).toBeInTheDocument();
    expect(screen.getByText('Quarterly phishing drills')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'In the register' })).toBeDisabled();
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
  });

  it('lets a provider administrator write a library risk linking library controls, without register fields', async () => {
    const created = {
      ...libraryRisk,
      id: '66666666-6666-4666-8666-666666666666',
      publicId: 'LR-0002',
      name: 'Wire fraud',
      inRegister: false,
    };
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/risks/library`]: { body: { items: [], total: 0 } },
      [`GET ${base}/controls/library`]: { body: { items: [{ ...control(), inRegister: false }], total: 1 } },
      [`POST ${base}/risks/library`]: { status: 201, body: created },
      [`GET ${base}/risks/library/LR-0002`]: { body: created },
    });
    const { user } = renderApp(`/risk/risks/library?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('The library is empty')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'New risk' }));
    await user.click(await screen.findByRole('textbox', { name: 'Name' }));
    await user.paste('Wire fraud');
    // Every module is offered, though the provider holds none.
    await user.click(screen.getByRole('combobox', { name: 'Modules' }));
    await user.click(await screen.findByRole('option', { name: 'Third-Party Risk' }));
    await user.click(screen.getByRole('combobox', { name: 'Linked controls' }));
    await user.click(await screen.findByRole('option', { name: 'LC-0001 Library MFA' }));
    expect(screen.queryAllByLabelText('Owner')).toHaveLength(0);
    expect(screen.queryAllByLabelText('Due date')).toHaveLength(0);
    expect(screen.queryAllByLabelText('Exception')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const posted = () =>
      fetchMock.mock.calls.find(([url, init]) => url === `${base}/risks/library` && init?.method === 'POST');
    await waitFor(() => expect(posted()).toBeDefined());
    const post = posted()!;
    expect(requestBody(post[1])).toMatchObject({
      name: 'Wire fraud',
      modules: ['INFORMATION_SECURITY', 'THIRD_PARTY_RISK'],
      controlIds: [control().id],
    });
    // The new library risk opens in the form, for more changes.
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Wire fraud');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('lets a provider administrator change a library control', async () => {
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/controls/library`]: { body: { items: [{ ...control(), inRegister: false }], total: 1 } },
      [`GET ${base}/controls/library/LC-0001`]: { body: control() },
      [`PATCH ${base}/controls/library/${control().id}`]: {
        body: control({ name: 'Library MFA everywhere' }),
      },
    });
    const { user } = renderApp(`/risk/controls/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'LC-0001' }));
    expect(screen.getByRole('button', { name: 'New control' })).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog');
    const name = await within(dialog).findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Library MFA everywhere');
    // Library controls have no owner and relate no triggers.
    expect(within(dialog).queryAllByLabelText('Owner')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(requestBody(patch[1])).toMatchObject({ name: 'Library MFA everywhere', version: 1 });
  });

  it('shows a library control read-only to those who do not write the library', async () => {
    stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/controls/library`]: { body: { items: [{ ...control(), inRegister: true }], total: 1 } },
      [`GET ${base}/controls/library/LC-0001`]: { body: control() },
    });
    const { user } = renderApp(`/risk/controls/library?orgId=${HOME_ORG_ID}`);
    const row = (await screen.findByRole('button', { name: 'LC-0001' })).closest('tr')!;
    expect(within(row).getByText('In the register')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New control' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'LC-0001' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shows the history of a register control, evidence files included', async () => {
    const registered = control({
      publicId: 'C-0001',
      name: 'MFA for staff',
      library: false,
      history: [
        { id: 'h1', kind: 'CREATED', actorName: 'Ana Analyst', details: {}, at: '2026-11-01T09:00:00.000Z' },
        {
          id: 'h2',
          kind: 'EVIDENCE',
          actorName: 'Ana Analyst',
          details: { added: ['mfa-policy.pdf'] },
          at: '2026-11-02T09:00:00.000Z',
        },
        {
          id: 'h3',
          kind: 'EVIDENCE',
          actorName: 'Ana Analyst',
          details: { removed: ['old-policy.pdf'] },
          at: '2026-11-03T09:00:00.000Z',
        },
      ],
    });
    stubApi({
      ...withRisk(['RISK_INFORMATION_SECURITY']),
      [`GET ${base}/controls`]: { body: { items: [registered], total: 1 } },
      [`GET ${base}/control/C-0001`]: { body: registered },
    });
    const { user } = renderApp(`/risk/controls/register?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'C-0001' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Evidence added: mfa-policy.pdf')).toBeInTheDocument();
    expect(within(dialog).getByText('Evidence removed: old-policy.pdf')).toBeInTheDocument();
    expect(within(dialog).getByText('Created')).toBeInTheDocument();
  });

  it('lets a provider administrator add an inventory template to the library, without lists or people', async () => {
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/inventory/library`]: { body: { items: [], total: 0 } },
      [`POST ${base}/inventory/library`]: {
        status: 201,
        body: inventoryItem({
          id: '22222222-2222-4222-8222-222222222222',
          kind: 'SYSTEM',
          name: 'Core banking',
          publicId: 'LS-0001',
          library: true,
        }),
      },
    });
    const { user } = renderApp(`/risk/inventory/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New system, application or vendor' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.paste('Core banking');
    expect(within(dialog).queryAllByLabelText('Vendor')).toHaveLength(0);
    expect(within(dialog).queryAllByLabelText('Business owner')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const posted = () =>
      fetchMock.mock.calls.find(
        ([url, init]) => url === `${base}/inventory/library` && init?.method === 'POST',
      );
    await waitFor(() => expect(posted()).toBeDefined());
    const post = posted()!;
    expect(await screen.findByText('LS-0001 saved.')).toBeInTheDocument();
    expect(requestBody(post[1])).toMatchObject({ kind: 'SYSTEM', name: 'Core banking' });
  });
});
