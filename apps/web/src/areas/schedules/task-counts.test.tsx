import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base } from '../assets/test-fixtures';

describe('tasks created by schedules', () => {
  it('counts tasks per schedule over the chosen timeframe', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', 'TASK_SCHEDULE_VIEW'] }),
      ),
      [`GET ${base}/task-schedules`]: { body: { items: [], total: 0 } },
      [`GET ${base}/task-schedules/task-counts`]: ({ url }) => {
        const timeframe = new URL(url, 'http://x').searchParams.get('timeframe');
        const sinceLastRun = timeframe === 'SINCE_LAST_RUN';
        return {
          body: {
            timeframe,
            from: sinceLastRun ? null : '2026-02-22T09:00:00.000Z',
            to: '2026-03-01T09:00:00.000Z',
            items: [
              {
                scheduleId: 's1',
                name: 'Weekly review',
                lastRanAt: '2026-02-28T09:00:00.000Z',
                created: sinceLastRun ? 1 : 4,
                open: 1,
                closed: sinceLastRun ? 0 : 3,
                overdue: 1,
              },
            ],
          },
        };
      },
    });
    const { user } = renderApp(`/task-schedules?orgId=${HOME_ORG_ID}`);
    const table = await screen.findByRole('table', { name: 'Tasks created by schedules' });
    const row = within(table).getByText('Weekly review').closest('tr')!;
    expect([...row.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      'Weekly review',
      '4',
      '1',
      '3',
      '1',
    ]);
    await user.click(screen.getByRole('combobox', { name: 'Timeframe' }));
    await user.click(await screen.findByRole('option', { name: 'Since last run' }));
    expect(await screen.findByText("Since each schedule's last run")).toBeInTheDocument();
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url]) => String(url).endsWith('task-counts?timeframe=SINCE_LAST_RUN')),
      ).toBe(true),
    );
  });
});
