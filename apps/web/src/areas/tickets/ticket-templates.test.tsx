import { screen, waitFor, within } from '@testing-library/react';
import type { TicketDetail, TicketTemplate } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

const withAccess = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
  [`GET ${base}/user/summary`]: {
    body: [{ id: 'u1', fullName: 'Nora Quinn', active: true, roleId: 'r1', homeOrgId: HOME_ORG_ID }],
  },
});

const PHISHING: TicketTemplate = {
  id: 't1',
  name: 'Phishing',
  title: 'Phishing report',
  description: 'A suspicious e-mail was reported.',
  tasks: [{ title: 'Block the sender', description: '' }],
  watchers: [{ id: 'u1', name: 'Nora Quinn' }],
  modifiedOn: '2026-03-01T09:00:00.000Z',
};

describe('ticket templates', () => {
  it('creates a template with tasks and watchers, shows a refusal, and deletes one after confirming', async () => {
    let templates: TicketTemplate[] = [];
    const fetchMock = stubApi({
      ...withAccess(['TRAC_USER']),
      [`GET ${base}/ticket-templates`]: () => ({ body: templates }),
      [`POST ${base}/ticket-template`]: ({ init }) => {
        const body = requestBody(init) as { name: string };
        if (body.name === 'Phishing' && templates.length > 0) {
          return {
            status: 409,
            body: {
              ...apiError('TICKET_TEMPLATE_NAME_IN_USE', 'ConflictException'),
              params: { name: 'Phishing' },
            },
          };
        }
        templates = [PHISHING];
        return { status: 201, body: PHISHING };
      },
      [`DELETE ${base}/ticket-template/t1`]: () => {
        templates = [];
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/ticket-templates?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No ticket templates')).toBeInTheDocument();

    const fill = async () => {
      await user.click(screen.getByRole('button', { name: 'New template' }));
      const dialog = await screen.findByRole('dialog', { name: 'New template' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Phishing');
      await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Phishing report');
      await user.click(within(dialog).getByRole('button', { name: 'Add task' }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Task 1' }), 'Block the sender');
      await user.click(within(dialog).getByRole('combobox', { name: 'Watchers' }));
      await user.click(await screen.findByRole('option', { name: 'Nora Quinn' }));
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      return dialog;
    };
    await fill();
    const table = await screen.findByRole('table', { name: 'Ticket templates' });
    expect(within(table).getByText('Block the sender')).toBeInTheDocument();
    expect(within(table).getByText('Nora Quinn')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/ticket-template` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toEqual({
      name: 'Phishing',
      title: 'Phishing report',
      description: '',
      tasks: [{ title: 'Block the sender', description: '' }],
      watcherIds: ['u1'],
    });

    const again = await fill();
    expect(await screen.findByText(/Another ticket template is named Phishing/)).toBeInTheDocument();
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));

    await user.click(within(table).getByRole('button', { name: 'Delete Phishing' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the template?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No ticket templates')).toBeInTheDocument();
  });

  it('is refused without TRAC_USER', async () => {
    stubApi({ ...withAccess(['INCIDENT_VIEW']) });
    renderApp(`/ticket-templates?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('fills a new incident from a template and names it when creating', async () => {
    const created = { slug: 'INC-3', title: 'Phishing report' } as Partial<TicketDetail>;
    const fetchMock = stubApi({
      ...withAccess(['INCIDENT_VIEW', 'INCIDENT_EDIT']),
      [`GET ${base}/incidents`]: { body: { items: [], total: 0 } },
      [`GET ${base}/ticket-templates`]: { body: [PHISHING] },
      [`POST ${base}/incident`]: { status: 201, body: { ...created } },
    });
    const { user } = renderApp(`/tickets/incident?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New incident' }));
    const dialog = await screen.findByRole('dialog', { name: 'New incident' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'Phishing' }));
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('Phishing report');
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue(
      'A suspicious e-mail was reported.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url, init]) => url === `${base}/incident` && init?.method === 'POST'),
      ).toBe(true),
    );
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/incident` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toMatchObject({ title: 'Phishing report', templateId: 't1' });
  });
});
