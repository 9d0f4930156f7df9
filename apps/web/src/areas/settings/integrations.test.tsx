import { screen, waitFor, within } from '@testing-library/react';
import type { Integration, S3LogSource } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

const integration = (overrides: Partial<Integration>): Integration => ({
  id: 'i1',
  kind: 'AWS',
  name: 'Production',
  settings: { accountId: '123456789012', integrationType: 'CLOUDTRAIL' },
  secretsSet: {},
  status: 'STALE',
  lastDataAt: '2026-03-01T09:00:00.000Z',
  lastError: null,
  lastValidatedAt: null,
  createdOn: '2026-02-01T09:00:00.000Z',
  modifiedOn: '2026-02-01T09:00:00.000Z',
  ...overrides,
});

const source: S3LogSource = {
  id: 's1',
  integrationId: 'i1',
  bucket: 'bank-trail',
  roleArn: null,
  prefix: '',
  logsType: 'CLOUDTRAIL',
  enabled: true,
  status: 'ERROR',
  objectsRead: 12,
  eventsIngested: 340,
  failedObjects: 1,
  lastPolledAt: '2026-03-01T09:00:00.000Z',
  lastDataAt: '2026-03-01T09:00:00.000Z',
  lastError: 'AWSLogs/x.json.gz: Unexpected end of file',
  lastErrorKey: null,
  createdOn: '2026-02-01T09:00:00.000Z',
};

const withPermissions = (permissions: string[]) =>
  orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }));

const listOf =
  (items: Integration[]) =>
  ({ url }: { url: string }) => {
    const kind = new URL(url, 'http://x').searchParams.get('kind');
    const page = items.filter((item) => item.kind === kind);
    return { body: { items: page, total: page.length } };
  };

describe('integrations page', () => {
  it('lists AWS accounts with their status, validates the form and shows the server refusal beside its field', async () => {
    const items = [integration({})];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...withPermissions(['INTEGRATION_VIEW', 'INTEGRATION_EDIT']),
      [`GET ${base}/integrations`]: listOf(items),
      [`POST ${base}/integrations`]: () => ({
        status: 409,
        body: {
          ...apiError('CLOUD_INTEGRATION_EXISTS', 'ConflictException'),
          field: 'settings.accountId',
          params: { accountId: '123456789012' },
        },
      }),
    });
    const { user } = renderApp(`/settings/integrations?orgId=${HOME_ORG_ID}`);
    const row = (await screen.findByText('Production')).closest('tr')!;
    expect(within(row).getByText('Last received over 24 hours')).toBeInTheDocument();
    expect(within(row).getByText('123456789012')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    const form = await screen.findByRole('dialog', { name: 'Add AWS integration' });
    await user.type(within(form).getByRole('textbox', { name: /Account id/ }), '12345');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('This field is required.')).toBeInTheDocument();
    expect(within(form).getByText('The cloud account id must be a 12-digit number.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.type(within(form).getByRole('textbox', { name: /Name/ }), 'Staging');
    await user.clear(within(form).getByRole('textbox', { name: /Account id/ }));
    await user.type(within(form).getByRole('textbox', { name: /Account id/ }), '123456789012');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await within(form).findByText('A cloud integration for account 123456789012 already exists.'),
    ).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(body(post[1])).toEqual({
      kind: 'AWS',
      name: 'Staging',
      settings: { accountId: '123456789012', integrationType: 'CLOUDTRAIL' },
    });
  });

  it('shows secrets as set, keeps them when the replace field is left blank, and deletes after confirming', async () => {
    let items = [
      integration({
        id: 'f1',
        kind: 'FINXACT',
        name: 'Core',
        status: 'NO_DATA',
        lastDataAt: null,
        settings: { url: 'https://core.example', clientId: 'vigil', userRole: 'reader' },
        secretsSet: { clientSecret: true },
      }),
    ];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...withPermissions(['INTEGRATION_VIEW', 'INTEGRATION_EDIT']),
      [`GET ${base}/integrations`]: ({ url }) => listOf(items)({ url }),
      [`PUT ${base}/integration/f1`]: ({ init }) => ({
        body: { ...items[0], ...body(init), secretsSet: { clientSecret: true } },
      }),
      [`DELETE ${base}/integration/f1`]: () => {
        items = [];
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/settings/integrations?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('tab', { name: 'Finxact' }));
    await user.click(await screen.findByRole('button', { name: 'Edit Core' }));
    const form = await screen.findByRole('dialog', { name: 'Edit Core' });
    expect(within(form).getByText('Set')).toBeInTheDocument();
    expect(within(form).getByLabelText('Replace Client secret')).toHaveValue('');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(body(put[1])).toMatchObject({ kind: 'FINXACT', name: 'Core', secrets: { clientSecret: null } });

    await user.click(await screen.findByRole('button', { name: 'Delete Core' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete integration' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No integrations yet')).toBeInTheDocument();
  });

  it("shows an AWS account's log sources with progress and errors to a viewer, without edit buttons", async () => {
    stubApi({
      ...signedInRoutes,
      ...withPermissions(['INTEGRATION_VIEW']),
      [`GET ${base}/integrations`]: listOf([integration({})]),
      [`GET ${base}/integration/i1/log-sources`]: () => ({ body: { items: [source], total: 1 } }),
    });
    const { user } = renderApp(`/settings/integrations?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Log sources of Production' }));
    const drawer = await screen.findByRole('dialog', { name: 'S3 log sources of Production' });
    expect(await within(drawer).findByText('12 objects · 340 events · 1 failed')).toBeInTheDocument();
    expect(within(drawer).getByText('AWSLogs/x.json.gz: Unexpected end of file')).toBeInTheDocument();
    // A viewer may look but not change.
    expect(within(drawer).queryByRole('button', { name: 'Add log source' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add integration' })).not.toBeInTheDocument();
  });

  it("shows the organisation's external id in the log source form and a role that was not assumed", async () => {
    const refused: S3LogSource = {
      ...source,
      roleArn: 'arn:aws:iam::123456789012:role/log-reader',
      objectsRead: 0,
      eventsIngested: 0,
      failedObjects: 0,
      lastError: 'The role arn:aws:iam::123456789012:role/log-reader could not be assumed: Access denied',
      lastErrorKey: 'INTEGRATION_ROLE_NOT_ASSUMED',
    };
    stubApi({
      ...signedInRoutes,
      ...withPermissions(['INTEGRATION_VIEW', 'INTEGRATION_EDIT']),
      [`GET ${base}/integrations`]: listOf([integration({})]),
      [`GET ${base}/integration/i1/log-sources`]: () => ({ body: { items: [refused], total: 1 } }),
    });
    const { user } = renderApp(`/settings/integrations?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Log sources of Production' }));
    const drawer = await screen.findByRole('dialog', { name: 'S3 log sources of Production' });
    expect(
      await within(drawer).findByText(/The log source's access role could not be assumed .* Access denied$/),
    ).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Add log source' }));
    const form = await screen.findByRole('dialog', { name: 'Add S3 log source' });
    expect(within(form).getByRole('textbox', { name: 'External id' })).toHaveValue(HOME_ORG_ID);
  });

  it('opens the Azure variant on its tab', async () => {
    stubApi({
      ...signedInRoutes,
      ...withPermissions(['INTEGRATION_VIEW']),
      [`GET ${base}/integrations`]: listOf([]),
    });
    renderApp(`/settings/integrations/azure?orgId=${HOME_ORG_ID}`);
    expect(
      await screen.findByRole('tab', { name: 'Azure / Office 365', selected: true }),
    ).toBeInTheDocument();
  });
});
