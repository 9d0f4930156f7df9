import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/fetch-stub';
import { CLIENT_ORG_ID, signedInWithClientRoutes, testUser } from '../test/session-fixtures';
import { createQueryClient } from './query';
import { currentUserQuery, useCurrentOrg, useCurrentUser, useHasPermission, usePermissions } from './session';

function Probe() {
  const user = useCurrentUser();
  const org = useCurrentOrg();
  const permissions = usePermissions();
  const canViewDashboards = useHasPermission('DASHBOARD_VIEW');
  return (
    <dl>
      <dt>User</dt>
      <dd>{user?.fullName ?? 'nobody'}</dd>
      <dt>Organisation</dt>
      <dd>{org?.name ?? 'none'}</dd>
      <dt>Permissions</dt>
      <dd>{[...permissions].join(',') || 'none'}</dd>
      <dt>Dashboards</dt>
      <dd>{canViewDashboards ? 'yes' : 'no'}</dd>
    </dl>
  );
}

function renderProbe(path: string, signedIn: boolean) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(currentUserQuery.queryKey, signedIn ? testUser : null);
  const rootRoute = createRootRoute({
    validateSearch: (search: Record<string, unknown>) => ({ orgId: search.orgId as string | undefined }),
    component: Probe,
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('session hooks', () => {
  it('give the signed-in user, the organisation of the address and its permissions', async () => {
    stubApi(signedInWithClientRoutes);
    renderProbe(`/?orgId=${CLIENT_ORG_ID}`, true);

    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(await screen.findByText('Acme Bank')).toBeInTheDocument();
    expect(await screen.findByText('DASHBOARD_VIEW')).toBeInTheDocument();
    expect(screen.getByText('yes')).toBeInTheDocument();
  });

  it('give nothing, and ask the server nothing, while signed out', async () => {
    const fetchMock = stubApi(signedInWithClientRoutes);
    renderProbe(`/?orgId=${CLIENT_ORG_ID}`, false);

    expect(await screen.findByText('nobody')).toBeInTheDocument();
    expect(screen.getByText('no')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
