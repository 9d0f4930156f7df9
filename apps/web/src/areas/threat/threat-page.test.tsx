import { screen, waitFor, within } from '@testing-library/react';
import type { ProductSku, ThreatIndicator, ThreatSource } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

const source = (overrides: Partial<ThreatSource> = {}): ThreatSource => ({
  id: 's1',
  domain: 'security',
  name: 'Vigil Threat Intel',
  description: 'Curated by the provider',
  url: null,
  type: 'COMMERCIAL',
  enabled: true,
  provider: true,
  subscribed: true,
  editable: false,
  indicatorCount: 2,
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const indicator = (overrides: Partial<ThreatIndicator> = {}): ThreatIndicator => ({
  id: 'i1',
  sourceId: 's2',
  type: 'DOMAIN',
  value: 'evil.example',
  rating: 'HIGH',
  severity: null,
  reason: 'phishing kit',
  validFrom: null,
  expiresAt: null,
  createdOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const withAccess = (permissions: string[], productSkus: ProductSku[] = []) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      org: { productSkus },
    }),
  ),
});

const EDIT = ['THREATMATCH_VIEW', 'THREATMATCH_EDIT'];
const own = source({ id: 's2', name: 'Branch blocklist', provider: false, editable: true, type: 'INTERNAL' });

describe('threat match page', { timeout: 60_000 }, () => {
  it('lists sources, subscribes, and deletes an own source after confirming', async () => {
    let items = [source(), own, source({ id: 's3', name: 'Open feed', subscribed: false })];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/threat-sources`]: () => ({ body: { items, total: items.length } }),
      [`PUT ${base}/threat-source/s3/subscription`]: ({ init }) => {
        const subscribed = requestBody(init).subscribed === true;
        items = items.map((item) => (item.id === 's3' ? { ...item, subscribed } : item));
        return { body: items.find((item) => item.id === 's3') };
      },
      [`DELETE ${base}/threat-source/s2`]: () => {
        items = items.filter((item) => item.id !== 's2');
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/threat?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Branch blocklist')).toBeInTheDocument();
    const listCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith(`${base}/threat-sources?`));
    expect(new URL(String(listCall?.[0]), 'http://x').searchParams.get('domain')).toBe('security');
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    // Provider sources cannot be edited by the organisation; own ones are always subscribed.
    expect(within(row('Vigil Threat Intel')).queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
    expect(
      within(row('Branch blocklist')).getByRole('switch', { name: 'Subscribed to Branch blocklist' }),
    ).toBeDisabled();

    const subscribe = within(row('Open feed')).getByRole('switch', { name: 'Subscribed to Open feed' });
    expect(subscribe).not.toBeChecked();
    await user.click(subscribe);
    await waitFor(() =>
      expect(within(row('Open feed')).getByRole('switch', { name: 'Subscribed to Open feed' })).toBeChecked(),
    );

    await user.click(screen.getByRole('button', { name: 'Delete Branch blocklist' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete threat source' });
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Branch blocklist')).not.toBeInTheDocument());
  });

  it('shows indicators and lists the bad lines of a refused upload', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/threat-sources`]: { body: { items: [own], total: 1 } },
      [`GET ${base}/threat-source/s2/indicators`]: { body: { items: [indicator()], total: 1 } },
      [`POST ${base}/threat-source/s2/indicators/upload`]: {
        body: {
          stored: 0,
          totalErrors: 2,
          errors: [
            { line: 2, field: 'value', key: 'THREAT_INDICATOR_INVALID_IP', value: 'not-an-ip' },
            {
              line: 3,
              field: 'rating',
              key: 'THREAT_INDICATOR_INVALID_RATING',
              value: 'SEVERE',
              validValues: ['HIGH', 'MEDIUM', 'LOW'],
            },
          ],
        },
      },
    });
    const { user } = renderApp(`/threat?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Indicators of Branch blocklist' }));
    const drawer = await screen.findByRole('dialog', { name: 'Indicators of Branch blocklist' });
    expect(await within(drawer).findByText('evil.example')).toBeInTheDocument();
    expect(within(drawer).getByText('phishing kit')).toBeInTheDocument();

    const file = new File(['value,rating\nnot-an-ip,HIGH\n'], 'bad.csv', { type: 'text/csv' });
    // Mantine's FileInput is a button over a hidden file input.
    await user.upload(drawer.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    await user.click(within(drawer).getByRole('button', { name: 'Upload indicators' }));
    const errors = await within(drawer).findByRole('table', { name: 'Problems in the uploaded file' });
    expect(within(errors).getByText('not-an-ip is not an IP address or CIDR range.')).toBeInTheDocument();
    expect(
      within(errors).getByText('SEVERE is not a valid indicator rating. Valid values: HIGH, MEDIUM, LOW.'),
    ).toBeInTheDocument();
    expect(within(drawer).getByText('Nothing was stored: 2 problems in the file.')).toBeInTheDocument();
    const upload = fetchMock.mock.calls.find(([url]) => String(url).includes('/indicators/upload'));
    expect(new URL(String(upload?.[0]), 'http://x').searchParams.get('type')).toBe('IP');
  });

  it('adds an indicator and shows a refused value in the form', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/threat-sources`]: { body: { items: [own], total: 1 } },
      [`GET ${base}/threat-source/s2/indicators`]: { body: { items: [], total: 0 } },
      [`POST ${base}/threat-source/s2/indicator`]: ({ init }) =>
        requestBody(init).value === 'bad'
          ? {
              status: 400,
              body: { ...apiError('THREAT_INDICATOR_INVALID_DOMAIN'), params: { value: 'bad' } },
            }
          : { status: 201, body: indicator({ value: String(requestBody(init).value) }) },
    });
    const { user } = renderApp(`/threat?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Indicators of Branch blocklist' }));
    const drawer = await screen.findByRole('dialog', { name: 'Indicators of Branch blocklist' });
    expect(await within(drawer).findByText('No indicators')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'New indicator' }));
    const form = await screen.findByRole('dialog', { name: 'New indicator' });
    await user.click(within(form).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Domain' }));
    await user.type(within(form).getByRole('textbox', { name: /Value/ }), 'bad');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('bad is not a domain name.')).toBeInTheDocument();
    await user.clear(within(form).getByRole('textbox', { name: /Value/ }));
    await user.type(within(form).getByRole('textbox', { name: /Value/ }), 'good.example');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New indicator' })).not.toBeInTheDocument(),
    );
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(requestBody(posts.at(-1)?.[1])).toMatchObject({
      type: 'DOMAIN',
      value: 'good.example',
      rating: 'HIGH',
    });
  });

  it('shows a viewer no controls, an empty list, and a failed load with retry', async () => {
    let fail = true;
    stubApi({
      ...withAccess(['THREATMATCH_VIEW']),
      [`GET ${base}/threat-sources`]: () =>
        fail
          ? { status: 403, body: apiError('PERMISSION_DENIED', 'AccessDeniedException') }
          : { body: { items: [], total: 0 } },
    });
    const { user } = renderApp(`/threat?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('The threat sources could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No threat sources yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New threat source' })).not.toBeInTheDocument();
  });

  it('keeps the fraud page to organisations with the fraud product', async () => {
    stubApi({ ...withAccess(EDIT) });
    renderApp(`/fraud/threat?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('lists fraud sources with the fraud product', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT, ['CYBERFRAUD_STANDARD']),
      [`GET ${base}/threat-sources`]: {
        body: { items: [source({ domain: 'fraud', name: 'Mule list' })], total: 1 },
      },
    });
    renderApp(`/fraud/threat?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Mule list')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Fraud threat match' })).toBeInTheDocument();
    const listCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith(`${base}/threat-sources?`));
    expect(new URL(String(listCall?.[0]), 'http://x').searchParams.get('domain')).toBe('fraud');
  });
});
