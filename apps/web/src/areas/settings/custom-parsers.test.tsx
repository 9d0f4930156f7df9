import { cleanup, screen, waitFor, within } from '@testing-library/react';
import {
  CUSTOM_PARSER_MAX_MAPPINGS,
  CUSTOM_PARSERS_MAX_PER_ORG,
  type CustomParser,
  type ProductSku,
} from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const listPath = `/api/org/${HOME_ORG_ID}/custom-parsers`;
const itemPath = `/api/org/${HOME_ORG_ID}/custom-parser`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;
const page = `/settings/custom-parsers?orgId=${HOME_ORG_ID}`;

const acme: CustomParser = {
  id: 'p1',
  dataSource: 'acme-fw',
  mappings: [
    { from: 'source address', to: 'src_ip' },
    { from: 'user.name', to: 'user_name' },
  ],
  createdBy: 'u1',
  createdByName: 'Grace Hopper',
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-02T09:00:00.000Z',
};

const withAccess = (permissions: string[], productSkus: ProductSku[] = ['CUSTOM_PARSERS']) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      org: { productSkus },
    }),
  ),
});

describe('custom parsers page', () => {
  it('checks the field rules as the user types, and flags empty fields on saving', async () => {
    const posted: Record<string, unknown>[] = [];
    stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT']),
      [`GET ${listPath}`]: { body: { items: [acme], total: 1 } },
      [`POST ${itemPath}`]: ({ init }) => {
        posted.push(body(init));
        return { status: 201, body: acme };
      },
    });
    const { user } = renderApp(page);

    const row = (await screen.findByText('acme-fw')).closest('tr')!;
    expect(within(row).getByText('2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New parser' }));
    const dialog = await screen.findByRole('dialog', { name: 'New custom parser' });

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      within(dialog).getByText('Enter the data source (app name) the parser applies to.'),
    ).toBeInTheDocument();
    expect(within(dialog).getAllByText('Enter a field name.')).toHaveLength(2);

    const from1 = within(dialog).getByRole('textbox', { name: 'From field 1' });
    const to1 = within(dialog).getByRole('textbox', { name: 'To field 1' });
    await user.type(from1, 'src-ip');
    expect(
      within(dialog).getByText(/^Invalid remapping field: use letters, digits, underscores, spaces/),
    ).toBeInTheDocument();
    await user.clear(from1);
    await user.type(from1, 'source address');
    await user.type(to1, 'src.ip');
    expect(within(dialog).getByText(/without periods/)).toBeInTheDocument();
    await user.clear(to1);
    await user.type(to1, 'src_ip');
    expect(within(dialog).queryByText(/^Invalid remapping field/)).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Add mapping' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'From field 2' }), 'client');
    await user.type(within(dialog).getByRole('textbox', { name: 'To field 2' }), 'src_ip');
    expect(within(dialog).getByText('Another mapping already writes src_ip.')).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: 'To field 2' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'To field 2' }), 'data_source');
    expect(
      within(dialog).getByText('data_source belongs to the event itself; choose another name.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove mapping 2' }));
    expect(within(dialog).queryByRole('textbox', { name: 'From field 2' })).not.toBeInTheDocument();
    expect(posted).toHaveLength(0);
  });

  it('shows a taken data source beside its field, then creates the parser', async () => {
    let items: CustomParser[] = [acme];
    const posted: Record<string, unknown>[] = [];
    stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT']),
      [`GET ${listPath}`]: () => ({ body: { items, total: items.length } }),
      [`POST ${itemPath}`]: ({ init }) => {
        const input = body(init);
        posted.push(input);
        if (input.dataSource === 'ACME-FW') {
          const error = apiError('CUSTOM_PARSER_DATA_SOURCE_TAKEN', 'ConflictException');
          return { status: 409, body: { ...error, field: 'dataSource', params: { dataSource: 'ACME-FW' } } };
        }
        const created = { ...acme, ...input, id: 'p2' } as CustomParser;
        items = [...items, created];
        return { status: 201, body: created };
      },
    });
    const { user } = renderApp(page);
    await user.click(await screen.findByRole('button', { name: 'New parser' }));
    const dialog = await screen.findByRole('dialog', { name: 'New custom parser' });
    await user.type(within(dialog).getByRole('textbox', { name: 'From field 1' }), 'source address');
    await user.type(within(dialog).getByRole('textbox', { name: 'To field 1' }), 'src_ip');

    await user.type(within(dialog).getByRole('textbox', { name: /^Data source/ }), 'ACME-FW');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('A custom parser for ACME-FW already exists.'),
    ).toBeInTheDocument();

    await user.clear(within(dialog).getByRole('textbox', { name: /^Data source/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Data source/ }), ' vpn-gateway ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('vpn-gateway')).toBeInTheDocument();
    expect(posted.at(-1)).toEqual({
      dataSource: 'vpn-gateway',
      mappings: [{ from: 'source address', to: 'src_ip' }],
    });
  });

  it('edits the mappings of a parser, stops adding at the mapping limit, and deletes after confirming', async () => {
    const full: CustomParser = {
      ...acme,
      id: 'p3',
      dataSource: 'big-app',
      mappings: Array.from({ length: CUSTOM_PARSER_MAX_MAPPINGS }, (_, index) => ({
        from: `f${index}`,
        to: `t${index}`,
      })),
    };
    let items: CustomParser[] = [acme, full];
    const put: Record<string, unknown>[] = [];
    const fetchMock = stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT']),
      [`GET ${listPath}`]: () => ({ body: { items, total: items.length } }),
      [`PUT ${itemPath}/p1`]: ({ init }) => {
        put.push(body(init));
        return { body: { ...acme, ...body(init) } };
      },
      [`DELETE ${itemPath}/p1`]: () => {
        items = items.filter((item) => item.id !== 'p1');
        return { status: 204 };
      },
    });
    const { user } = renderApp(page);

    await user.click(await screen.findByRole('button', { name: 'Edit big-app' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit custom parser' });
    expect(within(dialog).getByRole('button', { name: 'Add mapping' })).toBeDisabled();
    expect(
      within(dialog).getByText(`A parser can have at most ${CUSTOM_PARSER_MAX_MAPPINGS} mappings.`),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Edit acme-fw' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit custom parser' });
    expect(within(dialog).getByRole('textbox', { name: 'From field 2' })).toHaveValue('user.name');
    await user.click(within(dialog).getByRole('button', { name: 'Remove mapping 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(put).toEqual([{ dataSource: 'acme-fw', mappings: [{ from: 'user.name', to: 'user_name' }] }]);

    await user.click(screen.getByRole('button', { name: 'Delete acme-fw' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete custom parser?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('acme-fw')).not.toBeInTheDocument());
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === `${itemPath}/p1` && init?.method === 'DELETE'),
    ).toBe(true);
  });

  it('shows the list read-only to viewers', async () => {
    const many = Array.from({ length: 3 }, (_, index) => ({
      ...acme,
      id: `p${index}`,
      dataSource: `app-${index}`,
    }));
    stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW']),
      [`GET ${listPath}`]: { body: { items: many, total: CUSTOM_PARSERS_MAX_PER_ORG } },
    });
    renderApp(page);
    expect(await screen.findByText('app-0')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New parser' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit app-0' })).not.toBeInTheDocument();
  });

  it('disables creating at the parser limit', async () => {
    const many = Array.from({ length: 3 }, (_, index) => ({
      ...acme,
      id: `p${index}`,
      dataSource: `app-${index}`,
    }));
    stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT']),
      [`GET ${listPath}`]: { body: { items: many, total: CUSTOM_PARSERS_MAX_PER_ORG } },
    });
    renderApp(page);
    expect(await screen.findByText('app-0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New parser' })).toBeDisabled();
    expect(
      screen.getByText(
        `The organisation already has the most custom parsers allowed (${CUSTOM_PARSERS_MAX_PER_ORG}).`,
      ),
    ).toBeInTheDocument();
  });

  it('shows an empty state, and a failed load with a retry', async () => {
    let fail = true;
    stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT']),
      [`GET ${listPath}`]: () =>
        fail
          ? { status: 404, body: apiError('GENERIC_NOT_FOUND', 'NotFoundException') }
          : { body: { items: [], total: 0 } },
    });
    const { user } = renderApp(page);
    expect(await screen.findByText('The custom parsers could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No custom parsers')).toBeInTheDocument();
  });

  it('is not permitted without the CUSTOM_PARSERS product or without CUSTOM_PARSER_VIEW', async () => {
    const fetchMock = stubApi({
      ...withAccess(['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT'], []),
      [`GET ${listPath}`]: { body: { items: [acme], total: 1 } },
    });
    renderApp(page);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(screen.queryByText('acme-fw')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith(listPath))).toBe(false);
    cleanup();

    stubApi({ ...withAccess(['EVENT_VIEW']), [`GET ${listPath}`]: { body: { items: [acme], total: 1 } } });
    renderApp(page);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });
});
