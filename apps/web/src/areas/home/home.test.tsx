import { screen, within } from '@testing-library/react';
import { resolveFeatureFlags, type Readiness } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;

const readiness: Readiness = {
  score: 63,
  windowDays: 90,
  computedAt: '2026-03-08T00:00:00.000Z',
  categories: [
    {
      category: 'FRAUD_PREVENTION',
      score: 75,
      path: '/fraud/inbox',
      checks: [
        { id: 'FRAUD_PRODUCT', met: true, value: 1, total: null, fixPath: '/fraud/offering' },
        { id: 'FRAUD_TRIGGERS_ACTIVE', met: true, value: 3, total: null, fixPath: '/fraud/triggers' },
        { id: 'FRAUD_SOURCES_IN_USE', met: false, value: 0, total: null, fixPath: '/fraud/threat' },
        { id: 'FRAUD_ALERTS_WORKED_IN_SLA', met: true, value: 0, total: 0, fixPath: '/fraud/inbox' },
      ],
    },
    {
      category: 'THREAT_SURVEILLANCE',
      score: 50,
      path: '/alerts/inbox',
      checks: [
        { id: 'THREAT_TRIGGERS_ACTIVE', met: true, value: 5, total: null, fixPath: '/triggers' },
        { id: 'THREAT_SOURCES_IN_USE', met: true, value: 2, total: null, fixPath: '/threat' },
        { id: 'SECURITY_ALERTS_WORKED_IN_SLA', met: false, value: 7, total: 12, fixPath: '/alerts/inbox' },
        { id: 'INCIDENTS_CLOSED_IN_TIME', met: false, value: 1, total: 3, fixPath: '/tickets/incident' },
      ],
    },
    {
      category: 'GOVERNANCE_PROGRAM',
      score: 50,
      path: '/governance/tasks',
      checks: [
        { id: 'TASK_SCHEDULES_ACTIVE', met: true, value: 2, total: null, fixPath: '/task-schedules' },
        { id: 'SCHEDULED_TASKS_ON_TIME', met: false, value: 4, total: 6, fixPath: '/governance/tasks' },
      ],
    },
    {
      category: 'RISK_ASSESSMENT',
      score: 50,
      path: '/risk/assessments',
      checks: [
        { id: 'RISK_ASSESSMENT_COMPLETED', met: true, value: 1, total: null, fixPath: '/risk/assessments' },
        { id: 'RISK_REVIEWS_NOT_LATE', met: false, value: 3, total: 4, fixPath: '/risk/risks/register' },
      ],
    },
  ],
};

const routes = (features: Record<string, boolean>, extra: Record<string, unknown> = {}) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'First Harbor Bank', {
      permissions: ['DASHBOARD_VIEW'],
      features: resolveFeatureFlags(features),
    }),
  ),
  'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'postgres' } },
  [`GET ${base}/home/readiness`]: { body: readiness },
  ...extra,
});

describe('cyber risk readiness', () => {
  it('scores each category with its checks, figures and links to put them right', async () => {
    stubApi(routes({ cyberRiskReadinessDashboard: true }));
    renderApp(`/home?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('img', { name: 'Overall readiness: 63%' })).toBeInTheDocument();
    const fraud = screen.getByRole('region', { name: 'Fraud Prevention' });
    expect(within(fraud).getByRole('img', { name: 'Fraud Prevention: 75%' })).toBeInTheDocument();
    expect(within(fraud).getByText('3 of 4 checks met')).toBeInTheDocument();
    expect(within(fraud).getByRole('row', { name: /Fraud monitoring product Included/ })).toBeInTheDocument();
    expect(within(fraud).getByRole('row', { name: /Active fraud triggers 3 in place/ })).toBeInTheDocument();
    expect(
      within(fraud).getByRole('row', { name: /Fraud alerts worked within 24 hours Nothing was due/ }),
    ).toBeInTheDocument();
    const sources = within(fraud).getByRole('row', { name: /Fraud threat sources in use 0 in place/ });
    expect(within(sources).getByLabelText('Not met')).toBeInTheDocument();
    expect(
      within(sources).getByRole('link', { name: 'Put right: Fraud threat sources in use' }),
    ).toHaveAttribute('href', `/fraud/threat?orgId=${HOME_ORG_ID}`);
    // Met checks need nothing put right.
    expect(within(fraud).getAllByRole('link', { name: /^Put right/ })).toHaveLength(1);

    const threat = screen.getByRole('region', { name: 'Threat Surveillance' });
    expect(
      within(threat).getByRole('row', { name: /Security alerts worked within 24 hours 7 of 12 in time/ }),
    ).toBeInTheDocument();
    expect(within(threat).getByRole('link', { name: 'Put right: Incidents closed in time' })).toHaveAttribute(
      'href',
      `/tickets/incident?orgId=${HOME_ORG_ID}`,
    );
    const governance = screen.getByRole('region', { name: 'Governance Program' });
    expect(
      within(governance).getByRole('row', { name: /Scheduled tasks completed on schedule 4 of 6 in time/ }),
    ).toBeInTheDocument();

    const risk = screen.getByRole('region', { name: 'Risk Assessment' });
    expect(
      within(risk).getByRole('row', { name: /Risk assessments completed in the last 12 months/ }),
    ).toBeInTheDocument();
    expect(
      within(risk).getByRole('link', { name: 'Put right: Review schedules of risks and controls not late' }),
    ).toHaveAttribute('href', `/risk/risks/register?orgId=${HOME_ORG_ID}`);

    const scoring = screen.getByRole('region', { name: 'How readiness is scored' });
    expect(within(scoring).getByText(/leave New within 24 hours of firing/)).toBeInTheDocument();
  });

  it('says when readiness cannot be scored, with a retry', async () => {
    stubApi(
      routes(
        { cyberRiskReadinessDashboard: true },
        {
          [`GET ${base}/home/readiness`]: {
            status: 403,
            body: apiError('FEATURE_NOT_ENABLED', 'AccessDeniedException'),
          },
        },
      ),
    );
    renderApp(`/home?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Readiness could not be scored.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('is not shown to an organisation without the readiness dashboard', async () => {
    stubApi(routes({}));
    renderApp(`/home?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Fraud Prevention' })).not.toBeInTheDocument();
  });

  it('shows the readiness banner on the dashboards with the banner flag, linking to /home with the dashboard flag', async () => {
    stubApi(
      routes(
        { cyberRiskReadinessBanner: true, cyberRiskReadinessDashboard: true },
        { [`GET ${base}/dashboards/default`]: { body: { dashboard: null } } },
      ),
    );
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);
    const banner = await screen.findByRole('alert', { name: /Cyber risk readiness: 63%/ });
    expect(within(banner).getByText(/7 of 12 readiness checks met/)).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'See the details' })).toHaveAttribute(
      'href',
      `/home?orgId=${HOME_ORG_ID}`,
    );
  });
});
