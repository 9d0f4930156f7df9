import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import { hasSkuGate, legacyRedirectPath, retainSearchParams } from '@vigil/contracts';
import { validateAssetListSearch } from './areas/assets/search';
import { validateCrossOrgSearch } from './areas/events/cross-org-search-params';
import { validateEventSearch } from './areas/events/search-params';
import {
  landOnChosenDashboards,
  refuseSignedIn,
  requireOrg,
  requireSecondFactor,
  requireUser,
} from './lib/guards';
import { notifyMessage } from './lib/notify';
import { safeRedirectPath } from './lib/redirect';
import { userOrgsQuery } from './lib/session';
import { NotFoundPage } from './shell/not-found-page';
import { PagePending } from './shell/page-pending';
import { RouteError } from './shell/route-error';
import { ShellLayout } from './shell/shell-layout';

export interface RouterContext {
  queryClient: QueryClient;
}

// Only the critical part of each route lives here (path, search validation, guards, redirects); page
// components sit in src/areas/<area>/*.lazy.tsx and load when the route is first matched or preloaded.

// The router reads query values that look like numbers or booleans as such; these read them back.
// Validators name every key they own, undefined when refused: the router passes a key a validator
// leaves out through unchecked.
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
const flag = (value: unknown): true | undefined => (value === true || value === 'true' ? true : undefined);

/**
 * Query parameters every page may carry (spec 1 section 2.5). orgId names the current organisation and
 * feature switches feature flags on; both stay across moves. isNewTab hides the navigation.
 */
export interface RootSearch {
  orgId?: string;
  feature?: string;
  isNewTab?: true;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  validateSearch: (search: Record<string, unknown>): RootSearch => ({
    orgId: text(search.orgId),
    feature: text(search.feature),
    isNewTab: flag(search.isNewTab),
  }),
  search: { middlewares: [({ search, next }) => retainSearchParams(search, next(search))] },
  // Spec 1 section 2.1: old addresses lead to their current pages, with the same query.
  beforeLoad: ({ location }) => {
    const target = legacyRedirectPath(location.pathname);
    if (target !== null) {
      throw redirect({
        href: `${target}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`,
        replace: true,
      });
    }
  },
  component: ShellLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteError,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/dashboards/default' });
  },
});

const defaultDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboards/default',
  beforeLoad: landOnChosenDashboards,
}).lazy(() => import('./areas/dashboards/default-dashboard.lazy').then((m) => m.Route));

export interface UnauthorizedSearch {
  /** The address the user was refused. */
  url?: string;
}

const unauthorizedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unauthorized',
  validateSearch: (search: Record<string, unknown>): UnauthorizedSearch => ({ url: text(search.url) }),
}).lazy(() => import('./areas/auth/unauthorized.lazy').then((m) => m.Route));

/** Same-site path to open after signing in; anything else is dropped. */
const redirectUrlSearch = (search: Record<string, unknown>): { redirectUrl?: string } => ({
  redirectUrl: safeRedirectPath(search.redirectUrl),
});

/** Set when the user comes from the support desk or the admin console, which they return to afterwards. */
export interface ReturnFlags {
  freshdesk?: true;
  adminConsole?: true;
}

const returnFlagsSearch = (search: Record<string, unknown>): ReturnFlags => ({
  freshdesk: flag(search.freshdesk),
  adminConsole: flag(search.adminConsole),
});

export interface LoginSearch extends ReturnFlags {
  redirectUrl?: string;
  /** An error key set by the server after a failed single sign-on. */
  error?: string;
}

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    ...redirectUrlSearch(search),
    ...returnFlagsSearch(search),
    error: text(search.error),
  }),
  beforeLoad: refuseSignedIn,
}).lazy(() => import('./areas/auth/login.lazy').then((m) => m.Route));

/** As the login page sends it; the page itself trusts only the server's answer for `email`. */
export interface SamlRedirectSearch extends ReturnFlags {
  ssoName?: string;
  ssoUrl?: string;
  samlRequest?: string;
  email?: string;
}

const samlRedirectRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/saml-redirect',
  validateSearch: (search: Record<string, unknown>): SamlRedirectSearch => ({
    ...returnFlagsSearch(search),
    ssoName: text(search.ssoName),
    ssoUrl: text(search.ssoUrl),
    samlRequest: text(search.samlRequest),
    email: text(search.email),
  }),
}).lazy(() => import('./areas/auth/saml-redirect.lazy').then((m) => m.Route));

const setupTotpLoginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup-totp-login',
  beforeLoad: requireSecondFactor,
}).lazy(() => import('./areas/auth/setup-totp-login.lazy').then((m) => m.Route));

const totpAuthenticationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/totp-authentication',
  beforeLoad: requireSecondFactor,
}).lazy(() => import('./areas/auth/totp-authentication.lazy').then((m) => m.Route));

const u2fAuthenticationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/u2f-authentication',
  beforeLoad: requireSecondFactor,
}).lazy(() => import('./areas/auth/u2f-authentication.lazy').then((m) => m.Route));

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
}).lazy(() => import('./areas/auth/forgot-password.lazy').then((m) => m.Route));

export interface PasswordLinkSearch {
  id?: string;
  confirmation?: string;
}

const passwordLinkRoute = {
  getParentRoute: () => rootRoute,
  validateSearch: (search: Record<string, unknown>): PasswordLinkSearch => ({
    id: text(search.id),
    confirmation: text(search.confirmation),
  }),
  // Spec 1 section 5: a link without both parameters cannot work; the user asks for a new one.
  beforeLoad: ({ search, preload }: { search: PasswordLinkSearch; preload: boolean }) => {
    if (search.id && search.confirmation) return;
    if (!preload) notifyMessage('PASSWORD_RESET_PARAMS_MISSING', 'yellow');
    throw redirect({ to: '/forgot-password' });
  },
};

const resetPasswordRoute = createRoute({ ...passwordLinkRoute, path: '/reset-password' }).lazy(() =>
  import('./areas/auth/reset-password.lazy').then((m) => m.Route),
);

const newUserRoute = createRoute({ ...passwordLinkRoute, path: '/new-user' }).lazy(() =>
  import('./areas/auth/new-user.lazy').then((m) => m.Route),
);

const selectOrgRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/select-org',
  validateSearch: redirectUrlSearch,
  beforeLoad: requireUser,
}).lazy(() => import('./areas/auth/select-org.lazy').then((m) => m.Route));

export interface KnowledgeBaseSearch {
  /** Knowledge-base path to open after signing in there. */
  r?: string;
}

const knowledgeBaseRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/knowledge-base',
  validateSearch: (search: Record<string, unknown>): KnowledgeBaseSearch => ({ r: text(search.r) }),
  beforeLoad: requireUser,
}).lazy(() => import('./areas/auth/knowledge-base.lazy').then((m) => m.Route));

const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/settings/profile',
  beforeLoad: requireOrg,
}).lazy(() => import('./areas/settings/profile.lazy').then((m) => m.Route));

const setupTotpProfileCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/settings/setup-totp-profile/input-code',
  beforeLoad: requireOrg,
}).lazy(() => import('./areas/settings/setup-totp-profile-code.lazy').then((m) => m.Route));

/** A page of the current organisation. */
const orgRoute = <const TPath extends string>(path: TPath) =>
  createRoute({ getParentRoute: () => rootRoute, path, beforeLoad: requireOrg });

// Spec 1 section 2.1: the top-level areas. Each splat route holds an area until its pages are built; a
// page with its own route takes precedence over the splat.
const homeRoute = orgRoute('/home').lazy(() => import('./areas/home/home.lazy').then((m) => m.homeRoute));
export interface OldDashboardSearch {
  /** The dashboard chosen in the dropdown; the user's default when absent. */
  dashboardId?: string;
}

const oldDashboardsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  beforeLoad: requireOrg,
  validateSearch: (search: Record<string, unknown>): OldDashboardSearch => ({
    dashboardId: text(search.dashboardId),
  }),
}).lazy(() => import('./areas/dashboards/old-dashboards.lazy').then((m) => m.oldDashboardsRoute));
const dashboardTemplateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard/template',
  beforeLoad: ({ location }) => {
    throw redirect({ href: `/dashboard/template/list${location.searchStr}`, replace: true });
  },
});
const dashboardTemplateListRoute = orgRoute('/dashboard/template/list').lazy(() =>
  import('./areas/dashboards/old-dashboards.lazy').then((m) => m.dashboardTemplatesRoute),
);
const dashboardListRoute = orgRoute('/dashboards').lazy(() =>
  import('./areas/dashboards/dashboards-list.lazy').then((m) => m.Route),
);
const dashboardViewRoute = orgRoute('/dashboards/$dashboardId/view').lazy(() =>
  import('./areas/dashboards/dashboard-view.lazy').then((m) => m.Route),
);
const dashboardLibraryRoute = orgRoute('/dashboards/library').lazy(() =>
  import('./areas/dashboards/library.lazy').then((m) => m.Route),
);
const chartsRoute = orgRoute('/reports/charts/list').lazy(() =>
  import('./areas/reports/charts.lazy').then((m) => m.Route),
);
const workspacesRoute = orgRoute('/dashboards/workspace-tiles').lazy(() =>
  import('./areas/dashboards/workspaces.lazy').then((m) => m.workspacesRoute),
);
const libraryWorkspacesRoute = orgRoute('/dashboards/library/workspace-tiles').lazy(() =>
  import('./areas/dashboards/workspaces.lazy').then((m) => m.libraryWorkspacesRoute),
);
const reportsRoute = orgRoute('/reports').lazy(() =>
  import('./areas/reports/reports.lazy').then((m) => m.Route),
);
const reportTemplatesRoute = orgRoute('/reports/templates/list').lazy(() =>
  import('./areas/reports/templates.lazy').then((m) => m.Route),
);
const ticketsRoute = orgRoute('/tickets/$').lazy(() =>
  import('./areas/tickets/unavailable.lazy').then((m) => m.ticketsRoute),
);
// Spec 3: incidents and tasks, their lists and one ticket by its slug.
const incidentsRoute = orgRoute('/tickets/incident').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.incidentsRoute),
);
const tasksRoute = orgRoute('/tickets/task').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.tasksRoute),
);
const incidentRoute = orgRoute('/tickets/incident/$slug').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.incidentRoute),
);
const taskRoute = orgRoute('/tickets/task/$slug').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.taskRoute),
);
const universalIncidentsRoute = orgRoute('/universal-ticket-inbox/incident').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.universalIncidentsRoute),
);
const universalTasksRoute = orgRoute('/universal-ticket-inbox/task').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.universalTasksRoute),
);
const universalDraftsRoute = orgRoute('/universal-ticket-inbox/draft').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.universalDraftsRoute),
);
const universalTicketInboxRoute = orgRoute('/universal-ticket-inbox/$').lazy(() =>
  import('./areas/tickets/unavailable.lazy').then((m) => m.universalTicketInboxRoute),
);
const ticketTemplatesRoute = orgRoute('/ticket-templates').lazy(() =>
  import('./areas/tickets/tickets.lazy').then((m) => m.ticketTemplatesRoute),
);
// Spec 3: the event search, its query, range, filters, order and page in the address, so that pivots
// (`/search?query=…&begin=…&end=…`) open it.
const eventSearchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search',
  validateSearch: validateEventSearch,
  beforeLoad: requireOrg,
}).lazy(() => import('./areas/events/search.lazy').then((m) => m.Route));
// Saved and library queries; each opens the search with its query.
const savedSearchesRoute = orgRoute('/search/saved').lazy(() =>
  import('./areas/events/saved-queries.lazy').then((m) => m.Route),
);
// Issue 7: provider staff search the events of several organisations; the search in the address.
const crossOrgSearchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search/cross-org-search',
  validateSearch: validateCrossOrgSearch,
  beforeLoad: requireOrg,
}).lazy(() => import('./areas/events/cross-org-search.lazy').then((m) => m.Route));
// Spec 3: the organisation's classifiers and the provider's library, applied at ingest in order.
const classifiersRoute = orgRoute('/classifiers').lazy(() =>
  import('./areas/classifiers/classifiers.lazy').then((m) => m.Route),
);
const classifierLibraryRoute = orgRoute('/classifiers/library').lazy(() =>
  import('./areas/classifiers/library.lazy').then((m) => m.Route),
);
// Spec 2 section 2: the asset list (its filters in the address), one asset's details, and the CSV upload.
const assetsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/assets',
  validateSearch: validateAssetListSearch,
  beforeLoad: requireOrg,
}).lazy(() => import('./areas/assets/assets.lazy').then((m) => m.Route));
const assetDetailsRoute = orgRoute('/assets/$assetId').lazy(() =>
  import('./areas/assets/asset-details.lazy').then((m) => m.Route),
);
const assetUploadRoute = orgRoute('/asset-upload').lazy(() =>
  import('./areas/assets/asset-upload.lazy').then((m) => m.Route),
);
const fraudOfferingRoute = orgRoute('/fraud/offering').lazy(() =>
  import('./areas/fraud/offering.lazy').then((m) => m.Route),
);
const fraudWatchlistsRoute = orgRoute('/fraud/watchlists').lazy(() =>
  import('./areas/watchlists/watchlists.lazy').then((m) => m.fraudRoute),
);
const fraudThreatRoute = orgRoute('/fraud/threat').lazy(() =>
  import('./areas/threat/threat.lazy').then((m) => m.fraudRoute),
);
export interface TriggersSearch {
  /** Fills the list's search, for links to one trigger (a control's watcher). */
  search?: string;
}
const triggersSearch = (search: Record<string, unknown>): TriggersSearch => ({ search: text(search.search) });
const fraudTriggersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/fraud/triggers',
  beforeLoad: requireOrg,
  validateSearch: triggersSearch,
}).lazy(() => import('./areas/triggers/triggers.lazy').then((m) => m.fraudRoute));
const fraudLibraryRoute = orgRoute('/fraud/library').lazy(() =>
  import('./areas/triggers/triggers.lazy').then((m) => m.fraudLibraryRoute),
);
const fraudRoute = orgRoute('/fraud/$').lazy(() =>
  import('./areas/fraud/unavailable.lazy').then((m) => m.fraudRoute),
);
// Spec 1: /alerts lands on the inbox; /fraud/inbox is the fraud-domain inbox (before the '/fraud/$' splat).
const alertsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/alerts',
  beforeLoad: () => {
    throw redirect({ to: '/alerts/inbox' });
  },
});
const alertInboxRoute = orgRoute('/alerts/inbox').lazy(() =>
  import('./areas/alerts/inbox.lazy').then((m) => m.Route),
);
const fraudInboxRoute = orgRoute('/fraud/inbox').lazy(() =>
  import('./areas/alerts/inbox.lazy').then((m) => m.fraudRoute),
);
const triggerLibraryRoute = orgRoute('/triggers/library').lazy(() =>
  import('./areas/triggers/triggers.lazy').then((m) => m.libraryRoute),
);
// Spec 1 section 2.8: the statistics of a library trigger, by its 32-character id.
const libraryStatsRoute = orgRoute('/triggers/$id/stats').lazy(() =>
  import('./areas/triggers/triggers.lazy').then((m) => m.statsRoute),
);
const triggerListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/triggers',
  beforeLoad: requireOrg,
  validateSearch: triggersSearch,
}).lazy(() => import('./areas/triggers/triggers.lazy').then((m) => m.Route));
const triggerSchedulesRoute = orgRoute('/trigger-schedules').lazy(() =>
  import('./areas/triggers/triggers.lazy').then((m) => m.schedulesRoute),
);
const threatRoute = orgRoute('/threat').lazy(() => import('./areas/threat/threat.lazy').then((m) => m.Route));
const watchlistsRoute = orgRoute('/watchlists').lazy(() =>
  import('./areas/watchlists/watchlists.lazy').then((m) => m.Route),
);
// Spec 3: the organisation's frameworks, the library and one framework with its evaluation periods.
const frameworksRoute = orgRoute('/governance/frameworks').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.frameworksRoute),
);
const frameworkRoute = orgRoute('/governance/frameworks/$frameworkId').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.frameworkRoute),
);
// Custom and CAT policies, each kind with its list and one policy.
const policiesRoute = orgRoute('/governance/policies').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.policiesRoute),
);
const policyRoute = orgRoute('/governance/policies/$policyId').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.policyRoute),
);
const catPoliciesRoute = orgRoute('/governance/cat').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.catPoliciesRoute),
);
const catPolicyRoute = orgRoute('/governance/cat/$policyId').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.catPolicyRoute),
);
const governanceTasksRoute = orgRoute('/governance/tasks').lazy(() =>
  import('./areas/governance/governance.lazy').then((m) => m.governanceTasksRoute),
);
const governanceRoute = orgRoute('/governance/$').lazy(() =>
  import('./areas/governance/unavailable.lazy').then((m) => m.governanceRoute),
);
const taskSchedulesRoute = orgRoute('/task-schedules/$').lazy(() =>
  import('./areas/schedules/schedules.lazy').then((m) => m.taskSchedulesRoute),
);
const taskScheduleRoute = orgRoute('/task-schedule/$').lazy(() =>
  import('./areas/schedules/schedules.lazy').then((m) => m.taskScheduleRoute),
);
const libraryTaskSchedulesRoute = orgRoute('/library-task-schedules/$').lazy(() =>
  import('./areas/schedules/schedules.lazy').then((m) => m.libraryTaskSchedulesRoute),
);
// Spec 1 section 2.6: /risk lands on the assessments with a risk product, else on the risk library.
// The splat also matches /risk itself, so it decides where that lands.
const riskRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/risk/$',
  beforeLoad: async (args) => {
    const access = await requireOrg(args);
    if (args.params._splat) return access;
    const userOrgs = await args.context.queryClient.ensureQueryData(userOrgsQuery);
    const skus = userOrgs.orgs.find((org) => org.id === access.orgId)?.productSkus ?? [];
    if (hasSkuGate(skus, 'risk')) {
      throw redirect({ to: '/risk/assessments', replace: true });
    }
    throw redirect({ to: '/risk/risks/library', replace: true });
  },
}).lazy(() => import('./areas/risk/unavailable.lazy').then((m) => m.riskRoute));
const riskAssessmentsRoute = orgRoute('/risk/assessments').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.riskAssessmentsRoute),
);
const riskRegisterRoute = orgRoute('/risk/risks/register').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.riskRegisterRoute),
);
const riskLibraryRoute = orgRoute('/risk/risks/library').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.riskLibraryRoute),
);
const registerRiskRoute = orgRoute('/risk/risks/register/$ref').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.riskRoute),
);
const libraryRiskRoute = orgRoute('/risk/risks/library/$ref').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.libraryRiskRoute),
);
const controlRegisterRoute = orgRoute('/risk/controls/register').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.controlRegisterRoute),
);
const controlLibraryRoute = orgRoute('/risk/controls/library').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.controlLibraryRoute),
);
const inventoryRegisterRoute = orgRoute('/risk/inventory/register').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.inventoryRegisterRoute),
);
const inventoryLibraryRoute = orgRoute('/risk/inventory/library').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.inventoryLibraryRoute),
);
const riskListsRoute = orgRoute('/risk/lists').lazy(() =>
  import('./areas/risk/risk.lazy').then((m) => m.riskListsRoute),
);
const connectRoute = orgRoute('/connect').lazy(() =>
  import('./areas/connect/unavailable.lazy').then((m) => m.connectRoute),
);
const orgSettingsRoute = orgRoute('/settings/org-settings').lazy(() =>
  import('./areas/settings/org-settings.lazy').then((m) => m.Route),
);
const organisationsRoute = orgRoute('/settings/organisations').lazy(() =>
  import('./areas/settings/organisations.lazy').then((m) => m.Route),
);
const bannersRoute = orgRoute('/settings/banners').lazy(() =>
  import('./areas/settings/banners.lazy').then((m) => m.Route),
);
const dataRestrictionsRoute = orgRoute('/settings/data-restrictions').lazy(() =>
  import('./areas/settings/data-restrictions.lazy').then((m) => m.Route),
);
const tagsRoute = orgRoute('/settings/tags').lazy(() =>
  import('./areas/settings/tags.lazy').then((m) => m.Route),
);
const escalationRoute = orgRoute('/settings/escalation').lazy(() =>
  import('./areas/settings/escalation.lazy').then((m) => m.Route),
);
const activityLogRoute = orgRoute('/settings/activity-log').lazy(() =>
  import('./areas/settings/activity-log.lazy').then((m) => m.Route),
);
const usersRoute = orgRoute('/settings/users').lazy(() =>
  import('./areas/settings/users.lazy').then((m) => m.Route),
);
const rolesRoute = orgRoute('/settings/roles').lazy(() =>
  import('./areas/settings/roles.lazy').then((m) => m.Route),
);
const jobDescriptorsRoute = orgRoute('/settings/job-descriptors').lazy(() =>
  import('./areas/settings/job-descriptors.lazy').then((m) => m.Route),
);
const inputTokensRoute = orgRoute('/settings/input-tokens').lazy(() =>
  import('./areas/settings/input-tokens.lazy').then((m) => m.Route),
);
const customParsersRoute = orgRoute('/settings/custom-parsers').lazy(() =>
  import('./areas/settings/custom-parsers.lazy').then((m) => m.Route),
);
const integrationsRoute = orgRoute('/settings/integrations').lazy(() =>
  import('./areas/settings/integrations.lazy').then((m) => m.Route),
);
const azureIntegrationsRoute = orgRoute('/settings/integrations/azure').lazy(() =>
  import('./areas/settings/integrations.lazy').then((m) => m.AzureRoute),
);
const salesforceIntegrationsRoute = orgRoute('/settings/integrations/salesforce').lazy(() =>
  import('./areas/settings/integrations.lazy').then((m) => m.SalesforceRoute),
);
const actionIntegrationsRoute = orgRoute('/settings/action-integrations').lazy(() =>
  import('./areas/settings/action-integrations.lazy').then((m) => m.Route),
);
const settingsRoute = orgRoute('/settings/$').lazy(() =>
  import('./areas/settings/unavailable.lazy').then((m) => m.settingsRoute),
);

const routeTree = rootRoute.addChildren([
  indexRoute,
  defaultDashboardRoute,
  unauthorizedRoute,
  loginRoute,
  samlRedirectRoute,
  setupTotpLoginRoute,
  totpAuthenticationRoute,
  u2fAuthenticationRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  newUserRoute,
  selectOrgRoute,
  knowledgeBaseRoute,
  profileRoute,
  setupTotpProfileCodeRoute,
  homeRoute,
  oldDashboardsRoute,
  dashboardTemplateRoute,
  dashboardTemplateListRoute,
  dashboardListRoute,
  dashboardViewRoute,
  dashboardLibraryRoute,
  workspacesRoute,
  libraryWorkspacesRoute,
  chartsRoute,
  reportsRoute,
  reportTemplatesRoute,
  ticketsRoute,
  incidentsRoute,
  tasksRoute,
  incidentRoute,
  taskRoute,
  universalIncidentsRoute,
  universalTasksRoute,
  universalDraftsRoute,
  universalTicketInboxRoute,
  ticketTemplatesRoute,
  eventSearchRoute,
  savedSearchesRoute,
  crossOrgSearchRoute,
  classifiersRoute,
  classifierLibraryRoute,
  assetsRoute,
  assetDetailsRoute,
  assetUploadRoute,
  fraudOfferingRoute,
  fraudWatchlistsRoute,
  fraudThreatRoute,
  fraudInboxRoute,
  fraudTriggersRoute,
  fraudLibraryRoute,
  fraudRoute,
  alertsRoute,
  alertInboxRoute,
  triggerListRoute,
  triggerLibraryRoute,
  libraryStatsRoute,
  triggerSchedulesRoute,
  threatRoute,
  watchlistsRoute,
  frameworksRoute,
  frameworkRoute,
  policiesRoute,
  policyRoute,
  catPoliciesRoute,
  catPolicyRoute,
  governanceTasksRoute,
  governanceRoute,
  taskSchedulesRoute,
  taskScheduleRoute,
  libraryTaskSchedulesRoute,
  riskRoute,
  riskAssessmentsRoute,
  riskRegisterRoute,
  riskLibraryRoute,
  registerRiskRoute,
  libraryRiskRoute,
  controlRegisterRoute,
  controlLibraryRoute,
  inventoryRegisterRoute,
  inventoryLibraryRoute,
  riskListsRoute,
  connectRoute,
  orgSettingsRoute,
  organisationsRoute,
  bannersRoute,
  dataRestrictionsRoute,
  tagsRoute,
  escalationRoute,
  activityLogRoute,
  usersRoute,
  rolesRoute,
  jobDescriptorsRoute,
  inputTokensRoute,
  customParsersRoute,
  integrationsRoute,
  azureIntegrationsRoute,
  salesforceIntegrationsRoute,
  actionIntegrationsRoute,
  settingsRoute,
]);

/** Spec 1 section 9: route preloading is throttled at 500 ms. */
const PRELOAD_DELAY_MS = 500;

/** `history` defaults to the browser's; tests pass a memory history. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context: { queryClient },
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultPreloadDelay: PRELOAD_DELAY_MS,
    defaultPendingComponent: PagePending,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
