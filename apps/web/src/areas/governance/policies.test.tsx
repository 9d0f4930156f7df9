import { screen, waitFor, within } from '@testing-library/react';
import type { PolicyAcknowledgements, PolicyDetail, PolicySummary } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { gov, withAccess } from './test-fixtures';

const summary = (overrides: Partial<PolicySummary> = {}): PolicySummary => ({
  id: 'p1',
  kind: 'CUSTOM',
  name: 'Acceptable Use',
  description: 'How staff use systems',
  ownerId: null,
  ownerName: 'Dana Owner',
  catRefs: [],
  reviewEveryMonths: 12,
  lastReviewedOn: null,
  nextReviewOn: '2026-01-10',
  reviewOverdue: true,
  currentVersion: { id: 'v1', number: 1, approvedOn: '2025-01-10T10:00:00.000Z' },
  latestVersionNumber: 2,
  acknowledgedCount: 1,
  audienceCount: 3,
  acknowledgedByMe: false,
  createdOn: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const detail = (overrides: Partial<PolicyDetail> = {}): PolicyDetail => ({
  ...summary(),
  versions: [
    {
      id: 'v2',
      number: 2,
      body: 'Second text',
      changeNote: 'Remote work',
      createdByName: 'Dana Owner',
      createdOn: '2026-01-01T00:00:00.000Z',
      approvedByName: null,
      approvedOn: null,
    },
    {
      id: 'v1',
      number: 1,
      body: 'Staff use systems for work.',
      changeNote: '',
      createdByName: 'Dana Owner',
      createdOn: '2025-01-01T00:00:00.000Z',
      approvedByName: 'Ali Approver',
      approvedOn: '2025-01-10T10:00:00.000Z',
    },
  ],
  ...overrides,
});

const acknowledgements: PolicyAcknowledgements = {
  version: { id: 'v1', number: 1 },
  acknowledged: [{ userId: 'u1', name: 'Ali Approver', acknowledgedOn: '2025-02-01T00:00:00.000Z' }],
  acknowledgedTotal: 1,
  pending: [
    { userId: 'u2', name: 'Test User' },
    { userId: 'u3', name: 'Sam Staff' },
  ],
  pendingTotal: 2,
};

describe('custom policies', () => {
  it('lists policies with their current version, overdue review and acknowledgements', async () => {
    stubApi({ ...withAccess(['CUSTOM_POLICY_VIEW']), [`GET ${gov}/policies`]: { body: [summary()] } });
    renderApp(`/governance/policies?orgId=${HOME_ORG_ID}`);
    const row = (await screen.findByRole('link', { name: 'Acceptable Use' })).closest('tr')!;
    expect(within(row).getByText('Version 1')).toBeInTheDocument();
    expect(within(row).getByText('Version 2 awaits approval')).toBeInTheDocument();
    expect(within(row).getByText('Overdue')).toBeInTheDocument();
    expect(within(row).getByText('1 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New policy' })).not.toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    stubApi({ ...withAccess(['CUSTOM_POLICY_VIEW']), [`GET ${gov}/policies`]: { body: [] } });
    renderApp(`/governance/policies?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No policies yet')).toBeInTheDocument();
  });

  it('acknowledges the current version and shows who has and has not', async () => {
    let policy = detail();
    let acks = acknowledgements;
    const fetchMock = stubApi({
      ...withAccess(['CUSTOM_POLICY_VIEW']),
      [`GET ${gov}/policy/p1`]: () => ({ body: policy }),
      [`GET ${gov}/policy/p1/acknowledgements`]: () => ({ body: acks }),
      [`GET ${gov}/policies`]: () => ({ body: [policy] }),
      [`POST ${gov}/policy/p1/acknowledge`]: () => {
        policy = detail({ acknowledgedByMe: true, acknowledgedCount: 2 });
        acks = {
          ...acknowledgements,
          acknowledged: [
            ...acknowledgements.acknowledged,
            { userId: 'u2', name: 'Test User', acknowledgedOn: '2026-02-01T00:00:00.000Z' },
          ],
          acknowledgedTotal: 2,
          pending: [{ userId: 'u3', name: 'Sam Staff' }],
          pendingTotal: 1,
        };
        return { body: policy };
      },
    });
    const { user } = renderApp(`/governance/policies/p1?orgId=${HOME_ORG_ID}`);
    const current = await screen.findByRole('region', { name: 'Current text' });
    expect(within(current).getByText('Staff use systems for work.')).toBeInTheDocument();
    const pending = await screen.findByRole('list', { name: 'People who have not acknowledged' });
    expect(within(pending).getByText('Test User')).toBeInTheDocument();
    await user.click(within(current).getByRole('button', { name: 'Acknowledge' }));
    expect(await within(current).findByText('You acknowledged this version')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/acknowledge'));
    expect(requestBody(post?.[1])).toEqual({ versionId: 'v1' });
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'People who have not acknowledged' })).queryByText(
          'Test User',
        ),
      ).not.toBeInTheDocument(),
    );
    // Readers do not approve.
    expect(screen.queryByRole('button', { name: 'Approve version 2' })).not.toBeInTheDocument();
  });

  it('approves a waiting version after confirming', async () => {
    let policy = detail();
    const fetchMock = stubApi({
      ...withAccess(['CUSTOM_POLICY_VIEW', 'CUSTOM_POLICY_EDIT']),
      [`GET ${gov}/policy/p1`]: () => ({ body: policy }),
      [`GET ${gov}/policy/p1/acknowledgements`]: { body: acknowledgements },
      [`GET ${base}/user/summary`]: { body: [] },
      [`POST ${gov}/policy/p1/version/v2/approve`]: () => {
        const [v2, v1] = detail().versions;
        policy = detail({
          currentVersion: { id: 'v2', number: 2, approvedOn: '2026-02-01T00:00:00.000Z' },
          versions: [{ ...v2!, approvedByName: 'Test User', approvedOn: '2026-02-01T00:00:00.000Z' }, v1!],
        });
        return { body: policy };
      },
    });
    const { user } = renderApp(`/governance/policies/p1?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Approve version 2' }));
    const confirm = await screen.findByRole('dialog', { name: 'Approve version' });
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('heading', { name: 'Current: version 2' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/version/v2/approve'))).toBe(true);
  });

  it('lists the deleted policies to editors and restores one without asking', async () => {
    let deleted = [
      { ...summary({ id: 'p8', name: 'Remote Access' }), deletedOn: '2026-03-01T09:00:00.000Z' },
      { ...summary({ id: 'p9', name: 'Clean Desk' }), deletedOn: '2026-02-01T09:00:00.000Z' },
    ];
    let live = [summary()];
    const fetchMock = stubApi({
      ...withAccess(['CUSTOM_POLICY_VIEW', 'CUSTOM_POLICY_EDIT']),
      [`GET ${gov}/policies`]: () => ({ body: live }),
      [`GET ${gov}/policies/deleted`]: () => ({ body: deleted }),
      [`POST ${gov}/policy/p8/restore`]: () => {
        live = [...live, summary({ id: 'p8', name: 'Remote Access' })];
        deleted = deleted.filter((policy) => policy.id !== 'p8');
        return { body: detail({ id: 'p8', name: 'Remote Access' }) };
      },
    });
    const { user } = renderApp(`/governance/policies?orgId=${HOME_ORG_ID}`);
    await screen.findByRole('link', { name: 'Acceptable Use' });
    await user.click(screen.getByRole('radio', { name: 'Deleted' }));
    const table = await screen.findByRole('table', { name: 'Deleted' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      expect.stringContaining('Name'),
      expect.stringContaining('Remote Access'),
      expect.stringContaining('Clean Desk'),
    ]);
    await user.click(within(table).getByRole('button', { name: 'Restore Remote Access' }));
    expect(await screen.findByText('Remote Access restored.')).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('Remote Access')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/p8/restore') && init?.method === 'POST',
      ),
    ).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Current' }));
    expect(await screen.findByRole('link', { name: 'Remote Access' })).toBeInTheDocument();
  });

  it('offers the deleted view only to editors', async () => {
    stubApi({ ...withAccess(['CUSTOM_POLICY_VIEW']), [`GET ${gov}/policies`]: { body: [summary()] } });
    renderApp(`/governance/policies?orgId=${HOME_ORG_ID}`);
    await screen.findByRole('link', { name: 'Acceptable Use' });
    expect(screen.queryByRole('radio', { name: 'Deleted' })).not.toBeInTheDocument();
  });

  it('pages the people who have not acknowledged and the versions', async () => {
    const people = Array.from({ length: 30 }, (_, index) => ({
      userId: `u${index}`,
      name: `Person ${String(index + 1).padStart(2, '0')}`,
    }));
    const versions = Array.from({ length: 12 }, (_, index) => ({
      ...detail().versions[1]!,
      id: `v${12 - index}`,
      number: 12 - index,
    }));
    const fetchMock = stubApi({
      ...withAccess(['CUSTOM_POLICY_VIEW']),
      [`GET ${gov}/policy/p1`]: { body: detail({ versions, latestVersionNumber: 12 }) },
      [`GET ${gov}/policy/p1/acknowledgements`]: ({ url }) => {
        const query = new URL(url, 'http://localhost').searchParams;
        const page = Number(query.get('pendingPage'));
        const size = Number(query.get('pageSize'));
        return {
          body: {
            ...acknowledgements,
            pending: people.slice((page - 1) * size, page * size),
            pendingTotal: people.length,
          },
        };
      },
    });
    const { user } = renderApp(`/governance/policies/p1?orgId=${HOME_ORG_ID}`);
    const pending = await screen.findByRole('list', { name: 'People who have not acknowledged' });
    expect(within(pending).getAllByRole('listitem')).toHaveLength(25);
    expect(screen.getByText('Not yet (30)')).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Acknowledgements' });
    await user.click(within(card).getByRole('button', { name: '2' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'People who have not acknowledged' })).getAllByRole(
          'listitem',
        ),
      ).toHaveLength(5),
    );
    expect(screen.getByText('Person 30')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(
        ([url]) => String(url).includes('pendingPage=2') && String(url).includes('pageSize=25'),
      ),
    ).toBe(true);

    const history = screen.getByRole('region', { name: 'Versions' });
    expect(within(history).getByText('Version 12')).toBeInTheDocument();
    expect(within(history).queryByText('Version 2')).not.toBeInTheDocument();
    await user.click(within(history).getByRole('button', { name: '2' }));
    expect(await within(history).findByText('Version 2')).toBeInTheDocument();
    expect(within(history).queryByText('Version 12')).not.toBeInTheDocument();
  });
});
