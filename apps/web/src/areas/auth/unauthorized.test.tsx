import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';

describe('unauthorized page', () => {
  it('shows the refused path without its query string', async () => {
    renderApp(`/unauthorized?url=${encodeURIComponent('/settings/users?orgId=3')}`);

    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeInTheDocument();
    expect(screen.getByText('You are not authorised to open /settings/users.')).toBeInTheDocument();
    expect(screen.queryByText(/orgId/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboards' })).toHaveAttribute(
      'href',
      '/dashboards/default',
    );
  });

  it('still explains itself when no path is given', async () => {
    renderApp('/unauthorized');

    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeInTheDocument();
    expect(screen.getByText('You are not authorised to open this page.')).toBeInTheDocument();
  });
});
