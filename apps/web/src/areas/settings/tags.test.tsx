import { screen, waitFor, within } from '@testing-library/react';
import type { Tag } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const tagsPath = `/api/org/${HOME_ORG_ID}/tags`;
const tagPath = `/api/org/${HOME_ORG_ID}/tag`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

const phishing: Tag = {
  id: 't1',
  name: 'Phishing',
  color: 'orange',
  description: 'Reported or detected phishing',
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
};

const withPermissions = (permissions: string[]) =>
  orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }));

describe('tags page', () => {
  it('creates a tag once the name is valid, shows a taken name beside the field, and deletes after confirming', async () => {
    let items: Tag[] = [phishing];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...withPermissions(['TAG_VIEW', 'TAG_EDIT']),
      [`GET ${tagsPath}`]: () => ({ body: { items, total: items.length } }),
      [`POST ${tagPath}`]: ({ init }) => {
        const input = body(init);
        if (input.name === 'phishing')
          return { status: 409, body: apiError('TAG_NAME_TAKEN', 'ConflictException') };
        const created = { ...phishing, ...input, id: 't2' } as Tag;
        items = [...items, created];
        return { status: 201, body: created };
      },
      [`DELETE ${tagPath}/t1`]: () => {
        items = items.filter((tag) => tag.id !== 't1');
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/settings/tags?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Phishing')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'New tag' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('This field is required.')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'phishing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Another tag already has this name.')).toBeInTheDocument();

    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' Wire fraud ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Wire fraud')).toBeInTheDocument();
    const posts = fetchMock.mock.calls.filter(([url, init]) => url === tagPath && init?.method === 'POST');
    expect(body(posts.at(-1)?.[1])).toEqual({ name: 'Wire fraud', color: 'gray', description: '' });

    await user.click(screen.getByRole('button', { name: 'Delete Phishing' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete tag?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Phishing')).not.toBeInTheDocument());
  });

  it('shows the tags without edit controls to a viewer, and an empty state for a search without matches', async () => {
    stubApi({
      ...signedInRoutes,
      ...withPermissions(['TAG_VIEW']),
      [`GET ${tagsPath}`]: ({ url }) => ({
        body: url.includes('search=') ? { items: [], total: 0 } : { items: [phishing], total: 1 },
      }),
    });
    const { user } = renderApp(`/settings/tags?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Phishing')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New tag' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Phishing' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search tags' }), 'zzz');
    expect(await screen.findByText('No matching tags')).toBeInTheDocument();
  });
});
