import { screen, waitFor, within } from '@testing-library/react';
import type { Classifier } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi, type StubRoute } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

const classifier = (overrides: Partial<Classifier> = {}): Classifier => ({
  id: 'c1',
  library: false,
  name: 'Core banking',
  description: 'Retail core banking systems',
  query: 'data_source:corebank',
  metadata: { business_unit: 'retail' },
  dropEvent: false,
  skipThreatMatch: true,
  skipAnomalyDetection: false,
  skipAssetDetection: false,
  acceleratedArchive: false,
  paused: false,
  position: 1,
  editable: true,
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const healthChecks = classifier({
  id: 'c2',
  name: 'Proxy health checks',
  description: '',
  query: 'host:proxy* AND "GET /health"',
  metadata: {},
  dropEvent: true,
  skipThreatMatch: false,
  paused: true,
  position: 2,
});

/** A signed-in user of the home organisation with these permissions and products. */
const session = (permissions: string[], productSkus: string[] = []): Record<string, StubRoute> => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      org: { productSkus: productSkus as never },
    }),
  ),
});

const EDITOR = ['CLASSIFIER_VIEW', 'CLASSIFIER_EDIT'];

describe('classifiers page', () => {
  it('lists classifiers in order with their attributes and options, moves, pauses and deletes them', async () => {
    let items = [classifier(), healthChecks];
    const orders: unknown[] = [];
    const pauses: unknown[] = [];
    const fetchMock = stubApi({
      ...session(EDITOR),
      [`GET ${base}/classifiers`]: () => ({ body: { items, total: items.length, editable: true } }),
      [`PUT ${base}/classifiers/order`]: ({ init }) => {
        orders.push(requestBody(init));
        return { status: 204 };
      },
      [`PUT ${base}/classifiers/c2/paused`]: ({ init }) => {
        pauses.push(requestBody(init));
        return { body: { ...healthChecks, paused: false } };
      },
      [`DELETE ${base}/classifiers/c1`]: () => {
        items = items.filter((item) => item.id !== 'c1');
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Core banking')).toBeInTheDocument();
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    expect(within(row('Core banking')).getByText('business_unit: retail')).toBeInTheDocument();
    expect(within(row('Core banking')).getByText('Skip threat match')).toBeInTheDocument();
    expect(within(row('Proxy health checks')).getByText('Drop event')).toBeInTheDocument();
    expect(within(row('Proxy health checks')).getByText('Paused')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move Core banking up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Proxy health checks down' })).toBeDisabled();

    // Keyboard: focus the button and press Enter.
    screen.getByRole('button', { name: 'Move Core banking down' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(orders).toEqual([{ ids: ['c2', 'c1'] }]));

    await user.click(
      within(row('Proxy health checks')).getByRole('button', { name: 'Resume Proxy health checks' }),
    );
    await waitFor(() => expect(pauses).toEqual([{ paused: false }]));

    await user.click(screen.getByRole('button', { name: 'Delete Core banking' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Core banking/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Core banking')).not.toBeInTheDocument());
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/classifiers/c1') && init?.method === 'DELETE',
      ),
    ).toBe(true);
  });

  it('shows read-only classifiers without editing controls', async () => {
    stubApi({
      ...session(['CLASSIFIER_VIEW']),
      [`GET ${base}/classifiers`]: {
        body: { items: [classifier({ editable: false })], total: 1, editable: false },
      },
    });
    renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Core banking')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add classifier' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Core banking' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move Core banking down' })).not.toBeInTheDocument();
  });

  it('shows the empty state, and a failed load with a retry', async () => {
    let fail = true;
    stubApi({
      ...session(EDITOR),
      [`GET ${base}/classifiers`]: () =>
        fail
          ? { status: 403, body: apiError('PERMISSION_DENIED', 'AccessDeniedException') }
          : { body: { items: [], total: 0, editable: true } },
    });
    const { user } = renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('The classifiers could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No classifiers')).toBeInTheDocument();
  });

  it('refuses the page without CLASSIFIER_VIEW', async () => {
    stubApi(session(['EVENT_VIEW']));
    renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });
});

describe('classifier dialog', () => {
  it('checks metadata keys as they are typed and the query before saving', async () => {
    const posted: Record<string, unknown>[] = [];
    stubApi({
      ...session(EDITOR),
      [`GET ${base}/classifiers`]: { body: { items: [], total: 0, editable: true } },
      [`POST ${base}/classifiers`]: ({ init }) => {
        posted.push(requestBody(init));
        return { status: 201, body: classifier() };
      },
    });
    const { user } = renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Add classifier' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Accelerated archive')).not.toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Name/), 'C');
    await user.type(within(dialog).getByLabelText(/^Query/), 'a:(b');
    await user.click(within(dialog).getByRole('button', { name: 'Add attribute' }));
    await user.type(within(dialog).getByLabelText('Key 1'), 'a-b');
    expect(within(dialog).getByText(/Invalid metadata key a-b/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(posted).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Key 1'), '{Backspace}{Backspace}_b');
    expect(within(dialog).queryByText(/Invalid metadata key/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/The query is not valid at position/)).toBeInTheDocument();
    expect(posted).toHaveLength(0);
  });

  it('shows a taken name beside the field and saves the attributes and options', async () => {
    const posted: Record<string, unknown>[] = [];
    stubApi({
      ...session(EDITOR),
      [`GET ${base}/classifiers`]: { body: { items: [], total: 0, editable: true } },
      [`POST ${base}/classifiers`]: ({ init }) => {
        const body = requestBody(init);
        posted.push(body);
        if (body.name === 'X')
          return { status: 409, body: apiError('CLASSIFIER_NAME_TAKEN', 'ConflictException') };
        return { status: 201, body: classifier({ name: String(body.name) }) };
      },
    });
    const { user } = renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Add classifier' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Name/), 'X');
    await user.type(within(dialog).getByLabelText(/^Query/), 'bank');
    await user.click(within(dialog).getByRole('button', { name: 'Add attribute' }));
    await user.type(within(dialog).getByLabelText('Key 1'), 'bu');
    await user.type(within(dialog).getByLabelText('Value 1'), 'r');
    await user.click(within(dialog).getByLabelText('Skip asset detection'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A classifier named X already exists.')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Name/), 'Y');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted.at(-1)).toEqual({
      name: 'XY',
      description: '',
      query: 'bank',
      metadata: { bu: 'r' },
      dropEvent: false,
      skipThreatMatch: false,
      skipAnomalyDetection: false,
      skipAssetDetection: true,
      acceleratedArchive: false,
    });
  });

  it('offers accelerated archive with the tier and shows a server metadata refusal beside the key', async () => {
    const posted: Record<string, unknown>[] = [];
    stubApi({
      ...session(EDITOR, ['ACCELERATED_ARCHIVE_DATA_TIER']),
      [`GET ${base}/classifiers`]: { body: { items: [classifier()], total: 1, editable: true } },
      [`PUT ${base}/classifiers/c1`]: ({ init }) => {
        const body = requestBody(init);
        posted.push(body);
        const metadata = body.metadata as Record<string, string>;
        if ('host' in metadata) {
          return {
            status: 400,
            body: {
              ...apiError('CLASSIFIER_METADATA_KEY_RESERVED'),
              field: 'metadata',
              params: { key: 'host' },
            },
          };
        }
        return { body: classifier() };
      },
    });
    const { user } = renderApp(`/classifiers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Core banking' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Key 1')).toHaveValue('business_unit');
    expect(within(dialog).getByLabelText('Skip threat match')).toBeChecked();
    await user.click(within(dialog).getByLabelText('Accelerated archive'));
    await user.click(within(dialog).getByRole('button', { name: 'Add attribute' }));
    await user.type(within(dialog).getByLabelText('Key 2'), 'host');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Metadata key host is an event column; choose another name.'),
    ).toBeInTheDocument();
    expect(posted[0]).toMatchObject({
      acceleratedArchive: true,
      metadata: { business_unit: 'retail', host: '' },
    });

    await user.click(within(dialog).getByRole('button', { name: 'Remove attribute 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted.at(-1)).toMatchObject({ metadata: { business_unit: 'retail' }, acceleratedArchive: true });
  });
});

describe('classifier library page', () => {
  it('shows the library read only to engineers who are not provider staff', async () => {
    stubApi({
      ...session(['CLASSIFIER_VIEW', 'TRAC_ENGINEER']),
      [`GET ${base}/classifiers/library`]: {
        body: { items: [classifier({ library: true, editable: false })], total: 1, editable: false },
      },
    });
    renderApp(`/classifiers/library?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Core banking')).toBeInTheDocument();
    expect(screen.getByText(/Only the provider changes or pauses them/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause Core banking' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add classifier' })).not.toBeInTheDocument();
  });

  it('lets provider staff pause library classifiers', async () => {
    const pauses: unknown[] = [];
    stubApi({
      ...session(['CLASSIFIER_VIEW', 'CLASSIFIER_EDIT', 'TRAC_ENGINEER']),
      [`GET ${base}/classifiers/library`]: {
        body: { items: [classifier({ library: true })], total: 1, editable: true },
      },
      [`PUT ${base}/classifiers/library/c1/paused`]: ({ init }) => {
        pauses.push(requestBody(init));
        return { body: classifier({ library: true, paused: true }) };
      },
    });
    const { user } = renderApp(`/classifiers/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Pause Core banking' }));
    await waitFor(() => expect(pauses).toEqual([{ paused: true }]));
  });

  it('refuses the library without TRAC_ENGINEER', async () => {
    stubApi(session(['CLASSIFIER_VIEW', 'CLASSIFIER_EDIT']));
    renderApp(`/classifiers/library?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });
});
