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
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ThreatRating as Rating } from '@vigil/contracts';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import '../../lib/i18n';
import { createQueryClient } from '../../lib/query';
import { currentUserQuery, permissionsQuery } from '../../lib/session';
import { apiError, stubApi } from '../../test/fetch-stub';
import { HOME_ORG_ID, testUser } from '../../test/session-fixtures';
import { ThreatRating } from './threat-rating';

const base = `/api/org/${HOME_ORG_ID}`;
const SHA256 = 'ab'.repeat(32);

/** Renders `ui` for a signed-in user holding `permissions` in the home organisation. */
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

const rating = (subject: string, overrides: Partial<Rating> = {}): Rating => ({
  subject,
  subjectType: subject === SHA256 ? 'SIGNATURE' : 'HOST',
  signatureType: subject === SHA256 ? 'SHA256' : null,
  rating: null,
  ratedAt: null,
  ignored: false,
  ignoreUntil: null,
  ...overrides,
});

const lookupRoute = (ratings: Record<string, Partial<Rating>>) => ({
  [`POST ${base}/threat-ratings/lookup`]: ({ init }: { init?: RequestInit }) => {
    const { subjects } = JSON.parse(String(init?.body)) as { subjects: string[] };
    return { body: { items: subjects.map((subject) => rating(subject, ratings[subject])) } };
  },
});

const lookups = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/threat-ratings/lookup'));

describe('threat rating', { timeout: 30_000 }, () => {
  it('collects the subjects shown together into one lookup and shows a read-only badge to viewers', async () => {
    const fetchMock = stubApi(
      lookupRoute({ 'evil.example': { rating: 'HIGH' }, [SHA256]: { rating: 'LOW' } }),
    );
    renderWithPermissions(
      <>
        <ThreatRating subject="evil.example" />
        <ThreatRating subject={SHA256} />
        <ThreatRating subject="calm.example" />
      </>,
      ['RATE_THREAT_VIEW'],
    );
    expect(await screen.findByText('High')).toBeInTheDocument();
    expect(screen.getByText('Low')).toBeInTheDocument();
    expect(lookups(fetchMock)).toHaveLength(1);
    expect(JSON.parse(String(lookups(fetchMock)[0]![1]?.body))).toEqual({
      subjects: ['evil.example', SHA256, 'calm.example'],
    });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows nothing and asks nothing without a rating permission', async () => {
    const fetchMock = stubApi(lookupRoute({}));
    renderWithPermissions(<ThreatRating subject="evil.example" />, ['EVENT_VIEW']);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(lookups(fetchMock)).toHaveLength(0);
    expect(screen.queryByText('Rate')).not.toBeInTheDocument();
  });

  it('offers the rating dropdown to editors: rate, harmless for a month or forever, and clear', async () => {
    const fetchMock = stubApi({
      ...lookupRoute({}),
      [`PUT ${base}/threat-rating`]: ({ init }) => {
        const body = JSON.parse(String(init?.body)) as {
          subject: string;
          rating: string;
          ignore?: { until: string | null };
        };
        return {
          body: rating(body.subject, {
            rating: body.rating as Rating['rating'],
            ignored: Boolean(body.ignore),
            ignoreUntil: body.ignore?.until ?? null,
          }),
        };
      },
      [`DELETE ${base}/threat-rating`]: { status: 204 },
    });
    const { user } = renderWithPermissions(<ThreatRating subject="evil.example" />, [
      'RATE_THREAT_VIEW',
      'RATE_THREAT_EDIT',
    ]);
    const menu = () => screen.getByRole('button', { name: /Threat rating of evil.example/ });
    await waitFor(() => expect(menu()).toHaveTextContent('Rate'));

    await user.click(menu());
    await user.click(await screen.findByRole('menuitem', { name: 'Medium' }));
    await waitFor(() => expect(menu()).toHaveTextContent('Medium'));

    await user.click(menu());
    await user.click(await screen.findByRole('menuitem', { name: 'Harmless – ignore one month' }));
    await waitFor(() => expect(menu()).toHaveTextContent('Harmless · ignored'));
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    const month = JSON.parse(String(puts[1]![1]?.body)) as { rating: string; ignore: { until: string } };
    expect(month.rating).toBe('HARMLESS');
    const days = (Date.parse(month.ignore.until) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    await user.click(menu());
    await user.click(await screen.findByRole('menuitem', { name: 'Harmless – ignore forever' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(3),
    );
    const forever = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT')[2]!;
    expect(JSON.parse(String(forever[1]?.body))).toEqual({
      subject: 'evil.example',
      rating: 'HARMLESS',
      ignore: { until: null },
    });

    await user.click(menu());
    await user.click(await screen.findByRole('menuitem', { name: 'Clear rating' }));
    await waitFor(() => expect(menu()).toHaveTextContent('Rate'));
    const cleared = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(String(cleared?.[0])).toBe(`${base}/threat-rating?subject=evil.example`);
  });

  it('reports a refused rating with the server message', async () => {
    stubApi({
      ...lookupRoute({}),
      [`PUT ${base}/threat-rating`]: { status: 400, body: apiError('ERROR_RATING_THREAT_HOST') },
    });
    const { user } = renderWithPermissions(<ThreatRating subject="evil.example" />, ['RATE_THREAT_EDIT']);
    const menu = await screen.findByRole('button', { name: /Threat rating of evil.example/ });
    await user.click(menu);
    await user.click(await screen.findByRole('menuitem', { name: 'High' }));
    expect(await screen.findByText(/The host could not be rated/)).toBeInTheDocument();
  });
});
