import { screen, waitFor, within } from '@testing-library/react';
import type { ActivityLogEntry } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const logPath = `/api/org/${HOME_ORG_ID}/activity-logs`;

const renamed: ActivityLogEntry = {
  id: 7,
  createdAt: '2026-03-01T09:00:00.000Z',
  action: 'tag.updated',
  actorUserId: '00000000-0000-4000-8000-0000000000aa',
  actorName: 'Ada Lovelace',
  targetType: 'tag',
  targetId: 't1',
  details: {
    before: { name: 'Wire fraud', color: 'red' },
    after: { name: 'Wire transfer fraud', color: 'red' },
  },
  ip: '203.0.113.9',
};

describe('activity log page', () => {
  it('lists entries, shows a change as before and after, and filters by action', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', 'ACTIVITY_LOG_VIEW'] }),
      ),
      [`GET ${logPath}`]: ({ url }) => ({
        body: url.includes('action=org.') ? { items: [], total: 0 } : { items: [renamed], total: 1 },
      }),
    });
    const { user } = renderApp(`/settings/activity-log?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('tag.updated')).toBeInTheDocument();
    const row = screen.getByText('tag.updated').closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Details' }));
    const before = screen.getByRole('columnheader', { name: 'Before' }).closest('table')!;
    expect(within(before).getByText('Wire fraud')).toBeInTheDocument();
    expect(within(before).getByText('Wire transfer fraud')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Action' }), 'org.');
    expect(await screen.findByText('No activity matches these filters.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        expect.stringContaining(`${logPath}?action=org.&pageSize=25&pageNumber=1`),
        expect.anything(),
      ),
    );
  });

  it('tells a user without ACTIVITY_LOG_VIEW that the page is not for them', async () => {
    stubApi({ ...signedInRoutes });
    renderApp(`/settings/activity-log?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText(/permission/i)).toBeInTheDocument();
  });
});
