import { hasSkuGate, ORG_NAME_MAX_LENGTH, type FeatureFlag, type SkuGate } from './orgs';
import type { Permission } from './permissions';
import { THREAT_LEVEL_LABELS, type ThreatLevel } from './shell';

/**
 * Rules of the application shell (spec 1 sections 2.1 and 2.5 to 2.9): left-bar landing targets,
 * section tabs, the active area, legacy redirects, the query parameters kept across navigation and the
 * info panel's rules. Pure functions, so that the web app and its tests read the same tables.
 */

/** Spec 1 section 9. */
export const LEFT_BAR_WIDTH_EXPANDED = '15.625rem';
export const LEFT_BAR_WIDTH_COLLAPSED = '5.5rem';
export const SIDE_PANEL_WIDTH = '30vw';
export const SIDE_PANEL_CLOSE_MS = 300;
/** The info-panel clock moves on once a minute. */
export const ORG_CLOCK_TICK_MS = 60_000;

/** What the navigation rules look at. */
export interface NavContext {
  /** Effective permission codes (read-only mode already applied). */
  permissions: ReadonlySet<string>;
  /** Effective feature flags of the current organisation. */
  features: Readonly<Partial<Record<string, boolean>>>;
  productSkus: readonly string[];
  /** Whether the current organisation is the provider's own. */
  isProvider: boolean;
}

/** What an entry, target or tab needs; everything listed must hold. */
export interface NavGate {
  permissions?: readonly Permission[];
  feature?: FeatureFlag;
  sku?: SkuGate;
  /** Only inside the provider's own organisation. */
  providerOrg?: boolean;
}

export function passesGate(gate: NavGate, ctx: NavContext): boolean {
  if (gate.permissions?.some((code) => !ctx.permissions.has(code))) return false;
  if (gate.feature && ctx.features[gate.feature] !== true) return false;
  if (gate.sku && !hasSkuGate(ctx.productSkus, gate.sku)) return false;
  if (gate.providerOrg && !ctx.isProvider) return false;
  return true;
}

/** Where a link leads: a path and the query parameters it adds. */
export interface NavTarget {
  path: string;
  search?: Readonly<Record<string, string | boolean>>;
}

export const NAV_ENTRY_IDS = [
  'home',
  'dashboards',
  'reports',
  'tickets',
  'events',
  'assets',
  'fraud',
  'threat',
  'governance',
  'risk',
  'settings',
] as const;
export type NavEntryId = (typeof NAV_ENTRY_IDS)[number];

interface NavTargetRule extends NavGate, NavTarget {}

interface NavEntryRule {
  /** Tried in order; the first whose gate passes is the landing target. */
  targets: readonly NavTargetRule[];
  /** Without this product family the entry leads to its offering page instead. */
  offering?: { sku: SkuGate; path: string };
}

/**
 * Spec 1 section 2.6. Where the spec names no condition for a target, it needs the view permission of
 * its page (section 6: menu items are hidden when the user lacks the permission).
 */
export const NAV_ENTRIES: Readonly<Record<NavEntryId, NavEntryRule>> = {
  home: { targets: [{ path: '/home', feature: 'cyberRiskReadinessDashboard' }] },
  dashboards: { targets: [{ path: '/dashboards/default', permissions: ['DASHBOARD_VIEW'] }] },
  reports: {
    targets: [
      { path: '/reports', permissions: ['REPORT_VIEW'] },
      { path: '/reports/charts/list', permissions: ['CHART_VIEW'] },
    ],
  },
  tickets: { targets: [{ path: '/tickets/incident', permissions: ['INCIDENT_VIEW'] }] },
  events: {
    targets: [
      { path: '/search', permissions: ['EVENT_VIEW'] },
      { path: '/search/saved', permissions: ['SAVED_SEARCH_VIEW'] },
      { path: '/classifiers', permissions: ['CLASSIFIER_VIEW'] },
    ],
  },
  assets: { targets: [{ path: '/assets', permissions: ['ASSET_VIEW'] }] },
  fraud: {
    offering: { sku: 'fraud', path: '/fraud/offering' },
    targets: [
      { path: '/fraud/inbox', permissions: ['ALERT_INBOX_VIEW'] },
      { path: '/fraud/triggers', permissions: ['TRIGGER_VIEW'] },
      { path: '/fraud/threat', permissions: ['THREATMATCH_VIEW'] },
    ],
  },
  threat: {
    targets: [
      { path: '/alerts/inbox', permissions: ['ALERT_INBOX_VIEW'] },
      { path: '/triggers', permissions: ['TRIGGER_VIEW'] },
      { path: '/threat', permissions: ['THREATMATCH_VIEW'] },
    ],
  },
  governance: {
    targets: [
      // The governance dashboard (spec 2's "Governance Dashboard" permission area).
      { path: '/governance/tasks', permissions: ['GOVERNANCE_DASHBOARD_VIEW'] },
      { path: '/task-schedules', permissions: ['TASK_SCHEDULE_VIEW'] },
      {
        path: '/governance/frameworks',
        search: { canRedirect: true },
        permissions: ['POLICY_FRAMEWORK_VIEW'],
      },
      { path: '/governance/policies', permissions: ['CUSTOM_POLICY_VIEW'] },
      { path: '/governance/cat', permissions: ['CAT_POLICY_VIEW'] },
    ],
  },
  risk: {
    targets: [
      { path: '/risk/assessments', permissions: ['RISK_VIEW'], sku: 'risk' },
      { path: '/risk/risks/library', permissions: ['RISK_VIEW'] },
    ],
  },
  settings: {
    targets: [
      { path: '/settings/users', permissions: ['USER_VIEW'] },
      { path: '/settings/input-tokens', permissions: ['AUTH_TOKEN_VIEW'] },
      { path: '/settings/integrations', permissions: ['INTEGRATION_VIEW'] },
      { path: '/settings/data-restrictions', permissions: ['DATA_RESTRICTION_VIEW'] },
      { path: '/settings/profile' },
    ],
  },
};

function toTarget({ path, search }: NavTarget): NavTarget {
  return search ? { path, search } : { path };
}

/** The landing target of a left-bar entry: the first that applies, or null when the entry is hidden. */
export function navLandingTarget(id: NavEntryId, ctx: NavContext): NavTarget | null {
  const entry = NAV_ENTRIES[id];
  if (entry.offering && !hasSkuGate(ctx.productSkus, entry.offering.sku))
    return { path: entry.offering.path };
  const target = entry.targets.find((rule) => passesGate(rule, ctx));
  return target ? toTarget(target) : null;
}

/** The left-bar entries to show, in their order, each with its landing target. */
export function visibleNavEntries(ctx: NavContext): { id: NavEntryId; target: NavTarget }[] {
  return NAV_ENTRY_IDS.flatMap((id) => {
    const target = navLandingTarget(id, ctx);
    return target ? [{ id, target }] : [];
  });
}

/**
 * Spec 1 section 2.8: the paths that mark each area active, matched as plain prefixes (the spec lists
 * /settings/data-restriction for /settings/data-restrictions and /governance/framework for
 * /governance/frameworks). /dashboards/{id}/view and /triggers/{id}/stats fall under /dashboards and
 * /triggers. The provider's organisations and banners pages belong to settings.
 */
export const NAV_AREA_PREFIXES: Readonly<Record<NavEntryId, readonly string[]>> = {
  home: ['/home'],
  dashboards: [
    '/dashboard',
    '/dashboard/template',
    '/dashboards',
    '/dashboards/default',
    '/dashboards/library',
  ],
  events: ['/search', '/search/saved', '/search/cross-org-search', '/classifiers', '/classifiers/library'],
  threat: [
    '/alerts',
    '/alerts/inbox',
    '/trigger',
    '/triggers',
    '/triggers/library',
    '/trigger-schedules',
    '/threat',
    '/watchlists',
  ],
  tickets: [
    '/ticket-templates',
    '/tickets',
    '/tickets/incident',
    '/universal-ticket-inbox',
    '/universal-ticket-inbox/task',
    '/universal-ticket-inbox/incident',
    '/universal-ticket-inbox/draft',
  ],
  fraud: [
    '/fraud',
    '/fraud/inbox',
    '/fraud/triggers',
    '/fraud/library',
    '/fraud/threat',
    '/fraud/watchlists',
  ],
  governance: [
    '/library-task-schedules',
    '/task-schedule',
    '/governance',
    '/governance/framework',
    '/governance/policies',
    '/governance/policy',
    '/governance/cat',
    '/governance/tasks',
  ],
  risk: ['/risk', '/risk/controls', '/risk/risks', '/risk/inventory', '/risk/assessments'],
  assets: ['/assets', '/asset-upload'],
  reports: ['/reports', '/reports/templates', '/reports/charts'],
  settings: [
    '/settings/users',
    '/settings/input-tokens',
    '/settings/action-integrations',
    '/settings/integrations',
    '/settings/integrations/azure',
    '/settings/integrations/salesforce',
    '/settings/data-restriction',
    '/settings/custom-parsers',
    '/settings/profile',
    '/settings/setup-totp-profile',
    '/settings/org-settings',
    '/settings/role',
    '/settings/escalation',
    '/settings/job-descriptors',
    '/settings/tags',
    '/settings/activity-log',
    '/settings/organisations',
    '/settings/banners',
  ],
};

/** The left-bar entry that `pathname` belongs to, by its longest matching prefix; null for none. */
export function activeNavArea(pathname: string): NavEntryId | null {
  let best: { id: NavEntryId; length: number } | null = null;
  for (const id of NAV_ENTRY_IDS) {
    for (const prefix of NAV_AREA_PREFIXES[id]) {
      if (pathname.startsWith(prefix) && (!best || prefix.length > best.length)) {
        best = { id, length: prefix.length };
      }
    }
  }
  return best?.id ?? null;
}

export const SECTION_IDS = [
  'threat',
  'dashboards',
  'oldDashboards',
  'events',
  'fraud',
  'governance',
  'reports',
  'risk',
  'settings',
  'tickets',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export interface SectionTab extends NavGate {
  /** Unique across sections; names the tab's label. */
  id: string;
  path: string;
}

/** Spec 1 section 2.7, with each tab's view permission as for the landing targets. */
export const SECTION_TABS: Readonly<Record<SectionId, readonly SectionTab[]>> = {
  threat: [
    { id: 'alertInbox', path: '/alerts/inbox', permissions: ['ALERT_INBOX_VIEW'] },
    { id: 'triggers', path: '/triggers', permissions: ['TRIGGER_VIEW'] },
    { id: 'triggerSchedules', path: '/trigger-schedules', permissions: ['TRIGGER_VIEW'] },
    { id: 'defaultTriggers', path: '/triggers/library', permissions: ['TRIGGER_VIEW'] },
    { id: 'threatMatch', path: '/threat', permissions: ['THREATMATCH_VIEW'] },
    { id: 'watchlists', path: '/watchlists', permissions: ['THREATMATCH_VIEW'] },
  ],
  dashboards: [
    { id: 'dashboardsOverview', path: '/dashboards/default', permissions: ['DASHBOARD_VIEW'] },
    { id: 'workspaces', path: '/dashboards/workspace-tiles', permissions: ['DASHBOARD_VIEW'] },
    { id: 'dashboardLibrary', path: '/dashboards/library/workspace-tiles', permissions: ['DASHBOARD_VIEW'] },
  ],
  oldDashboards: [
    { id: 'oldDashboards', path: '/dashboard', permissions: ['DASHBOARD_VIEW'] },
    { id: 'dashboardTemplates', path: '/dashboard/template/list', permissions: ['DASHBOARD_VIEW'] },
  ],
  events: [
    { id: 'eventSearch', path: '/search', permissions: ['EVENT_VIEW'] },
    { id: 'savedQueries', path: '/search/saved', permissions: ['SAVED_SEARCH_VIEW'] },
    { id: 'classifiers', path: '/classifiers', permissions: ['CLASSIFIER_VIEW'] },
    {
      id: 'classifierLibrary',
      path: '/classifiers/library',
      permissions: ['CLASSIFIER_VIEW', 'TRAC_ENGINEER'],
      feature: 'classifierLibrary',
    },
    {
      id: 'crossOrgSearch',
      path: '/search/cross-org-search',
      permissions: ['EVENT_VIEW'],
      providerOrg: true,
    },
  ],
  fraud: [
    { id: 'fraudInbox', path: '/fraud/inbox', permissions: ['ALERT_INBOX_VIEW'], sku: 'fraud' },
    { id: 'fraudTriggers', path: '/fraud/triggers', permissions: ['TRIGGER_VIEW'], sku: 'fraud' },
    { id: 'fraudLibrary', path: '/fraud/library', permissions: ['TRIGGER_VIEW'], sku: 'fraud' },
    { id: 'fraudThreat', path: '/fraud/threat', permissions: ['THREATMATCH_VIEW'], sku: 'fraud' },
    { id: 'fraudWatchlists', path: '/fraud/watchlists', permissions: ['THREATMATCH_VIEW'], sku: 'fraud' },
  ],
  governance: [
    { id: 'governanceTasks', path: '/governance/tasks', permissions: ['GOVERNANCE_DASHBOARD_VIEW'] },
    { id: 'taskSchedules', path: '/task-schedules', permissions: ['TASK_SCHEDULE_VIEW'] },
    { id: 'libraryTaskSchedules', path: '/library-task-schedules', permissions: ['TASK_SCHEDULE_VIEW'] },
    { id: 'frameworks', path: '/governance/frameworks', permissions: ['POLICY_FRAMEWORK_VIEW'] },
    { id: 'policies', path: '/governance/policies', permissions: ['CUSTOM_POLICY_VIEW'] },
    { id: 'cat', path: '/governance/cat', permissions: ['CAT_POLICY_VIEW'] },
  ],
  reports: [
    { id: 'reports', path: '/reports', permissions: ['REPORT_VIEW'] },
    { id: 'reportTemplates', path: '/reports/templates/list', permissions: ['REPORT_VIEW'] },
    { id: 'charts', path: '/reports/charts/list', permissions: ['CHART_VIEW'] },
  ],
  risk: [
    { id: 'riskAssessments', path: '/risk/assessments', permissions: ['RISK_VIEW'], sku: 'risk' },
    // The registers need a risk product; the libraries are open to every holder of RISK_VIEW.
    { id: 'riskRegister', path: '/risk/risks/register', permissions: ['RISK_VIEW'], sku: 'risk' },
    { id: 'riskLibrary', path: '/risk/risks/library', permissions: ['RISK_VIEW'] },
    { id: 'controlRegister', path: '/risk/controls/register', permissions: ['RISK_VIEW'], sku: 'risk' },
    { id: 'controlLibrary', path: '/risk/controls/library', permissions: ['RISK_VIEW'] },
    {
      id: 'inventoryRegister',
      path: '/risk/inventory/register',
      permissions: ['RISK_VIEW'],
      sku: 'riskInventory',
    },
    {
      id: 'inventoryLibrary',
      path: '/risk/inventory/library',
      permissions: ['RISK_VIEW'],
      sku: 'riskInventory',
    },
  ],
  settings: [
    { id: 'users', path: '/settings/users', permissions: ['USER_VIEW'] },
    { id: 'inputTokens', path: '/settings/input-tokens', permissions: ['AUTH_TOKEN_VIEW'] },
    {
      id: 'actionIntegrations',
      path: '/settings/action-integrations',
      permissions: ['INTEGRATION_VIEW'],
      feature: 'automatedIntervention',
    },
    { id: 'integrations', path: '/settings/integrations', permissions: ['INTEGRATION_VIEW'] },
    { id: 'dataRestrictions', path: '/settings/data-restrictions', permissions: ['DATA_RESTRICTION_VIEW'] },
    {
      id: 'customParsers',
      path: '/settings/custom-parsers',
      permissions: ['CUSTOM_PARSER_VIEW'],
      sku: 'customParsers',
    },
    { id: 'profile', path: '/settings/profile' },
    { id: 'orgSettings', path: '/settings/org-settings', permissions: ['GLOBAL_SETTINGS_VIEW'] },
    { id: 'roles', path: '/settings/roles', permissions: ['USER_VIEW'] },
    {
      id: 'escalation',
      path: '/settings/escalation',
      permissions: ['ESCALATION_VIEW'],
      feature: 'escalationPage',
    },
    { id: 'tags', path: '/settings/tags', permissions: ['TAG_VIEW'] },
    { id: 'activityLog', path: '/settings/activity-log', permissions: ['ACTIVITY_LOG_VIEW'] },
    {
      id: 'jobDescriptors',
      path: '/settings/job-descriptors',
      permissions: ['TRAC_USER'],
      feature: 'jobDescriptors',
    },
    { id: 'organisations', path: '/settings/organisations', permissions: ['TRAC_ADMIN'], providerOrg: true },
    { id: 'banners', path: '/settings/banners', permissions: ['TRAC_ADMIN'], providerOrg: true },
  ],
  tickets: [
    { id: 'incidents', path: '/tickets/incident', permissions: ['INCIDENT_VIEW'] },
    {
      id: 'globalIncidents',
      path: '/universal-ticket-inbox/incident',
      permissions: ['INCIDENT_VIEW'],
      feature: 'universalTicketInbox',
    },
    {
      id: 'globalTasks',
      path: '/universal-ticket-inbox/task',
      permissions: ['TASK_VIEW'],
      feature: 'universalTicketInbox',
    },
    {
      id: 'globalDrafts',
      path: '/universal-ticket-inbox/draft',
      permissions: ['TRAC_ENGINEER'],
      feature: 'universalTicketInbox',
    },
    { id: 'ticketTemplates', path: '/ticket-templates', permissions: ['TRAC_USER'] },
  ],
};

/** The tabs of a section the user may see. */
export function visibleSectionTabs(section: SectionId, ctx: NavContext): SectionTab[] {
  return SECTION_TABS[section].filter((tab) => passesGate(tab, ctx));
}

/** The section whose tabs sit above `pathname`; Home and Assets have none (spec 1 section 2.7). */
export function sectionForPath(pathname: string): SectionId | null {
  const area = activeNavArea(pathname);
  switch (area) {
    case null:
    case 'home':
    case 'assets':
      return null;
    case 'dashboards':
      return pathname.startsWith('/dashboards') ? 'dashboards' : 'oldDashboards';
    default:
      return area;
  }
}

/** Spec 1 section 2.8: the statistics of a library trigger (32-character id) count as the library. */
const LIBRARY_TRIGGER_STATS = /^\/triggers\/[^/]{32}\/stats\/?$/;

/** Whether `pathname` is `prefix` or lies below it, segment by segment. */
export function pathHasPrefix(pathname: string, prefix: string): boolean {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return base === '' || pathname === base || pathname.startsWith(`${base}/`);
}

/** The tab `pathname` shows: the one with the longest path it lies below. */
export function activeSectionTab<T extends SectionTab>(tabs: readonly T[], pathname: string): T | undefined {
  const path = LIBRARY_TRIGGER_STATS.test(pathname) ? '/triggers/library' : pathname;
  let best: T | undefined;
  for (const tab of tabs) {
    if (pathHasPrefix(path, tab.path) && (!best || tab.path.length > best.path.length)) best = tab;
  }
  return best;
}

/**
 * Spec 1 section 2.1: old paths and where they lead now. The dashboards' workspace pages lived under
 * /dashboards, and old links may also lack that prefix.
 */
export const LEGACY_REDIRECTS: readonly { from: RegExp; to: string }[] = [
  { from: /^\/triggers\/default$/, to: '/triggers/library' },
  { from: /^\/trigger\/new$/, to: '/triggers/new' },
  { from: /^\/trigger\/([^/]+)$/, to: '/triggers/$1' },
  { from: /^\/fraud\/trigger\/new$/, to: '/fraud/triggers/new' },
  { from: /^\/fraud\/trigger\/([^/]+)$/, to: '/fraud/triggers/$1' },
  { from: /^\/fraud\/trigger\/([^/]+)\/edit$/, to: '/fraud/triggers/$1/edit' },
  { from: /^\/compliance(\/.*)?$/, to: '/governance$1' },
  // Spec 1 section 2.8 and spec 3 name a framework and a policy in the singular.
  { from: /^\/governance\/framework(\/[^/]+)?$/, to: '/governance/frameworks$1' },
  { from: /^\/governance\/policy(\/[^/]+)?$/, to: '/governance/policies$1' },
  { from: /^\/alerts\/new-inbox$/, to: '/alerts/inbox' },
  { from: /^(?:\/dashboards)?\/library\/workspace-tiles-page$/, to: '/dashboards/library/workspace-tiles' },
  { from: /^(?:\/dashboards)?\/workspace-tiles-page$/, to: '/dashboards/workspace-tiles' },
  // Spec 3 names /reports/templates and /reports/charts beside their lists.
  { from: /^\/reports\/(templates|charts)$/, to: '/reports/$1/list' },
];

/** Where a legacy path leads now, or null when `pathname` is not a legacy path. */
export function legacyRedirectPath(pathname: string): string | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  for (const { from, to } of LEGACY_REDIRECTS) {
    if (from.test(path)) return path.replace(from, to);
  }
  return null;
}

/** Query parameters that every navigation keeps unless it sets them itself (spec 1 section 2.5). */
export const RETAINED_SEARCH_PARAMS = ['orgId', 'feature'] as const;

type RetainedSearch = { readonly [K in (typeof RETAINED_SEARCH_PARAMS)[number]]?: unknown };

/** `next` with the retained parameters of `current` that `next` does not set. */
export function retainSearchParams<T extends RetainedSearch>(current: RetainedSearch, next: T): T {
  const kept: Record<string, unknown> = {};
  for (const key of RETAINED_SEARCH_PARAMS) {
    if (next[key] === undefined && current[key] !== undefined) kept[key] = current[key];
  }
  return { ...next, ...kept };
}

/** The organisation before or after `currentId` in `orgIds`, wrapping round at either end. */
export function adjacentOrgId(
  orgIds: readonly string[],
  currentId: string | undefined,
  step: 1 | -1,
): string | undefined {
  if (orgIds.length === 0) return undefined;
  const index = currentId === undefined ? -1 : orgIds.indexOf(currentId);
  if (index === -1) return step === 1 ? orgIds[0] : orgIds[orgIds.length - 1];
  return orgIds[(index + step + orgIds.length) % orgIds.length];
}

/** The letter on the organisation badge. */
export function orgBadgeLetter(name: string): string {
  return name.trim().charAt(0).toUpperCase() || '?';
}

/** "Organisation - Page"; either part alone when the other is unknown; the app name when both are. */
export function documentTitle(orgName: string | undefined, pageTitle: string | undefined, appName: string) {
  const parts = [orgName, pageTitle].filter((part): part is string => Boolean(part?.trim()));
  return parts.length ? parts.join(' - ') : appName;
}

/**
 * The header's cyber risk readiness button (spec 1 section 2.5): the readiness dashboard at /home when
 * the organisation has it, otherwise the dashboards when only the banner is on; hidden (null) without
 * either flag.
 */
export function cyberRiskReadinessTarget(
  features: Readonly<Partial<Record<string, boolean>>>,
): string | null {
  if (features.cyberRiskReadinessDashboard) return '/home';
  if (features.cyberRiskReadinessBanner) return '/dashboards/default';
  return null;
}

const INFO_PANEL_ROLES = ['TRAC_ADMIN', 'TRAC_ENGINEER', 'TRAC_USER'] as const;

/** Spec 1 section 2.9: the header's info-panel button. */
export function infoPanelButtonVisible(ctx: Pick<NavContext, 'permissions' | 'features'>): boolean {
  return ctx.features.infoPanel === true && ctx.permissions.has('TRAC_USER');
}

/** Spec 1 section 2.9: who may load the panel's data. */
export function infoPanelDataAllowed(ctx: Pick<NavContext, 'permissions' | 'features'>): boolean {
  return ctx.features.infoPanel === true && INFO_PANEL_ROLES.some((role) => ctx.permissions.has(role));
}

/** Provider administrators: TRAC_ADMIN inside the provider's own organisation. */
export function isProviderAdmin(ctx: Pick<NavContext, 'permissions' | 'isProvider'>): boolean {
  return ctx.isProvider && ctx.permissions.has('TRAC_ADMIN');
}

export type OrgTitleProblem = 'required' | 'tooLong';

/** Spec 1 section 5: the title is trimmed, required and at most 100 characters. */
export function orgTitleProblem(title: string): OrgTitleProblem | null {
  const trimmed = title.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > ORG_NAME_MAX_LENGTH) return 'tooLong';
  return null;
}

interface OrgInfo {
  title: string;
  threatLevel: ThreatLevel;
}

/** What saving a new title sends: nothing (null) when it is invalid or unchanged once trimmed. */
export function orgTitleChange(current: OrgInfo, draft: string): OrgInfo | null {
  if (orgTitleProblem(draft)) return null;
  const title = draft.trim();
  return title === current.title ? null : { title, threatLevel: current.threatLevel };
}

/** Spec 1 section 4.5: a new threat level also sets the title to its label; the same level sends nothing. */
export function threatLevelChange(current: OrgInfo, level: ThreatLevel): OrgInfo | null {
  return level === current.threatLevel ? null : { title: THREAT_LEVEL_LABELS[level], threatLevel: level };
}

/** The info-panel clock, M-d-yyyy h:mm a in `timeZone`, e.g. 11-22-2026 3:07 PM. */
export function formatOrgClock(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('month')}-${part('day')}-${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()}`;
}

const ID_SEGMENT = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^\d+$/,
  /^[0-9a-f]{16,}$/i,
  /@/,
];

/**
 * A called address as the error report gives it (spec 1 section 7): the path without its query, the
 * organisation segment as :orgId and every identifier (uuid, number, long hex, e-mail) as :id.
 */
export function parameterisePath(url: string): string {
  const path = url.replace(/[?#].*$/s, '');
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      if (index > 0 && segments[index - 1] === 'org' && segment !== 'all' && segment !== '') return ':orgId';
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // A malformed escape is not an identifier of ours; keep the segment as it came.
      }
      return ID_SEGMENT.some((pattern) => pattern.test(decoded)) ? ':id' : segment;
    })
    .join('/');
}

/** Whether a failed call is reported: status 400 to 599, but not 401 (spec 1 section 7). */
export function isReportedFailure(status: number): boolean {
  return status >= 400 && status <= 599 && status !== 401;
}
