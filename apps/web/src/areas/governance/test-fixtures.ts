import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base } from '../assets/test-fixtures';

/** Routes of a signed-in user of the home organisation holding `permissions` (and DASHBOARD_VIEW). */
export const withAccess = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
});

export const FRAMEWORK_EDIT = ['POLICY_FRAMEWORK_VIEW', 'POLICY_FRAMEWORK_EDIT'];

/** The governance API of the home organisation. */
export const gov = `${base}/governance`;
