import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../test/session-fixtures';

const minutes = (count: number) => count * 60_000;

describe('session watcher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('warns after 25 idle minutes and logs out at 30, with its own message', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({
      ...signedInRoutes,
      'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'pglite' } },
      'POST /api/heartbeat': { status: 204 },
    });
    const { router } = renderApp('/dashboards/default');
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(minutes(25)));
    expect(screen.getByText('Without activity you will be logged out in 5 minutes.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/heartbeat', expect.objectContaining({ method: 'POST' }));

    await act(() => vi.advanceTimersByTimeAsync(minutes(5)));
    expect(
      await screen.findByText('You were logged out after 30 minutes without activity.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(fetchMock).toHaveBeenCalledWith('/api/user/logout', expect.objectContaining({ method: 'POST' }));
  });

  it('does not log out an idle user who switched the inactivity timeout off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider'), { inactivityTimeout: false }),
      'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'pglite' } },
      'POST /api/heartbeat': { status: 204 },
    });
    const { router } = renderApp('/dashboards/default');
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(`/api/org/${HOME_ORG_ID}/user/preferences`, expect.anything()),
    );

    await act(() => vi.advanceTimersByTimeAsync(minutes(31)));
    expect(router.state.location.pathname).toBe('/dashboards/default');
    expect(screen.queryByText(/you will be logged out/)).not.toBeInTheDocument();
  });
});
