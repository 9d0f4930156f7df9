import { screen, waitFor, within } from '@testing-library/react';
import type { FrameworkSummary, PolicySummary } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base } from '../assets/test-fixtures';
import { gov, withAccess } from './test-fixtures';

const policy = (overrides: Partial<PolicySummary>): PolicySummary => ({
  id: 'p1',
  kind: 'CUSTOM',
  name: 'Acceptable Use',
  description: '',
  ownerId: null,
  ownerName: null,
  catRefs: [],
  reviewEveryMonths: 6,
  lastReviewedOn: '2020-01-01',
  nextReviewOn: '2020-07-01',
  reviewOverdue: true,
  currentVersion: { id: 'v1', number: 1, approvedOn: '2019-12-01T00:00:00.000Z' },
  latestVersionNumber: 1,
  acknowledgedCount: 0,
  audienceCount: 2,
  acknowledgedByMe: false,
  createdOn: '2019-12-01T00:00:00.000Z',
  ...overrides,
});

const framework: FrameworkSummary = {
  id: 'f1',
  name: 'NIST Cybersecurity Framework 2.0',
  version: '1.2.0',
  description: '',
  source: 'library',
  libraryKey: 'nist-csf-2.0',
  tiers: [],
  targetTier: null,
  sectionCount: 28,
  controlCount: 106,
  currentPeriod: { id: 'p1', name: 'CSF 2026', endsOn: '2026-12-31', answered: 53 },
  createdOn: '2026-01-01T00:00:00.000Z',
};

describe('governance tasks', () => {
  it('lists the overdue policy reviews and the periods in progress the dashboard answers', async () => {
    stubApi({
      ...withAccess(['GOVERNANCE_DASHBOARD_VIEW', 'CUSTOM_POLICY_VIEW', 'POLICY_FRAMEWORK_VIEW']),
      [`GET ${gov}/dashboard`]: { body: { reviews: [policy({})], periods: [framework] } },
    });
    renderApp(`/governance/tasks?orgId=${HOME_ORG_ID}`);
    const reviews = await screen.findByRole('region', { name: 'Policy reviews due' });
    expect(await within(reviews).findByRole('link', { name: 'Acceptable Use' })).toBeInTheDocument();
    expect(within(reviews).getByText('Overdue since 2020-07-01')).toBeInTheDocument();
    const periods = screen.getByRole('region', { name: 'Evaluation periods in progress' });
    expect(
      await within(periods).findByText('CSF 2026: 53 of 106 answered, ends 2026-12-31'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Scheduled tasks' })).not.toBeInTheDocument();
  });

  it('is the governance dashboard: it needs GOVERNANCE_DASHBOARD_VIEW, not TASK_VIEW', async () => {
    const fetchMock = stubApi(withAccess(['TASK_VIEW', 'TASK_SCHEDULE_VIEW']));
    renderApp(`/governance/tasks?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText(/You do not have the permission this page needs/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Scheduled tasks' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/governance/dashboard'))).toBe(false);
  });

  it('links each schedule of the counts to the task schedules page, for holders of TASK_VIEW', async () => {
    stubApi({
      ...withAccess(['GOVERNANCE_DASHBOARD_VIEW', 'TASK_VIEW', 'TASK_SCHEDULE_VIEW']),
      [`GET ${gov}/dashboard`]: { body: { reviews: null, periods: null } },
      [`GET ${base}/task-schedules/task-counts`]: {
        body: {
          timeframe: 'LAST_7_DAYS',
          from: '2026-01-01T00:00:00.000Z',
          to: '2026-01-08T00:00:00.000Z',
          items: [
            {
              scheduleId: 's1',
              name: 'Weekly backup check',
              lastRanAt: null,
              created: 1,
              open: 1,
              closed: 0,
              overdue: 0,
            },
          ],
        },
      },
    });
    const { user, router } = renderApp(`/governance/tasks?orgId=${HOME_ORG_ID}`);
    const scheduled = await screen.findByRole('region', { name: 'Scheduled tasks' });
    // Without a policy or framework permission the dashboard answers neither part.
    expect(screen.queryByRole('region', { name: 'Policy reviews due' })).not.toBeInTheDocument();
    await user.click(await within(scheduled).findByRole('link', { name: 'Weekly backup check' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/task-schedules'));
  });
});
