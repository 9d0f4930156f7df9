import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import { signedInRoutes } from '../test/session-fixtures';

describe('not-found page', () => {
  it('names the requested path and links back to the dashboards', async () => {
    stubApi({
      ...signedInRoutes,
      'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'pglite' } },
    });
    const { user, router } = renderApp('/no/such/page?orgId=3');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('The page /no/such/page does not exist.')).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to dashboards' }));
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboards/default');
  });
});
