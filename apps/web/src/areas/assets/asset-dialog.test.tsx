import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { asset, base, requestBody, untracked, withPermissions } from './test-fixtures';

const listWith = (permissions: string[], items = [asset(), untracked()]) => ({
  ...withPermissions(['ASSET_VIEW', ...permissions]),
  [`GET ${base}/assets/search`]: { body: { items, total: items.length } },
});

describe('asset dialog', { timeout: 60_000 }, () => {
  it('adds an asset once its details and addresses are valid, showing address problems inline', async () => {
    const fetchMock = stubApi({
      ...listWith(['ASSET_EDIT']),
      [`POST ${base}/asset`]: ({ init }) => ({
        status: 201,
        body: asset({ ...requestBody(init), id: 'new' }),
      }),
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Add asset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add asset' });
    const save = within(dialog).getByRole('button', { name: 'Add asset' });
    expect(save).toBeDisabled();
    expect(within(dialog).queryByRole('tab', { name: 'Software' })).not.toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '  Mail gateway ');
    expect(save).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Importance' }));
    await user.click(await screen.findByRole('option', { name: 'Medium' }));
    expect(save).toBeEnabled();

    const labels = within(dialog).getByRole('combobox', { name: 'Labels' });
    await user.type(labels, ' Payments {Enter}');
    await user.type(labels, 'Payments{Enter}');
    await user.type(labels, '   {Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Add hostname' }));
    const hostname = within(dialog).getByRole('textbox', { name: 'Hostname 1' });
    await user.click(hostname);
    await user.tab();
    expect(within(dialog).getByText('Enter a hostname, or remove this line.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(hostname, 'mail01.bank.example');
    expect(save).toBeEnabled();

    await user.click(within(dialog).getByRole('tab', { name: 'IP/MAC' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add IP/MAC pair' }));
    const ip = within(dialog).getByRole('textbox', { name: 'IP address 1' });
    const mac = within(dialog).getByRole('textbox', { name: 'MAC address 1' });
    await user.click(ip);
    await user.tab();
    expect(within(dialog).getByText('Enter an IP address, a MAC address or both.')).toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.type(ip, '10.0.0.300');
    await user.type(mac, 'not-a-mac');
    await user.tab();
    expect(within(dialog).getByText('Enter a valid IP address.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a valid MAC address.')).toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.clear(ip);
    await user.type(ip, '10.0.0.30');
    await user.clear(mac);
    await user.type(mac, '00-1A-2B-3C-4D-5F');
    expect(within(dialog).queryByText('Enter a valid IP address.')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Private')).toBeInTheDocument();
    expect(save).toBeEnabled();

    await user.click(save);
    expect(await screen.findByText('The asset has been added.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/asset` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toEqual({
      name: 'Mail gateway',
      importance: 'medium',
      tag: null,
      owner: null,
      description: null,
      labels: ['Payments'],
      hostnames: ['mail01.bank.example'],
      ipMacPairs: [{ ip: '10.0.0.30', mac: '00-1A-2B-3C-4D-5F' }],
    });
  });

  it('shows an address already in use beside the pair the server names, on the IP/MAC tab', async () => {
    const twoPairs = untracked({
      ipMacPairs: [
        { ip: '10.0.0.9', mac: null },
        { ip: '10.0.0.10', mac: '00:1a:2b:3c:4d:60' },
      ],
    });
    stubApi({
      ...listWith(['ASSET_EDIT'], [twoPairs]),
      [`PUT ${base}/asset/${twoPairs.id}`]: {
        status: 409,
        body: {
          ...apiError('ASSET_IP_OR_MAC_IN_USE', 'ConflictException'),
          field: 'ipMacPairs.1.mac',
          params: { value: '00:1a:2b:3c:4d:60' },
        },
      },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByText('host-10-0-0-9'));
    const dialog = await screen.findByRole('dialog', { name: 'host-10-0-0-9' });
    expect(within(dialog).getByRole('tab', { name: 'Info' })).toHaveAttribute('aria-selected', 'true');
    await user.type(within(dialog).getByRole('textbox', { name: 'Owner' }), 'Ops');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(within(dialog).getByRole('tab', { name: 'IP/MAC' })).toHaveAttribute('aria-selected', 'true'),
    );
    const message = 'This IP or MAC address already belongs to another asset.';
    expect(within(dialog).getByRole('textbox', { name: 'MAC address 2' })).toHaveAccessibleDescription(
      message,
    );
    expect(within(dialog).getByRole('textbox', { name: 'MAC address 1' })).not.toHaveAccessibleDescription(
      message,
    );
    expect(within(dialog).getByRole('textbox', { name: 'IP address 2' })).not.toHaveAccessibleDescription(
      message,
    );
    // Changing the refused address clears its message.
    await user.type(within(dialog).getByRole('textbox', { name: 'MAC address 2' }), '1');
    expect(within(dialog).queryByText(message)).not.toBeInTheDocument();
  });

  it('notifies other save failures with the catalogue text', async () => {
    stubApi({
      ...listWith(['ASSET_EDIT'], [untracked()]),
      [`PUT ${base}/asset/${untracked().id}`]: {
        status: 500,
        body: { type: 'ServerException', key: 'SOMETHING_ELSE', message: '', errorId: 'e' },
      },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByText('host-10-0-0-9'));
    const dialog = await screen.findByRole('dialog', { name: 'host-10-0-0-9' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The asset could not be saved.')).toBeInTheDocument();
  });

  it('is read-only without ASSET_EDIT, and lists the software', async () => {
    stubApi({
      ...listWith([]),
      [`GET ${base}/asset/${untracked().id}/software`]: {
        body: { items: [{ name: 'OpenSSH', version: '9.6p1', lastSeen: null }] },
      },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Open host-10-0-0-9' }));
    const dialog = await screen.findByRole('dialog', { name: 'host-10-0-0-9' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Edit asset' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Delete asset' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Merge into…' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'IP/MAC' }));
    expect(within(dialog).getByRole('textbox', { name: 'IP address 1' })).toHaveAttribute('readonly');
    expect(within(dialog).queryByRole('button', { name: 'Add IP/MAC pair' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Software' }));
    expect(await within(dialog).findByText('OpenSSH')).toBeInTheDocument();
    expect(within(dialog).getByText('9.6p1')).toBeInTheDocument();
  });

  it('toggles editing of a tracked asset with the pen, and says when its software cannot be loaded', async () => {
    stubApi({
      ...listWith(['ASSET_EDIT']),
      [`GET ${base}/asset/${asset().id}/software`]: {
        status: 403,
        body: apiError('PERMISSION_DENIED', 'AccessDeniedException'),
      },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Open Core firewall' }));
    const dialog = await screen.findByRole('dialog', { name: 'Core firewall' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('readonly');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Edit asset' }));
    expect(name).not.toHaveAttribute('readonly');
    await user.clear(name);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Stop editing' }));
    expect(name).toHaveAttribute('readonly');
    expect(name).toHaveValue('Core firewall');
    expect(within(dialog).getByRole('button', { name: 'Edit asset' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Software' }));
    // The notification's title is the action, its message the server's reason.
    expect(await screen.findByText('You do not have permission to do this.')).toBeInTheDocument();
    expect(screen.getAllByText('The software could not be loaded.').length).toBeGreaterThan(0);
  });

  it('edits an untracked asset at once, and merges it into a tracked asset after confirming', async () => {
    const fetchMock = stubApi({
      ...listWith(['ASSET_EDIT']),
      [`GET ${base}/assets/search`]: ({ url }) =>
        url.includes('tracked=tracked')
          ? { body: { items: [asset()], total: 1 } }
          : { body: { items: [asset(), untracked()], total: 2 } },
      [`POST ${base}/assets/merge`]: { status: 204 },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Open host-10-0-0-9' }));
    const dialog = await screen.findByRole('dialog', { name: 'host-10-0-0-9' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('readonly');
    expect(within(dialog).queryByRole('button', { name: 'Edit asset' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Merge into…' }));
    await user.type(within(dialog).getByRole('combobox', { name: 'Tracked asset' }), 'core');
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        expect.stringMatching(/tracked=tracked.*query=core/),
        expect.anything(),
      ),
    );
    await user.click(await screen.findByRole('option', { name: 'Core firewall' }));
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    const confirm = await screen.findByRole('dialog', { name: 'Merge host-10-0-0-9 into Core firewall?' });
    await user.click(within(confirm).getByRole('button', { name: 'Merge' }));

    expect(await screen.findByText('host-10-0-0-9 has been merged into Core firewall.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => url === `${base}/assets/merge`);
    expect(requestBody(post?.[1])).toEqual({ trackedAsset: asset().id, untrackedAsset: untracked().id });
  });

  it('deletes a saved asset after confirming', async () => {
    const fetchMock = stubApi({
      ...listWith(['ASSET_EDIT']),
      [`DELETE ${base}/assets`]: { status: 204 },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Open Core firewall' }));
    const dialog = await screen.findByRole('dialog', { name: 'Core firewall' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete asset' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Core firewall?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete asset' }));

    expect(await screen.findByText('The asset has been deleted.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      `${base}/assets?assetId=${asset().id}`,
      expect.objectContaining({ method: 'DELETE' }),
    );
  });
});
