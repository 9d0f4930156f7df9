import { screen, waitFor, within } from '@testing-library/react';
import { resolveFeatureFlags, type InfoNote } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi, type StubRoute } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import {
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInRoutes,
  testUser,
} from '../../test/session-fixtures';

const info = `/api/org/${HOME_ORG_ID}/info`;

const note = (id: string, overrides: Partial<InfoNote> = {}): InfoNote => ({
  id,
  noteText: `Note ${id}`,
  pinned: false,
  createdBy: testUser.id,
  createdByName: 'Ada Lovelace',
  modifiedOn: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

function panelRoutes(extra: Record<string, StubRoute> = {}, permissions = ['DASHBOARD_VIEW', 'TRAC_USER']) {
  return {
    ...signedInRoutes,
    ...orgShellRoutes(
      orgContextOf(HOME_ORG_ID, 'Provider', { permissions, features: resolveFeatureFlags({}) }),
    ),
    [`GET ${info}/metadata`]: { body: { orgId: HOME_ORG_ID, title: 'All quiet', threatLevel: 'FOUR' } },
    [`GET ${info}/notes`]: { body: [] },
    ...extra,
  };
}

async function openPanel() {
  const rendered = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);
  const button = await screen.findByRole('button', { name: 'Info panel' });
  await waitFor(() => expect(button).toHaveTextContent('All Clear'));
  await rendered.user.click(button);
  const panel = await screen.findByRole('dialog', { name: 'Organisation information' });
  return { ...rendered, panel };
}

describe('info panel', () => {
  it('is offered to TRAC_USER only', async () => {
    stubApi(panelRoutes({}, ['DASHBOARD_VIEW', 'TRAC_ENGINEER']));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Info panel' })).not.toBeInTheDocument();
  });

  it('validates the organisation title and sends only a real change, trimmed', async () => {
    const fetchMock = stubApi(
      panelRoutes({
        [`PUT ${info}/metadata`]: ({ init }) => ({ body: { orgId: HOME_ORG_ID, ...body(init) } }),
      }),
    );
    const { user, panel } = await openPanel();

    const title = within(panel).getByRole('textbox', { name: 'Organisation title' });
    const save = within(panel).getByRole('button', { name: 'Save' });
    expect(title).toHaveValue('All quiet');
    expect(save).toBeDisabled();

    await user.clear(title);
    expect(save).toBeDisabled();
    expect(within(panel).getByText('This field is required.')).toBeInTheDocument();

    await user.type(title, 'x'.repeat(101));
    expect(save).toBeDisabled();
    expect(within(panel).getByText('The title may have at most 100 characters.')).toBeInTheDocument();

    await user.clear(title);
    await user.type(title, '  All quiet ');
    expect(save).toBeDisabled();

    await user.clear(title);
    await user.type(title, '  Under watch ');
    await user.click(save);

    await waitFor(() =>
      expect(within(panel).getByRole('textbox', { name: 'Organisation title' })).toHaveValue('Under watch'),
    );
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(body(puts[0]?.[1])).toEqual({ title: 'Under watch', threatLevel: 'FOUR' });
  });

  it('sets the title to the label of a new threat level, and the header follows', async () => {
    const fetchMock = stubApi(
      panelRoutes({
        [`PUT ${info}/metadata`]: ({ init }) => ({ body: { orgId: HOME_ORG_ID, ...body(init) } }),
      }),
    );
    const { user, panel } = await openPanel();

    await user.click(within(panel).getByRole('combobox', { name: 'Threat level' }));
    await user.click(await screen.findByRole('option', { name: 'Active Incident' }));

    await waitFor(() =>
      expect(within(panel).getByRole('textbox', { name: 'Organisation title' })).toHaveValue(
        'Active Incident',
      ),
    );
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(body(put?.[1])).toEqual({ title: 'Active Incident', threatLevel: 'ONE' });
    expect(screen.getByRole('button', { name: 'Info panel' })).toHaveTextContent('Active Incident');
  });

  it('shows the clock in the organisation e-mail timezone', async () => {
    stubApi(panelRoutes());
    const { panel } = await openPanel();

    expect(within(panel).getByText('Time in New York (Eastern)')).toBeInTheDocument();
    expect(within(panel).getByText(/^\d{1,2}-\d{1,2}-\d{4} \d{1,2}:\d{2} (AM|PM)$/)).toBeInTheDocument();
  });

  it('lets only the author edit a note, and everyone pin and delete one after confirming', async () => {
    const mine = note('n1');
    const theirs = note('n2', { createdBy: 'someone-else', createdByName: 'Grace Hopper', pinned: true });
    const fetchMock = stubApi(
      panelRoutes({
        [`GET ${info}/notes`]: { body: [theirs, mine] },
        [`PUT ${info}/notes/n1`]: ({ init }) => ({
          body: { ...mine, noteText: body(init).noteText, modifiedOn: '2026-03-02T10:00:00.000Z' },
        }),
        [`PUT ${info}/notes/n2/pin`]: ({ init }) => ({ body: { ...theirs, pinned: body(init).pinned } }),
        [`DELETE ${info}/notes/n2`]: { status: 204 },
      }),
    );
    const { user, panel } = await openPanel();

    const items = await within(panel).findAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/^Note n/).textContent)).toEqual([
      'Note n2',
      'Note n1',
    ]);
    const [theirsItem, mineItem] = items as [HTMLElement, HTMLElement];
    expect(within(theirsItem).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(theirsItem).getByRole('button', { name: 'Unpin' })).toBeInTheDocument();
    expect(within(mineItem).getByRole('button', { name: 'Pin' })).toBeInTheDocument();

    await user.click(within(mineItem).getByRole('button', { name: 'Edit' }));
    const editor = within(panel).getByRole('textbox', { name: 'Edit note' });
    await user.clear(editor);
    expect(within(mineItem).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(editor, ' Checked the logs ');
    await user.click(within(mineItem).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('Checked the logs')).toBeInTheDocument();
    const edit = fetchMock.mock.calls.find(
      ([url, init]) => url === `${info}/notes/n1` && init?.method === 'PUT',
    );
    expect(body(edit?.[1])).toEqual({ noteText: 'Checked the logs' });

    await user.click(within(theirsItem).getByRole('button', { name: 'Unpin' }));
    await waitFor(() =>
      expect(
        within(panel)
          .getAllByRole('listitem')
          .map((item) => within(item).queryByText('Pinned')),
      ).toEqual([null, null]),
    );

    const grace = within(panel)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByText('Note n2')) as HTMLElement;
    await user.click(within(grace).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete note?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(within(panel).queryByText('Note n2')).not.toBeInTheDocument());
    expect(fetchMock).toHaveBeenCalledWith(`${info}/notes/n2`, expect.objectContaining({ method: 'DELETE' }));
  });

  it('adds a note after the pinned ones, and only with text', async () => {
    const pinned = note('n1', { pinned: true, modifiedOn: '2026-01-01T00:00:00.000Z' });
    const older = note('n2', { modifiedOn: '2026-02-01T00:00:00.000Z' });
    stubApi(
      panelRoutes({
        [`GET ${info}/notes`]: { body: [pinned, older] },
        [`POST ${info}/notes`]: ({ init }) => ({
          status: 201,
          body: note('n3', { noteText: String(body(init).noteText), modifiedOn: '2026-03-05T00:00:00.000Z' }),
        }),
      }),
    );
    const { user, panel } = await openPanel();
    await within(panel).findAllByRole('listitem');

    const add = within(panel).getByRole('button', { name: 'Add note' });
    expect(add).toBeDisabled();
    await user.type(within(panel).getByRole('textbox', { name: 'Note' }), '   ');
    expect(add).toBeDisabled();
    await user.type(within(panel).getByRole('textbox', { name: 'Note' }), 'Phishing wave');
    await user.click(add);

    await waitFor(() =>
      expect(
        within(panel)
          .getAllByRole('listitem')
          .map((item) => within(item).getByText(/^Note n|Phishing/).textContent),
      ).toEqual(['Note n1', 'Phishing wave', 'Note n2']),
    );
    expect(within(panel).getByRole('textbox', { name: 'Note' })).toHaveValue('');
  });

  it('says when the notes cannot be loaded', async () => {
    stubApi(panelRoutes({ [`GET ${info}/notes`]: { status: 403, body: apiError('PERMISSION_DENIED') } }));
    const { panel } = await openPanel();

    expect(await within(panel).findByText('The notes could not be loaded.')).toBeInTheDocument();
    expect(within(panel).getByText('You do not have permission to do this.')).toBeInTheDocument();
  });

  it('closes when the route changes', async () => {
    stubApi(panelRoutes());
    const { router } = await openPanel();

    await router.navigate({ to: '/settings/profile' });

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Organisation information' })).not.toBeInTheDocument(),
    );
  });
});
