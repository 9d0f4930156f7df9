import { screen, waitFor, within } from '@testing-library/react';
import { resolveFeatureFlags, type UniversalTicket } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInRoutes,
} from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { ticket } from './test-fixtures';

const row = (overrides: Partial<UniversalTicket>): UniversalTicket => ({
  ...ticket({ id: 'i1', slug: 'INC-1', title: 'Card skimming', version: 1 }),
  orgId: CLIENT_ORG_ID,
  orgName: 'Alpha Bank',
  ...overrides,
});

const withInbox = (permissions: string[], inbox = true) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      features: resolveFeatureFlags({ universalTicketInbox: inbox }),
    }),
  ),
});

const PAGE = `/universal-ticket-inbox/incident?orgId=${HOME_ORG_ID}`;

describe('the universal ticket inbox', () => {
  it('lists incidents of every organisation with their organisation and closes a selection, reporting each failure', async () => {
    const items = [
      row({}),
      row({
        id: 'i2',
        slug: 'INC-1',
        title: 'Phishing',
        orgId: HOME_ORG_ID,
        orgName: 'Provider',
        version: 4,
      }),
      row({ id: 'i3', slug: 'INC-9', title: 'Wire fraud', state: 'CLOSED' }),
    ];
    const fetchMock = stubApi({
      ...withInbox(['INCIDENT_VIEW', 'INCIDENT_EDIT']),
      [`GET ${base}/universal-inbox/incidents`]: ({ url }) => {
        const q = new URL(url, 'http://x').searchParams.get('q') ?? '';
        const found = items.filter((item) => item.title.toLowerCase().includes(q.toLowerCase()));
        return {
          body: {
            items: found,
            total: found.length,
            orgs: [
              { id: CLIENT_ORG_ID, name: 'Alpha Bank' },
              { id: HOME_ORG_ID, name: 'Provider' },
            ],
          },
        };
      },
      [`POST ${base}/universal-inbox/incidents/close`]: {
        body: {
          results: [
            { orgId: CLIENT_ORG_ID, id: 'i1', slug: 'INC-1', outcome: 'closed' },
            { orgId: HOME_ORG_ID, id: 'i2', slug: 'INC-1', outcome: 'TICKET_MODIFIED' },
            { orgId: CLIENT_ORG_ID, id: 'i3', slug: 'INC-9', outcome: 'TICKET_SAME_STATE' },
          ],
          closed: 1,
          failed: 2,
        },
      },
    });
    const { user } = renderApp(PAGE);
    const table = await screen.findByRole('table');
    expect(screen.getByText('Organisations: Alpha Bank, Provider')).toBeInTheDocument();
    const skimming = within(table).getByText('Card skimming').closest('tr')!;
    expect(within(skimming).getByText('Alpha Bank')).toBeInTheDocument();
    expect(within(skimming).getByRole('link', { name: 'INC-1' })).toHaveAttribute(
      'href',
      expect.stringContaining(`orgId=${CLIENT_ORG_ID}`),
    );

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'wire');
    await waitFor(() => expect(within(table).queryByText('Card skimming')).not.toBeInTheDocument());
    await user.clear(screen.getByRole('textbox', { name: 'Search' }));
    await within(table).findByText('Card skimming');

    expect(screen.getByRole('button', { name: 'Close selected (0)' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select INC-1 of Alpha Bank' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select INC-1 of Provider' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select INC-9 of Alpha Bank' }));
    await user.click(screen.getByRole('button', { name: 'Close selected (3)' }));
    const confirm = await screen.findByRole('dialog', { name: 'Close the selected tickets?' });
    expect(
      within(confirm).getByText(/Alpha Bank INC-1, Provider INC-1, Alpha Bank INC-9/),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Close tickets' }));

    expect(await screen.findByText('1 closed, 2 not closed.')).toBeInTheDocument();
    const failures = screen.getByRole('list', { name: 'Tickets not closed' });
    expect(
      within(failures).getByText('Provider INC-1: modified by someone else meanwhile; reload and try again'),
    ).toBeInTheDocument();
    expect(within(failures).getByText('Alpha Bank INC-9: already closed')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(requestBody(post?.[1])).toEqual({
      tickets: [
        { orgId: CLIENT_ORG_ID, id: 'i1', version: 1 },
        { orgId: HOME_ORG_ID, id: 'i2', version: 4 },
        { orgId: CLIENT_ORG_ID, id: 'i3', version: 1 },
      ],
    });
  });

  it('is refused without the feature', async () => {
    stubApi({ ...withInbox(['INCIDENT_VIEW'], false) });
    renderApp(PAGE);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });
});
