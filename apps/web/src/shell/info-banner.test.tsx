import { screen, waitFor } from '@testing-library/react';
import type { Banner } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import { HOME_ORG_ID, signedInRoutes } from '../test/session-fixtures';

const banner = (id: string, type: Banner['type'], hyperlink: string | null = null): Banner => ({
  id,
  type,
  title: `Banner ${id}`,
  message: `Message ${id}`,
  hyperlink,
});

describe('info banner', () => {
  it('shows one banner at a time and the next after a dismissal', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      'GET /api/org/all/banners': {
        body: [banner('b1', 'warning', 'https://status.example/incident'), banner('b2', 'info')],
      },
      'POST /api/banners/b1/dismiss': { status: 204 },
    });
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Banner b1')).toBeInTheDocument();
    expect(screen.getByText('Message b1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Learn more' })).toHaveAttribute(
      'href',
      'https://status.example/incident',
    );
    expect(screen.queryByText('Banner b2')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));

    expect(await screen.findByText('Banner b2')).toBeInTheDocument();
    expect(screen.queryByText('Banner b1')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Learn more' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/banners/b1/dismiss',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('says when the banners cannot be loaded', async () => {
    stubApi({
      ...signedInRoutes,
      'GET /api/org/all/banners': {
        status: 403,
        body: apiError('PERMISSION_DENIED', 'AccessDeniedException'),
      },
    });
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    await waitFor(() =>
      expect(screen.getByText('The information banners could not be loaded.')).toBeInTheDocument(),
    );
  });
});
