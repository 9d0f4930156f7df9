import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signedInRoutes } from '../../test/session-fixtures';

describe('knowledge-base page', () => {
  it('offers a retry when the knowledge base cannot be logged in to', async () => {
    let calls = 0;
    const fetchMock = stubApi({
      ...signedInRoutes,
      'GET /api/knowledge-base-login': () => {
        calls += 1;
        return { status: 502, body: apiError('GENERIC_SERVER_ERROR', 'ServerException') };
      },
    });
    const { user } = renderApp('/knowledge-base?r=%2Farticles%2F42');

    expect(await screen.findByText('Logging in to the knowledge base failed.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/knowledge-base-login?r=%2Farticles%2F42',
      expect.objectContaining({ method: 'GET' }),
    );

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toBe(2));
  });
});
