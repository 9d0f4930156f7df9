import type { Chart } from '@vigil/contracts';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

/** A chart of the home organisation as the API lists it. */
export const chartFixture = (id: string, name: string, overrides: Partial<Chart> = {}): Chart => ({
  id,
  orgId: HOME_ORG_ID,
  name,
  description: '',
  type: 'bar',
  family: 'SAVED_QUERIES',
  savedQueryIds: [],
  domain: 'security',
  rowLimit: null,
  library: false,
  copiedFromId: null,
  state: 'ACTIVE',
  editable: true,
  createdByName: null,
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

/** The API routes of a signed-in user of the home organisation holding DASHBOARD_VIEW and `permissions`. */
export const dashboardAccess = (permissions: string[], isProvider = false) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      org: { isProvider },
    }),
  ),
});
