import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import type { AdminBanner } from './queries';

const adminPath = `/api/org/${HOME_ORG_ID}/banners`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

const maintenance: AdminBanner = {
  id: 'b1',
  type: 'warning',
  title: 'Maintenance tonight',
  message: 'Searches may be slow from 22:00.',
  hyperlink: null,
  endsAt: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  active: true,
};

describe('banners page', () => {
  it('creates a banner once the form is valid, and ends one after confirming', async () => {
    let items: AdminBanner[] = [maintenance];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', 'TRAC_ADMIN'] }),
      ),
      [`GET ${adminPath}`]: () => ({ body: { items, total: items.length } }),
      [`POST ${adminPath}`]: ({ init }) => {
        const created = { ...maintenance, ...body(init), id: 'b2', active: true } as AdminBanner;
        items = [...items, created];
        return { status: 201, body: created };
      },
      [`POST ${adminPath}/b1/end`]: () => {
        items = items.map((banner) => (banner.id === 'b1' ? { ...banner, active: false } : banner));
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/settings/banners?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Maintenance tonight')).toBeInTheDocument();
    const form = screen.getByRole('region', { name: 'New banner' });
    await user.type(within(form).getByRole('textbox', { name: 'Learn more link' }), 'ftp://files');
    await user.click(within(form).getByRole('button', { name: 'Create banner' }));
    expect(within(form).getAllByText('This field is required.')).toHaveLength(2);
    expect(
      within(form).getByText('Enter a web address starting with http:// or https://.'),
    ).toBeInTheDocument();

    await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'New reports');
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'Charts can now be shared.');
    await user.clear(within(form).getByRole('textbox', { name: 'Learn more link' }));
    await user.type(
      within(form).getByRole('textbox', { name: 'Learn more link' }),
      'https://docs.example/charts',
    );
    await user.click(within(form).getByRole('button', { name: 'Create banner' }));

    expect(await screen.findByText('New reports')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url, init]) => url === adminPath && init?.method === 'POST');
    expect(body(post?.[1])).toEqual({
      type: 'info',
      title: 'New reports',
      message: 'Charts can now be shared.',
      hyperlink: 'https://docs.example/charts',
      endsAt: null,
    });

    await user.click(screen.getByRole('button', { name: 'End Maintenance tonight' }));
    const confirm = await screen.findByRole('dialog', { name: 'End banner?' });
    await user.click(within(confirm).getByRole('button', { name: 'End' }));

    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'End Maintenance tonight' })).not.toBeInTheDocument(),
    );
    expect(fetchMock).toHaveBeenCalledWith(
      `${adminPath}/b1/end`,
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
