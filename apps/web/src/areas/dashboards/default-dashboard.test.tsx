import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, signedInRoutes } from '../../test/session-fixtures';

describe('default dashboard', () => {
  it('is where the empty path leads, in the current organisation, and shows the system status', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'postgres' } },
    });
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboards/default');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });

    const card = screen.getByRole('region', { name: 'System status' });
    expect(await within(card).findByRole('row', { name: 'Version 6.55.2' })).toBeInTheDocument();
    expect(within(card).getByRole('row', { name: 'Database PostgreSQL' })).toBeInTheDocument();
    expect(within(card).getByRole('row', { name: 'Status Operational' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/health', expect.objectContaining({ method: 'GET' }));
  });

  it('shows why the system status could not be loaded', async () => {
    stubApi({
      ...signedInRoutes,
      'GET /api/health': { status: 429, body: apiError('GENERIC_RATE_LIMITED', 'RateLimitException') },
    });
    renderApp('/dashboards/default');

    const card = await screen.findByRole('region', { name: 'System status' });
    expect(await within(card).findByText('System status could not be loaded.')).toBeInTheDocument();
    expect(within(card).getByText('Too many requests. Wait a moment and try again.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
