import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { asset, base, withPermissions } from './test-fixtures';

describe('asset details page', { timeout: 60_000 }, () => {
  it('shows the asset with its labels, hostnames, addresses and software, and edits it in the dialog', async () => {
    const shown = asset({ description: 'Perimeter firewall, primary site.' });
    stubApi({
      ...withPermissions(['ASSET_VIEW', 'ASSET_EDIT']),
      [`GET ${base}/asset/${shown.id}`]: { body: shown },
      [`GET ${base}/asset/${shown.id}/software`]: {
        body: { items: [{ name: 'FortiOS', version: '7.4.3', lastSeen: '2026-03-01T10:00:00.000Z' }] },
      },
    });
    const { user } = renderApp(`/assets/${shown.id}?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Core firewall' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Importance: High' })).toBeInTheDocument();
    expect(screen.getByText('Tracked')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Firewall' })).toHaveAttribute(
      'href',
      `/assets?labels=Firewall&orgId=${HOME_ORG_ID}`,
    );
    expect(screen.getByText('fw01.bank.example')).toBeInTheDocument();
    expect(screen.getByText('00:1a:2b:3c:4d:5e')).toBeInTheDocument();
    expect(screen.getByText('Private')).toBeInTheDocument();
    expect(screen.getByText('Perimeter firewall, primary site.')).toBeInTheDocument();
    expect(await screen.findByText('FortiOS')).toBeInTheDocument();
    expect(screen.getByText('7.4.3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Core firewall' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Core firewall');
  });

  it('says that no asset has the ID', async () => {
    stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/asset/missing-id`]: {
        status: 404,
        body: {
          type: 'NotFoundException',
          key: 'ASSET_NOT_FOUND',
          message: 'not found',
          params: { 0: 'missing-id' },
          errorId: 'e',
        },
      },
    });
    renderApp(`/assets/missing-id?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('No asset currently exists with an ID: missing-id')).toBeInTheDocument();
  });

  it('needs ASSET_VIEW', async () => {
    stubApi(withPermissions([]));
    renderApp(`/assets/some-id?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });
});
