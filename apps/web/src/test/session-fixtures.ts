import {
  DEFAULT_PREFERENCES,
  resolveFeatureFlags,
  type CurrentUser,
  type OrgContext,
  type Preferences,
} from '@vigil/contracts';
import type { StubRoute } from './fetch-stub';

export const HOME_ORG_ID = '00000000-0000-4000-8000-000000000001';
export const CLIENT_ORG_ID = '00000000-0000-4000-8000-000000000002';

export const testUser: CurrentUser = {
  id: '00000000-0000-4000-8000-0000000000aa',
  emails: [{ email: 'ada@bank.example' }],
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  homeOrgId: HOME_ORG_ID,
  roleId: 'role-1',
  active: true,
  google2faEnabled: false,
  u2fEnabled: false,
  readOnlyMode: false,
};

const org = (id: string, name: string) => ({ id, name, productSkus: [], isHome: id === HOME_ORG_ID });

/** The context GET /api/org/:orgId/context answers, with the default feature flags. */
export function orgContextOf(
  orgId: string,
  name: string,
  overrides: Partial<Omit<OrgContext, 'org'>> & { org?: Partial<OrgContext['org']> } = {},
): OrgContext {
  const { org: orgOverrides, ...rest } = overrides;
  return {
    org: {
      id: orgId,
      name,
      isProvider: orgId === HOME_ORG_ID,
      productSkus: [],
      managementMode: 'CTS_OPS_MANAGED',
      ...orgOverrides,
    },
    features: resolveFeatureFlags({}),
    permissions: ['DASHBOARD_VIEW'],
    canToggleReadOnly: false,
    readOnlyMode: false,
    settings: { emailTimezone: 'America/New_York' },
    csm: null,
    ...rest,
  };
}

/** The routes the shell calls for one organisation: context, permissions and preferences. */
export function orgShellRoutes(
  context: OrgContext,
  preferences: Partial<Preferences> = {},
): Record<string, StubRoute> {
  const base = `/api/org/${context.org.id}`;
  return {
    [`GET ${base}/context`]: { body: context },
    [`GET ${base}/user/permissions`]: { body: { permissions: context.permissions } },
    // They chose the new dashboards, where /dashboards/default keeps them (spec 1 section 4.5).
    [`GET ${base}/user/preferences`]: {
      body: { ...DEFAULT_PREFERENCES, newDashboardsEnabled: true, ...preferences },
    },
  };
}

/** API routes of a signed-in user whose only organisation is the home one. */
export const signedInRoutes: Record<string, StubRoute> = {
  'GET /api/user': { body: testUser },
  'GET /api/orgs': { body: { homeOrgId: HOME_ORG_ID, orgs: [org(HOME_ORG_ID, 'Provider')] } },
  ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider')),
  'GET /api/org/all/banners': { body: [] },
  'POST /api/user/logout': { status: 204 },
};

/** The same user, also authorised for a client organisation. */
export const signedInWithClientRoutes: Record<string, StubRoute> = {
  ...signedInRoutes,
  'GET /api/orgs': {
    body: {
      homeOrgId: HOME_ORG_ID,
      orgs: [org(CLIENT_ORG_ID, 'Acme Bank'), org(HOME_ORG_ID, 'Provider')],
    },
  },
  ...orgShellRoutes(orgContextOf(CLIENT_ORG_ID, 'Acme Bank')),
};

export const signedOutRoutes: Record<string, StubRoute> = {
  'GET /api/user': {
    status: 401,
    body: { type: 'AuthenticationException', key: 'NOT_AUTHENTICATED', message: '', errorId: 'stub' },
  },
};
