import { screen, waitFor, within } from '@testing-library/react';
import type { CreatedInputToken, InputToken } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

const token = (overrides: Partial<InputToken>): InputToken => ({
  id: 'k1',
  kind: 'API',
  key: 'vgl_core000000000000000000',
  description: 'Core banking',
  state: 'active',
  expiresAt: null,
  revokedAt: null,
  revokedByName: null,
  lastUsedAt: '2026-03-02T09:00:00.000Z',
  createdBy: 'u1',
  createdByName: 'Grace Hopper',
  createdOn: '2026-03-01T09:00:00.000Z',
  queueName: null,
  cloudAccessKeyId: null,
  hasCloudSecret: false,
  ...overrides,
});

const core = token({});
const oldFeed = token({
  id: 'k2',
  key: 'vgl_old0000000000000000000',
  description: 'Old feed',
  state: 'expired',
});
const lost = token({
  id: 'k3',
  key: 'vgl_lost000000000000000000',
  description: 'Lost laptop',
  state: 'revoked',
});

const withPermissions = (permissions: string[]) =>
  orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }));

describe('input tokens page', () => {
  it('lists tokens with their states, creates one showing its secret once, and revokes after confirming', async () => {
    let items: InputToken[] = [core, oldFeed, lost];
    const created: CreatedInputToken = {
      ...token({ id: 'k4', key: 'vgl_new0000000000000000000', description: 'Branch uploads' }),
      secret: 'vgl_new0000000000000000000.c2VjcmV0LXNob3duLW9uY2Utb25seS1ub3QtYWdhaW4',
    };
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...withPermissions(['AUTH_TOKEN_VIEW', 'AUTH_TOKEN_EDIT']),
      [`GET ${base}/tokens`]: ({ url }) => {
        const kind = new URL(url, 'http://x').searchParams.get('kind');
        const page = items.filter((item) => item.kind === kind);
        return { body: { items: page, total: page.length } };
      },
      [`POST ${base}/token/api`]: () => {
        const { secret: _secret, ...listed } = created;
        items = [listed, ...items];
        return { status: 201, body: created };
      },
      [`POST ${base}/token/k1/revoke`]: () => {
        const revoked = { ...core, state: 'revoked' as const, revokedAt: '2026-03-03T09:00:00.000Z' };
        items = items.map((item) => (item.id === 'k1' ? revoked : item));
        return { body: revoked };
      },
    });
    const { user } = renderApp(`/settings/input-tokens?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Core banking')).toBeInTheDocument();
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    expect(within(row('Core banking')).getByText('Active')).toBeInTheDocument();
    expect(within(row('Old feed')).getByText('Expired')).toBeInTheDocument();
    expect(within(row('Lost laptop')).getByText('Revoked')).toBeInTheDocument();
    expect(within(row('Core banking')).getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke Lost laptop' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create API token' }));
    const form = await screen.findByRole('dialog', { name: 'New API token' });
    await user.type(within(form).getByRole('textbox', { name: 'Description' }), ' Branch uploads ');
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Copy the token now' });
    expect(within(secretDialog).getByText(created.secret)).toBeInTheDocument();
    expect(within(secretDialog).getByText(/only time the token is shown/)).toBeInTheDocument();
    expect(within(secretDialog).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const posts = fetchMock.mock.calls.filter(([url]) => url === `${base}/token/api`);
    expect(body(posts[0]?.[1])).toEqual({ description: 'Branch uploads', expiresAt: null });
    await user.click(within(secretDialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByText(created.secret)).not.toBeInTheDocument());
    expect(await screen.findByText('Branch uploads')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke Core banking' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke token?' });
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/revoke'))).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(row('Core banking')).getByText('Revoked')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Revoke Core banking' })).not.toBeInTheDocument();
  });

  it('shows a viewer the tokens without controls, an empty kind, and a failed load', async () => {
    stubApi({
      ...signedInRoutes,
      ...withPermissions(['AUTH_TOKEN_VIEW']),
      [`GET ${base}/tokens`]: ({ url }) => {
        const kind = new URL(url, 'http://x').searchParams.get('kind');
        if (kind === 'INSTALLER')
          return { status: 403, body: apiError('PERMISSION_DENIED', 'AccessDeniedException') };
        return { body: kind === 'API' ? { items: [core], total: 1 } : { items: [], total: 0 } };
      },
      [`GET ${base}/tokens/external`]: { body: { token: null } },
    });
    const { user } = renderApp(`/settings/input-tokens?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Core banking')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create API token' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke Core banking' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Windows agent installer' }));
    expect(await screen.findByText('The tokens could not be loaded.')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'External data vendor' }));
    expect(await screen.findByText('No external data-vendor token has been set up.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create token' })).not.toBeInTheDocument();
  });

  it('sets up the external data-vendor token, showing its secret once, and deletes it after confirming', async () => {
    let current: InputToken | null = null;
    const created: CreatedInputToken = {
      ...token({
        id: 'x1',
        kind: 'EXTERNAL',
        key: 'vgl_ext0000000000000000000',
        description: '',
        queueName: 'vendor-queue',
        cloudAccessKeyId: 'AKIAEXAMPLE',
        hasCloudSecret: true,
        lastUsedAt: null,
      }),
      secret: 'vgl_ext0000000000000000000.ZXh0ZXJuYWwtc2VjcmV0LXNob3duLW9uY2Utb25seQ',
    };
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...withPermissions(['AUTH_TOKEN_VIEW', 'AUTH_TOKEN_EDIT']),
      [`GET ${base}/tokens`]: { body: { items: [], total: 0 } },
      [`GET ${base}/tokens/external`]: () => ({ body: { token: current } }),
      [`PUT ${base}/tokens/external`]: () => {
        const { secret: _secret, ...listed } = created;
        current = listed;
        return { status: 201, body: created };
      },
      [`DELETE ${base}/tokens/external`]: () => {
        current = null;
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/settings/input-tokens?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('tab', { name: 'External data vendor' }));
    await user.click(await screen.findByRole('button', { name: 'Create token' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(3);

    await user.type(screen.getByRole('textbox', { name: /Queue name/ }), 'vendor-queue');
    await user.type(screen.getByRole('textbox', { name: /Cloud access key id/ }), 'AKIAEXAMPLE');
    await user.type(screen.getByLabelText(/Cloud secret key/), 'very-secret');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Copy the token now' });
    expect(within(secretDialog).getByText(created.secret)).toBeInTheDocument();
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(body(puts[0]?.[1])).toEqual({
      description: '',
      queueName: 'vendor-queue',
      cloudAccessKeyId: 'AKIAEXAMPLE',
      cloudSecret: 'very-secret',
      expiresAt: null,
    });
    await user.click(within(secretDialog).getByRole('button', { name: 'I have copied it' }));
    expect(await screen.findByText('vendor-queue')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace token' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete token' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the external data-vendor token?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete token' }));
    expect(await screen.findByText('No external data-vendor token has been set up.')).toBeInTheDocument();
  });
});
