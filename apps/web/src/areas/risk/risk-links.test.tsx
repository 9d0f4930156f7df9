import { screen, waitFor, within } from '@testing-library/react';
import type { IncidentRisk, RiskDetail, TicketDetail } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { ticket } from '../tickets/test-fixtures';

// The risk page is a long form: rendering it takes a while under jsdom.
const SLOW = 60_000;
const RISK_ID = '11111111-1111-4111-8111-111111111111';

const withAccess = (permissions: string[]) => ({
  ...signedInRoutes,
  'GET /api/orgs': {
    body: {
      homeOrgId: HOME_ORG_ID,
      orgs: [
        { id: HOME_ORG_ID, name: 'First Harbor', productSkus: ['RISK_INFORMATION_SECURITY'], isHome: true },
      ],
    },
  },
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'First Harbor', {
      org: { productSkus: ['RISK_INFORMATION_SECURITY'], isProvider: false },
      permissions: ['DASHBOARD_VIEW', ...permissions],
    }),
  ),
  [`GET ${base}/user/summary`]: { body: [] },
  [`GET ${base}/risk-lists`]: { body: [] },
  [`GET ${base}/tags`]: { body: { items: [], total: 0 } },
  [`GET ${base}/controls`]: { body: { items: [], total: 0 } },
  [`GET ${base}/inventory`]: { body: { items: [], total: 0 } },
  [`GET ${base}/risks`]: { body: { items: [], total: 0 } },
  [`GET ${base}/risk/${RISK_ID}/review-schedule`]: { body: null },
});

const score = { value: null, recommended: null, overrideReason: null };

const risk = (overrides: Partial<RiskDetail> = {}): RiskDetail => ({
  id: RISK_ID,
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
  potentialImpact: score,
  likelihood: null,
  inherentRisk: score,
  controlStrength: score,
  residualRisk: score,
  riskDirection: null,
  revisitScores: null,
  version: 2,
  createdOn: '2026-11-01T09:00:00.000Z',
  modifiedOn: '2026-11-01T09:00:00.000Z',
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
  history: [],
  ...overrides,
});

const incident = (slug: string, title: string) => ({
  ...ticket({ id: `id-${slug}`, slug, title }),
});

describe('the incidents of a risk', { timeout: SLOW }, () => {
  it('links an incident found by search and unlinks one after a confirmation', async () => {
    let current = risk({ incidents: [{ id: 'id-INC-3', slug: 'INC-3', title: 'Skimmer', state: 'CLOSED' }] });
    const puts: unknown[] = [];
    const fetchMock = stubApi({
      ...withAccess(['RISK_VIEW', 'RISK_EDIT', 'INCIDENT_VIEW']),
      [`GET ${base}/risk/R-0001`]: () => ({ body: current }),
      [`GET ${base}/incidents`]: {
        body: { items: [incident('INC-3', 'Skimmer'), incident('INC-9', 'Phishing wave')], total: 2 },
      },
      [`PUT ${base}/risk/${RISK_ID}/incidents`]: ({ init }) => {
        const body = requestBody(init) as { slugs: string[] };
        puts.push(body);
        const incidents = body.slugs.map((slug) => ({
          id: `id-${slug}`,
          slug,
          title: slug,
          state: 'TRIAGE',
        }));
        current = risk({ incidents, version: current.version + 1 });
        return { body: incidents };
      },
    });
    const { user } = renderApp(`/risk/risks/register/R-0001?orgId=${HOME_ORG_ID}`);
    const table = await screen.findByRole('table', { name: 'Incidents that realised this risk' });
    expect(within(table).getByRole('link', { name: 'INC-3' })).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Link an incident' }));
    await user.type(screen.getByRole('combobox', { name: 'Link an incident' }), 'Phish');
    // The search goes to the server once the typing settles.
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('q=Phish'))).toBe(true),
    );
    // The incident already linked is not offered again.
    await user.click(await screen.findByRole('option', { name: 'INC-9 Phishing wave' }));
    expect(screen.queryByRole('option', { name: 'INC-3 Skimmer' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Link an incident' }));
    await waitFor(() => expect(puts).toEqual([{ slugs: ['INC-3', 'INC-9'] }]));

    await user.click(await screen.findByRole('button', { name: 'Unlink INC-3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink the incident' });
    expect(within(dialog).getByText(/Unlink INC-3 from R-0001/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(puts).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Unlink INC-3' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unlink the incident' })).getByRole('button', {
        name: 'Unlink',
      }),
    );
    await waitFor(() => expect(puts[1]).toEqual({ slugs: ['INC-9'] }));
  });

  it('shows the scores to revisit and the triggers of the linked controls', async () => {
    stubApi({
      ...withAccess(['RISK_VIEW']),
      [`GET ${base}/risk/R-0001`]: {
        body: risk({
          revisitScores: {
            since: '2026-11-20T10:00:00.000Z',
            incidents: [{ id: 'id-INC-4', slug: 'INC-4' }],
          },
          controls: [
            {
              id: 'c1',
              publicId: 'C-0001',
              name: 'Mail filtering',
              overallScore: 'STRONG',
              triggers: [
                {
                  id: 't1',
                  name: 'Look-alike domains',
                  domain: 'security',
                  state: 'ACTIVE',
                  active: true,
                  lastFiredOn: '2026-11-19T08:00:00.000Z',
                },
                {
                  id: 't2',
                  name: 'Mass mailing',
                  domain: 'security',
                  state: 'PAUSED',
                  active: false,
                  lastFiredOn: null,
                },
              ],
            },
            { id: 'c2', publicId: 'C-0002', name: 'Awareness training', overallScore: null, triggers: [] },
          ],
        }),
      },
    });
    renderApp(`/risk/risks/register/R-0001?orgId=${HOME_ORG_ID}`);
    expect(
      await screen.findByText('Scores to revisit', { selector: '.mantine-Badge-label' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/incidents closed with a root cause ask to revisit these scores: INC-4/),
    ).toBeInTheDocument();

    const triggers = screen.getByRole('table', { name: 'C-0001 Mail filtering' });
    const rows = within(triggers).getAllByRole('row');
    expect(within(rows[0]!).getByRole('link', { name: 'Look-alike domains' })).toHaveAttribute(
      'href',
      expect.stringContaining('/triggers'),
    );
    expect(rows[0]).toHaveTextContent('Active');
    expect(rows[0]).toHaveTextContent(/Last fired/);
    expect(rows[1]).toHaveTextContent('Inactive');
    expect(rows[1]).toHaveTextContent('Never fired');
    expect(screen.getByText('No trigger is related to this control.')).toBeInTheDocument();
    // Read-only: no link nor unlink.
    expect(screen.queryByRole('combobox', { name: 'Link an incident' })).not.toBeInTheDocument();
  });
});

const ticketDetail = (overrides: Partial<TicketDetail> = {}): TicketDetail => ({
  ...ticket(),
  parent: null,
  watchers: [],
  links: [],
  subtasks: [],
  comments: [],
  files: [],
  history: [],
  ...overrides,
});

const incidentRisk = (overrides: Partial<IncidentRisk> = {}): IncidentRisk => ({
  id: RISK_ID,
  publicId: 'R-0001',
  name: 'Phishing of staff',
  state: 'ACTIVE',
  residualRisk: null,
  revisitScores: null,
  ...overrides,
});

const ticketPanels = {
  [`GET ${base}/incident/INC-7/alerts`]: { body: [] },
  [`GET ${base}/incident/INC-7/similar`]: { body: [] },
  [`GET ${base}/incident/INC-7/notes`]: { body: [] },
};

describe('the risks of an incident', { timeout: SLOW }, () => {
  it('after closing with a root cause, lists the risks to revisit with a link to their scores', async () => {
    let current = ticketDetail({ state: 'RESOLVED', resolution: 'Spoofed payroll link' });
    let linked = [incidentRisk()];
    const puts: unknown[] = [];
    stubApi({
      ...withAccess(['RISK_VIEW', 'RISK_EDIT', 'INCIDENT_VIEW', 'INCIDENT_EDIT']),
      ...ticketPanels,
      [`GET ${base}/incident/INC-7`]: () => ({ body: current }),
      [`PUT ${base}/incident/INC-7/state`]: () => {
        current = ticketDetail({ ...current, state: 'CLOSED', version: current.version + 1 });
        linked = linked.map((row) => ({
          ...row,
          revisitScores: {
            since: '2026-11-20T10:00:00.000Z',
            incidents: [{ id: current.id, slug: 'INC-7' }],
          },
        }));
        return { body: current };
      },
      [`GET ${base}/risks/incident/INC-7`]: () => ({ body: linked }),
      [`GET ${base}/risks`]: {
        body: { items: [{ ...risk(), id: 'r2', publicId: 'R-0002', name: 'Wire fraud' }], total: 1 },
      },
      [`PUT ${base}/risks/incident/INC-7`]: ({ init }) => {
        puts.push(requestBody(init));
        return { body: linked };
      },
    });
    const { user } = renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    const table = await screen.findByRole('table', { name: 'Risks' });
    expect(within(table).getByRole('link', { name: 'R-0001' })).toBeInTheDocument();
    expect(screen.queryByText('Revisit the risk scores')).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'New state' }));
    await user.click(screen.getByRole('option', { name: 'Closed' }));
    await user.click(screen.getByRole('button', { name: 'Change state' }));
    expect(await screen.findByText('Revisit the risk scores')).toBeInTheDocument();
    const scoring = screen.getByRole('link', { name: 'R-0001 Phishing of staff' });
    expect(scoring).toHaveAttribute(
      'href',
      expect.stringMatching(/\/risk\/risks\/register\/R-0001.*#risk-scores$/),
    );

    await user.click(screen.getByRole('combobox', { name: 'Link a risk' }));
    await user.click(await screen.findByRole('option', { name: 'R-0002 Wire fraud' }));
    await user.click(screen.getByRole('button', { name: 'Link a risk' }));
    await waitFor(() => expect(puts).toEqual([{ riskIds: [RISK_ID, 'r2'] }]));
    await user.click(screen.getByRole('button', { name: 'Unlink R-0001' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unlink the risk' })).getByRole('button', {
        name: 'Unlink',
      }),
    );
    await waitFor(() => expect(puts[1]).toEqual({ riskIds: [] }));
  });

  it('is not shown without RISK_VIEW', async () => {
    stubApi({
      ...withAccess(['INCIDENT_VIEW']),
      ...ticketPanels,
      [`GET ${base}/incident/INC-7`]: { body: ticketDetail() },
    });
    renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Linked tickets' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Risks' })).not.toBeInTheDocument();
  });

  it('shows the empty state, read-only without the risk edit permission', async () => {
    stubApi({
      ...withAccess(['INCIDENT_VIEW', 'RISK_VIEW']),
      ...ticketPanels,
      [`GET ${base}/incident/INC-7`]: { body: ticketDetail() },
      [`GET ${base}/risks/incident/INC-7`]: { body: [] },
    });
    renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No risk is linked to this incident.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Link a risk' })).not.toBeInTheDocument();
  });
});
