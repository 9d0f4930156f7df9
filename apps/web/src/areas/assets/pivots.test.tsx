import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRouter,
  RouterProvider,
  type AnyRouter,
} from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import '../../lib/i18n';
import { createQueryClient } from '../../lib/query';
import { currentUserQuery, permissionsQuery } from '../../lib/session';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, testUser } from '../../test/session-fixtures';
import { AssetPivot, HashPivot, searchAroundUrl, useAssetsForIps } from './pivots';
import { asset, base, withPermissions } from './test-fixtures';

/** Renders `ui` for a signed-in user holding `permissions` in the home organisation, at /?orgId=. */
function renderWithPermissions(ui: ReactNode, permissions: string[]) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(currentUserQuery.queryKey, testUser);
  queryClient.setQueryData(permissionsQuery(HOME_ORG_ID).queryKey, permissions);
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <>{ui}</> }),
    history: createMemoryHistory({ initialEntries: [`/?orgId=${HOME_ORG_ID}`] }),
  });
  const user = userEvent.setup();
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router as AnyRouter} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { user };
}

const EVENT_TIME = '2026-03-01T10:00:00.000Z';
const SHA256 = 'a'.repeat(64);

/** The query parameters of a link's /search address. */
const searchOf = (link: HTMLElement) => {
  const url = new URL(link.getAttribute('href') ?? '', 'http://localhost');
  expect(url.pathname).toBe('/search');
  return Object.fromEntries(url.searchParams);
};

describe('asset pivots', { timeout: 60_000 }, () => {
  it('offers event searches of ±1 and ±5 minutes and lookups for a public IP, in new tabs', async () => {
    const pivoted = asset({
      lastSeen: EVENT_TIME,
      ipMacPairs: [
        { ip: '203.0.113.7', mac: null },
        { ip: '10.0.0.1', mac: '00:1a:2b:3c:4d:5e' },
      ],
    });
    stubApi({
      ...withPermissions(['ASSET_VIEW', 'EVENT_VIEW']),
      [`GET ${base}/asset/${pivoted.id}`]: { body: pivoted },
      [`GET ${base}/asset/${pivoted.id}/software`]: { body: { items: [] } },
    });
    const { user } = renderApp(`/assets/${pivoted.id}?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Actions for 203.0.113.7' }));
    const menu = await screen.findByRole('menu');
    const oneMinute = within(menu).getByRole('menuitem', { name: 'Search ±1 minute' });
    expect(searchOf(oneMinute)).toEqual({
      query: 'ip:"203.0.113.7"',
      begin: '2026-03-01T09:59:00.000Z',
      end: '2026-03-01T10:01:00.000Z',
      orgId: HOME_ORG_ID,
    });
    expect(oneMinute).toHaveAttribute('target', '_blank');
    expect(oneMinute.getAttribute('rel')).toContain('noopener');
    expect(searchOf(within(menu).getByRole('menuitem', { name: 'Search ±5 minutes' }))).toMatchObject({
      begin: '2026-03-01T09:55:00.000Z',
      end: '2026-03-01T10:05:00.000Z',
    });
    const abuse = within(menu).getByRole('menuitem', { name: 'Look up in AbuseIPDB' });
    expect(abuse).toHaveAttribute('href', 'https://www.abuseipdb.com/check/203.0.113.7');
    expect(abuse).toHaveAttribute('target', '_blank');
    expect(within(menu).getByRole('menuitem', { name: 'Look up in Shodan' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Look up in VirusTotal' })).toBeInTheDocument();

    // A private address is searched but not looked up outside.
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for 10.0.0.1' }));
    const privateMenu = await screen.findByRole('menu');
    expect(within(privateMenu).getByRole('menuitem', { name: 'Search ±1 minute' })).toBeInTheDocument();
    expect(within(privateMenu).queryByRole('menuitem', { name: /Look up/ })).not.toBeInTheDocument();
  });

  it('shows addresses as plain text without EVENT_VIEW', async () => {
    const pivoted = asset({ ipMacPairs: [{ ip: '203.0.113.7', mac: null }] });
    stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/asset/${pivoted.id}`]: { body: pivoted },
      [`GET ${base}/asset/${pivoted.id}/software`]: { body: { items: [] } },
    });
    renderApp(`/assets/${pivoted.id}?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('203.0.113.7')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for 203.0.113.7' })).not.toBeInTheDocument();
  });

  it('offers searches and VirusTotal for a hash with EVENT_VIEW', async () => {
    const { user } = renderWithPermissions(<HashPivot hash={SHA256} eventTime={EVENT_TIME} />, [
      'EVENT_VIEW',
    ]);
    await user.click(await screen.findByRole('button', { name: `Actions for ${SHA256}` }));
    const menu = await screen.findByRole('menu');
    expect(searchOf(within(menu).getByRole('menuitem', { name: 'Search ±5 minutes' }))).toEqual({
      query: `hash:"${SHA256}"`,
      begin: '2026-03-01T09:55:00.000Z',
      end: '2026-03-01T10:05:00.000Z',
      orgId: HOME_ORG_ID,
    });
    expect(within(menu).getByRole('menuitem', { name: 'Look up in VirusTotal' })).toHaveAttribute(
      'href',
      `https://www.virustotal.com/gui/file/${SHA256}`,
    );
  });

  it('shows a hash and an asset as text without EVENT_VIEW', async () => {
    renderWithPermissions(
      <>
        <HashPivot hash={SHA256} eventTime={EVENT_TIME} />
        <AssetPivot asset={{ id: 'a1', name: 'Core firewall' }} />
      </>,
      ['ASSET_VIEW'],
    );
    expect(await screen.findByText(SHA256)).toBeInTheDocument();
    expect(screen.getByText('Core firewall')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('opens the details of an asset from its menu', async () => {
    const { user } = renderWithPermissions(<AssetPivot asset={{ id: 'a1', name: 'Core firewall' }} />, [
      'EVENT_VIEW',
      'ASSET_VIEW',
    ]);
    await user.click(await screen.findByRole('button', { name: 'Actions for Core firewall' }));
    const item = await screen.findByRole('menuitem', { name: 'Open asset details' });
    expect(item.getAttribute('href')).toMatch(/^\/assets\/a1(\?|$)/);
  });

  it('quotes the value in the search query', () => {
    const url = searchAroundUrl({
      field: 'user',
      value: 'say "hi"\\',
      eventTime: EVENT_TIME,
      minutes: 1,
      orgId: undefined,
    });
    expect(Object.fromEntries(new URL(url, 'http://localhost').searchParams)).toEqual({
      query: 'user:"say \\"hi\\"\\\\"',
      begin: '2026-03-01T09:59:00.000Z',
      end: '2026-03-01T10:01:00.000Z',
    });
  });
});

function AssetsOf({ ips }: { ips: string[] }) {
  const found = useAssetsForIps(ips, EVENT_TIME);
  return (
    <ul>
      {ips.map((ip) => (
        <li key={ip}>
          {ip}: {(found.get(ip) ?? []).map((item) => item.name).join(', ') || 'none'}
        </li>
      ))}
    </ul>
  );
}

describe('useAssetsForIps', { timeout: 60_000 }, () => {
  const summary = (id: string, name: string) => ({ id, name, importance: 'high', tracked: true });

  it('looks up every address asked for at once in one call', async () => {
    const fetchMock = stubApi({
      [`GET ${base}/ip/assets`]: {
        body: {
          items: [
            { value: '10.0.0.1', assets: [summary('a1', 'Core firewall')] },
            { value: '2001:db8::1', assets: [summary('a2', 'Mail gateway')] },
            { value: '10.0.0.2', assets: [] },
          ],
        },
      },
    });
    renderWithPermissions(
      <>
        <AssetsOf ips={['10.0.0.1', '10.0.0.2']} />
        <AssetsOf ips={['2001:DB8:0::1', '10.0.0.1', 'not an address']} />
      </>,
      ['EVENT_VIEW'],
    );

    expect(await screen.findByText('2001:DB8:0::1: Mail gateway')).toBeInTheDocument();
    expect(screen.getAllByText('10.0.0.1: Core firewall')).toHaveLength(2);
    expect(screen.getByText('10.0.0.2: none')).toBeInTheDocument();
    const lookups = fetchMock.mock.calls.filter(([url]) => String(url).startsWith(`${base}/ip/assets?`));
    expect(lookups).toHaveLength(1);
    const params = new URL(String(lookups[0]?.[0]), 'http://localhost').searchParams;
    expect(params.getAll('address')).toEqual(['10.0.0.1', '10.0.0.2', '2001:DB8:0::1']);
    expect(params.get('timestamp')).toBe(EVENT_TIME);
  });

  it('fails silently, without a notification', async () => {
    const fetchMock = stubApi({
      [`GET ${base}/ip/assets`]: {
        status: 500,
        body: { type: 'ServerException', key: 'GENERIC_SERVER_ERROR', message: '', errorId: 'e' },
      },
    });
    renderWithPermissions(<AssetsOf ips={['10.0.0.1']} />, ['EVENT_VIEW']);

    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(expect.stringContaining('/ip/assets?'), expect.anything()),
    );
    expect(screen.getByText('10.0.0.1: none')).toBeInTheDocument();
    expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
  });
});
