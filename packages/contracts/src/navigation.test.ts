import { describe, expect, it } from 'vitest';
import {
  activeNavArea,
  activeSectionTab,
  adjacentOrgId,
  cyberRiskReadinessTarget,
  documentTitle,
  formatOrgClock,
  infoPanelButtonVisible,
  infoPanelDataAllowed,
  isProviderAdmin,
  isReportedFailure,
  legacyRedirectPath,
  navLandingTarget,
  NAV_ENTRY_IDS,
  orgBadgeLetter,
  orgTitleChange,
  orgTitleProblem,
  parameterisePath,
  pathHasPrefix,
  retainSearchParams,
  SECTION_TABS,
  sectionForPath,
  threatLevelChange,
  visibleNavEntries,
  visibleSectionTabs,
  type NavContext,
  type NavEntryId,
  type SectionId,
} from './navigation';
import type { ProductSku } from './orgs';

interface Given {
  permissions?: string[];
  features?: Record<string, boolean>;
  skus?: ProductSku[];
  isProvider?: boolean;
}

const ctx = ({ permissions = [], features = {}, skus = [], isProvider = false }: Given = {}): NavContext => ({
  permissions: new Set(permissions),
  features,
  productSkus: skus,
  isProvider,
});

const FRAUD_SKU: ProductSku[] = ['CYBERFRAUD_STANDARD'];

describe('left-bar landing targets (spec 1 section 2.6)', () => {
  const cases: [NavEntryId, Given, string | null][] = [
    ['home', { features: { cyberRiskReadinessDashboard: true } }, '/home'],
    ['home', {}, null],
    ['dashboards', { permissions: ['DASHBOARD_VIEW'] }, '/dashboards/default'],
    ['dashboards', {}, null],
    ['reports', { permissions: ['REPORT_VIEW', 'CHART_VIEW'] }, '/reports'],
    ['reports', { permissions: ['CHART_VIEW'] }, '/reports/charts/list'],
    ['reports', {}, null],
    ['tickets', { permissions: ['INCIDENT_VIEW'] }, '/tickets/incident'],
    ['tickets', { permissions: ['TASK_VIEW'] }, null],
    ['events', { permissions: ['EVENT_VIEW', 'SAVED_SEARCH_VIEW', 'CLASSIFIER_VIEW'] }, '/search'],
    ['events', { permissions: ['SAVED_SEARCH_VIEW', 'CLASSIFIER_VIEW'] }, '/search/saved'],
    ['events', { permissions: ['CLASSIFIER_VIEW'] }, '/classifiers'],
    ['events', {}, null],
    ['assets', { permissions: ['ASSET_VIEW'] }, '/assets'],
    ['assets', {}, null],
    ['fraud', {}, '/fraud/offering'],
    ['fraud', { permissions: ['ALERT_INBOX_VIEW', 'TRIGGER_VIEW'] }, '/fraud/offering'],
    ['fraud', { skus: ['RISK_THIRD_PARTY_RISK'], permissions: ['ALERT_INBOX_VIEW'] }, '/fraud/offering'],
    ['fraud', { skus: FRAUD_SKU, permissions: ['ALERT_INBOX_VIEW', 'TRIGGER_VIEW'] }, '/fraud/inbox'],
    ['fraud', { skus: ['CYBERFRAUD_PREMIUM'], permissions: ['ALERT_INBOX_VIEW'] }, '/fraud/inbox'],
    ['fraud', { skus: FRAUD_SKU, permissions: ['TRIGGER_VIEW', 'THREATMATCH_VIEW'] }, '/fraud/triggers'],
    ['fraud', { skus: FRAUD_SKU, permissions: ['THREATMATCH_VIEW'] }, '/fraud/threat'],
    ['fraud', { skus: FRAUD_SKU }, null],
    ['threat', { permissions: ['ALERT_INBOX_VIEW', 'TRIGGER_VIEW', 'THREATMATCH_VIEW'] }, '/alerts/inbox'],
    ['threat', { permissions: ['TRIGGER_VIEW', 'THREATMATCH_VIEW'] }, '/triggers'],
    ['threat', { permissions: ['THREATMATCH_VIEW'] }, '/threat'],
    ['threat', {}, null],
    ['governance', { permissions: ['GOVERNANCE_DASHBOARD_VIEW', 'TASK_SCHEDULE_VIEW'] }, '/governance/tasks'],
    ['governance', { permissions: ['TASK_VIEW', 'TASK_SCHEDULE_VIEW'] }, '/task-schedules'],
    ['governance', { permissions: ['TASK_SCHEDULE_VIEW', 'POLICY_FRAMEWORK_VIEW'] }, '/task-schedules'],
    [
      'governance',
      { permissions: ['POLICY_FRAMEWORK_VIEW', 'CUSTOM_POLICY_VIEW'] },
      '/governance/frameworks',
    ],
    ['governance', { permissions: ['CUSTOM_POLICY_VIEW', 'CAT_POLICY_VIEW'] }, '/governance/policies'],
    ['governance', { permissions: ['CAT_POLICY_VIEW'] }, '/governance/cat'],
    ['governance', {}, null],
    ['risk', { permissions: ['RISK_VIEW'], skus: ['RISK_INFORMATION_SECURITY'] }, '/risk/assessments'],
    ['risk', { permissions: ['RISK_VIEW'], skus: ['RISK_THIRD_PARTY_RISK'] }, '/risk/assessments'],
    ['risk', { permissions: ['RISK_VIEW'] }, '/risk/risks/library'],
    ['risk', { skus: ['RISK_INFORMATION_SECURITY'] }, null],
    ['settings', { permissions: ['USER_VIEW', 'AUTH_TOKEN_VIEW'] }, '/settings/users'],
    ['settings', { permissions: ['AUTH_TOKEN_VIEW', 'INTEGRATION_VIEW'] }, '/settings/input-tokens'],
    ['settings', { permissions: ['INTEGRATION_VIEW', 'DATA_RESTRICTION_VIEW'] }, '/settings/integrations'],
    ['settings', { permissions: ['DATA_RESTRICTION_VIEW'] }, '/settings/data-restrictions'],
    ['settings', {}, '/settings/profile'],
  ];

  it.each(cases)('%s with %j lands on %s', (id, given, path) => {
    expect(navLandingTarget(id, ctx(given))?.path ?? null).toBe(path);
  });

  it('opens the frameworks with canRedirect=true', () => {
    expect(navLandingTarget('governance', ctx({ permissions: ['POLICY_FRAMEWORK_VIEW'] }))).toEqual({
      path: '/governance/frameworks',
      search: { canRedirect: true },
    });
  });

  it('lists the visible entries in the spec order, hiding those without a target', () => {
    const entries = visibleNavEntries(
      ctx({ permissions: ['DASHBOARD_VIEW', 'INCIDENT_VIEW', 'ASSET_VIEW', 'THREATMATCH_VIEW'] }),
    );
    expect(entries.map((entry) => entry.id)).toEqual([
      'dashboards',
      'tickets',
      'assets',
      'fraud',
      'threat',
      'settings',
    ]);
    expect(entries.find((entry) => entry.id === 'threat')?.target).toEqual({ path: '/threat' });
  });

  it('shows every entry to a user who holds everything', () => {
    const everything = ctx({
      permissions: [
        'DASHBOARD_VIEW',
        'REPORT_VIEW',
        'INCIDENT_VIEW',
        'EVENT_VIEW',
        'ASSET_VIEW',
        'ALERT_INBOX_VIEW',
        'GOVERNANCE_DASHBOARD_VIEW',
        'RISK_VIEW',
        'USER_VIEW',
      ],
      features: { cyberRiskReadinessDashboard: true },
      skus: FRAUD_SKU,
    });
    expect(visibleNavEntries(everything).map((entry) => entry.id)).toEqual([...NAV_ENTRY_IDS]);
  });
});

const RISK_REGISTERS = [
  '/risk/assessments',
  '/risk/risks/register',
  '/risk/risks/library',
  '/risk/controls/register',
  '/risk/controls/library',
];
const RISK_INVENTORY = ['/risk/inventory/register', '/risk/inventory/library'];

describe('section tabs (spec 1 section 2.7)', () => {
  const tabIds = (section: SectionId, given: Given) =>
    visibleSectionTabs(section, ctx(given)).map((tab) => tab.path);

  const cases: [SectionId, Given, string[]][] = [
    [
      'threat',
      { permissions: ['ALERT_INBOX_VIEW', 'TRIGGER_VIEW', 'THREATMATCH_VIEW'] },
      ['/alerts/inbox', '/triggers', '/trigger-schedules', '/triggers/library', '/threat', '/watchlists'],
    ],
    ['threat', { permissions: ['THREATMATCH_VIEW'] }, ['/threat', '/watchlists']],
    [
      'dashboards',
      { permissions: ['DASHBOARD_VIEW'] },
      ['/dashboards/default', '/dashboards/workspace-tiles', '/dashboards/library/workspace-tiles'],
    ],
    ['oldDashboards', { permissions: ['DASHBOARD_VIEW'] }, ['/dashboard', '/dashboard/template/list']],
    ['dashboards', {}, []],
    [
      'events',
      { permissions: ['EVENT_VIEW', 'SAVED_SEARCH_VIEW', 'CLASSIFIER_VIEW'] },
      ['/search', '/search/saved', '/classifiers'],
    ],
    [
      'events',
      { permissions: ['EVENT_VIEW', 'SAVED_SEARCH_VIEW'], isProvider: true },
      ['/search', '/search/saved', '/search/cross-org-search'],
    ],
    [
      'events',
      {
        permissions: ['EVENT_VIEW', 'SAVED_SEARCH_VIEW', 'CLASSIFIER_VIEW', 'TRAC_ENGINEER'],
        features: { classifierLibrary: true },
        isProvider: true,
      },
      ['/search', '/search/saved', '/classifiers', '/classifiers/library', '/search/cross-org-search'],
    ],
    [
      'events',
      { permissions: ['CLASSIFIER_VIEW', 'TRAC_ENGINEER'], features: { classifierLibrary: false } },
      ['/classifiers'],
    ],
    ['events', { permissions: ['CLASSIFIER_VIEW'], features: { classifierLibrary: true } }, ['/classifiers']],
    [
      'fraud',
      { permissions: ['ALERT_INBOX_VIEW', 'TRIGGER_VIEW', 'THREATMATCH_VIEW'], skus: FRAUD_SKU },
      ['/fraud/inbox', '/fraud/triggers', '/fraud/library', '/fraud/threat', '/fraud/watchlists'],
    ],
    ['fraud', { permissions: ['ALERT_INBOX_VIEW', 'TRIGGER_VIEW', 'THREATMATCH_VIEW'] }, []],
    [
      'governance',
      {
        permissions: [
          'GOVERNANCE_DASHBOARD_VIEW',
          'TASK_SCHEDULE_VIEW',
          'POLICY_FRAMEWORK_VIEW',
          'CUSTOM_POLICY_VIEW',
          'CAT_POLICY_VIEW',
        ],
      },
      [
        '/governance/tasks',
        '/task-schedules',
        '/library-task-schedules',
        '/governance/frameworks',
        '/governance/policies',
        '/governance/cat',
      ],
    ],
    ['governance', { permissions: ['CAT_POLICY_VIEW'] }, ['/governance/cat']],
    ['governance', { permissions: ['TASK_VIEW', 'CAT_POLICY_VIEW'] }, ['/governance/cat']],
    [
      'reports',
      { permissions: ['REPORT_VIEW', 'CHART_VIEW'] },
      ['/reports', '/reports/templates/list', '/reports/charts/list'],
    ],
    ['reports', { permissions: ['CHART_VIEW'] }, ['/reports/charts/list']],
    [
      'risk',
      { permissions: ['RISK_VIEW'], skus: ['RISK_INFORMATION_SECURITY', 'RISK_SYSTEMS_AND_APPLICATIONS'] },
      [...RISK_REGISTERS, ...RISK_INVENTORY],
    ],
    // Vendors live in the inventory: Third-Party Risk alone opens it, Information Security alone does not.
    [
      'risk',
      { permissions: ['RISK_VIEW'], skus: ['RISK_THIRD_PARTY_RISK'] },
      [...RISK_REGISTERS, ...RISK_INVENTORY],
    ],
    ['risk', { permissions: ['RISK_VIEW'], skus: ['RISK_INFORMATION_SECURITY'] }, RISK_REGISTERS],
    // Without a risk product only the libraries are open.
    ['risk', { permissions: ['RISK_VIEW'] }, ['/risk/risks/library', '/risk/controls/library']],
    ['settings', {}, ['/settings/profile']],
    [
      'settings',
      {
        permissions: [
          'USER_VIEW',
          'AUTH_TOKEN_VIEW',
          'INTEGRATION_VIEW',
          'DATA_RESTRICTION_VIEW',
          'CUSTOM_PARSER_VIEW',
          'GLOBAL_SETTINGS_VIEW',
          'ESCALATION_VIEW',
          'TAG_VIEW',
          'ACTIVITY_LOG_VIEW',
        ],
        features: { escalationPage: true, jobDescriptors: true },
      },
      [
        '/settings/users',
        '/settings/input-tokens',
        '/settings/integrations',
        '/settings/data-restrictions',
        '/settings/profile',
        '/settings/org-settings',
        '/settings/roles',
        '/settings/escalation',
        '/settings/tags',
        '/settings/activity-log',
      ],
    ],
    [
      'settings',
      {
        permissions: ['INTEGRATION_VIEW', 'CUSTOM_PARSER_VIEW', 'TRAC_USER', 'ESCALATION_VIEW'],
        features: { automatedIntervention: true, jobDescriptors: true, escalationPage: false },
        skus: ['CUSTOM_PARSERS'],
      },
      [
        '/settings/action-integrations',
        '/settings/integrations',
        '/settings/custom-parsers',
        '/settings/profile',
        '/settings/job-descriptors',
      ],
    ],
    [
      'settings',
      { permissions: ['TRAC_ADMIN'], isProvider: true },
      ['/settings/profile', '/settings/organisations', '/settings/banners'],
    ],
    ['settings', { permissions: ['TRAC_ADMIN'], isProvider: false }, ['/settings/profile']],
    ['tickets', { permissions: ['INCIDENT_VIEW', 'TASK_VIEW', 'TRAC_ENGINEER'] }, ['/tickets/incident']],
    [
      'tickets',
      {
        permissions: ['INCIDENT_VIEW', 'TASK_VIEW', 'TRAC_ENGINEER', 'TRAC_USER'],
        features: { universalTicketInbox: true },
      },
      [
        '/tickets/incident',
        '/universal-ticket-inbox/incident',
        '/universal-ticket-inbox/task',
        '/universal-ticket-inbox/draft',
        '/ticket-templates',
      ],
    ],
    [
      'tickets',
      { permissions: ['INCIDENT_VIEW', 'TASK_VIEW'], features: { universalTicketInbox: true } },
      ['/tickets/incident', '/universal-ticket-inbox/incident', '/universal-ticket-inbox/task'],
    ],
  ];

  it.each(cases)('%s with %j shows %j', (section, given, paths) => {
    expect(tabIds(section, given)).toEqual(paths);
  });

  it('give every tab a unique id', () => {
    const ids = Object.values(SECTION_TABS).flatMap((tabs) => tabs.map((tab) => tab.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  const active: [SectionId, string, string | undefined][] = [
    ['threat', '/alerts/inbox', '/alerts/inbox'],
    ['threat', '/triggers', '/triggers'],
    ['threat', '/triggers/new', '/triggers'],
    ['threat', '/triggers/library', '/triggers/library'],
    ['threat', `/triggers/${'a'.repeat(32)}/stats`, '/triggers/library'],
    ['threat', `/triggers/${'a'.repeat(31)}/stats`, '/triggers'],
    ['threat', '/trigger-schedules/5', '/trigger-schedules'],
    ['events', '/search/saved/12', '/search/saved'],
    ['events', '/search', '/search'],
    ['events', '/classifiers/library', '/classifiers/library'],
    ['oldDashboards', '/dashboard/template/list', '/dashboard/template/list'],
    ['oldDashboards', '/dashboard/42', '/dashboard'],
    ['dashboards', '/dashboards/default', '/dashboards/default'],
    ['settings', '/settings/profile', '/settings/profile'],
    ['settings', '/settings/somewhere', undefined],
  ];

  it.each(active)('in %s, %s marks the tab %s', (section, pathname, path) => {
    expect(activeSectionTab(SECTION_TABS[section], pathname)?.path).toBe(path);
  });
});

describe('active area (spec 1 section 2.8)', () => {
  const cases: [string, NavEntryId | null][] = [
    ['/home', 'home'],
    ['/dashboard', 'dashboards'],
    ['/dashboard/template/list', 'dashboards'],
    ['/dashboards', 'dashboards'],
    ['/dashboards/default', 'dashboards'],
    ['/dashboards/library/workspace-tiles', 'dashboards'],
    ['/dashboards/7/view', 'dashboards'],
    ['/search', 'events'],
    ['/search/saved', 'events'],
    ['/search/cross-org-search', 'events'],
    ['/classifiers', 'events'],
    ['/classifiers/library', 'events'],
    ['/alerts', 'threat'],
    ['/alerts/inbox', 'threat'],
    ['/trigger/5', 'threat'],
    ['/triggers', 'threat'],
    ['/triggers/library', 'threat'],
    [`/triggers/${'f'.repeat(32)}/stats`, 'threat'],
    ['/trigger-schedules', 'threat'],
    ['/threat', 'threat'],
    ['/watchlists', 'threat'],
    ['/ticket-templates', 'tickets'],
    ['/tickets', 'tickets'],
    ['/tickets/incident', 'tickets'],
    ['/universal-ticket-inbox/task', 'tickets'],
    ['/universal-ticket-inbox/incident', 'tickets'],
    ['/universal-ticket-inbox/draft', 'tickets'],
    ['/fraud', 'fraud'],
    ['/fraud/inbox', 'fraud'],
    ['/fraud/triggers', 'fraud'],
    ['/fraud/library', 'fraud'],
    ['/fraud/threat', 'fraud'],
    ['/fraud/watchlists', 'fraud'],
    ['/fraud/offering', 'fraud'],
    ['/library-task-schedules', 'governance'],
    ['/task-schedule', 'governance'],
    ['/task-schedules', 'governance'],
    ['/governance', 'governance'],
    ['/governance/frameworks', 'governance'],
    ['/governance/policies', 'governance'],
    ['/governance/policy/3', 'governance'],
    ['/governance/cat', 'governance'],
    ['/governance/tasks', 'governance'],
    ['/risk', 'risk'],
    ['/risk/controls/register', 'risk'],
    ['/risk/risks/library', 'risk'],
    ['/risk/inventory/register', 'risk'],
    ['/risk/assessments', 'risk'],
    ['/assets', 'assets'],
    ['/reports', 'reports'],
    ['/reports/templates/list', 'reports'],
    ['/reports/charts/list', 'reports'],
    ['/settings/users', 'settings'],
    ['/settings/input-tokens', 'settings'],
    ['/settings/action-integrations', 'settings'],
    ['/settings/integrations', 'settings'],
    ['/settings/integrations/azure', 'settings'],
    ['/settings/integrations/salesforce', 'settings'],
    ['/settings/data-restrictions', 'settings'],
    ['/settings/custom-parsers', 'settings'],
    ['/settings/profile', 'settings'],
    ['/settings/setup-totp-profile/input-code', 'settings'],
    ['/settings/org-settings', 'settings'],
    ['/settings/roles', 'settings'],
    ['/settings/escalation', 'settings'],
    ['/settings/job-descriptors', 'settings'],
    ['/settings/tags', 'settings'],
    ['/settings/activity-log', 'settings'],
    ['/settings/organisations', 'settings'],
    ['/knowledge-base', null],
    ['/select-org', null],
    ['/', null],
  ];

  it.each(cases)('%s belongs to %s', (pathname, area) => {
    expect(activeNavArea(pathname)).toBe(area);
  });

  const sections: [string, SectionId | null][] = [
    ['/home', null],
    ['/assets/12', null],
    ['/dashboards/default', 'dashboards'],
    ['/dashboard', 'oldDashboards'],
    ['/alerts/inbox', 'threat'],
    ['/task-schedules', 'governance'],
    ['/settings/profile', 'settings'],
    ['/nowhere', null],
  ];

  it.each(sections)('%s shows the tabs of %s', (pathname, section) => {
    expect(sectionForPath(pathname)).toBe(section);
  });
});

describe('legacy redirects (spec 1 section 2.1)', () => {
  const cases: [string, string | null][] = [
    ['/triggers/default', '/triggers/library'],
    ['/trigger/new', '/triggers/new'],
    ['/trigger/abc123', '/triggers/abc123'],
    ['/trigger/abc123/', '/triggers/abc123'],
    ['/fraud/trigger/new', '/fraud/triggers/new'],
    ['/fraud/trigger/abc123', '/fraud/triggers/abc123'],
    ['/fraud/trigger/abc123/edit', '/fraud/triggers/abc123/edit'],
    ['/compliance', '/governance'],
    ['/compliance/policies', '/governance/policies'],
    ['/compliance/frameworks/3/sections', '/governance/frameworks/3/sections'],
    ['/governance/framework/f1', '/governance/frameworks/f1'],
    ['/governance/framework', '/governance/frameworks'],
    ['/governance/policy/p1/', '/governance/policies/p1'],
    ['/governance/policy', '/governance/policies'],
    ['/compliance/framework/f1', '/governance/framework/f1'],
    ['/governance/frameworks/f1', null],
    ['/governance/policies/p1', null],
    ['/alerts/new-inbox', '/alerts/inbox'],
    ['/dashboards/library/workspace-tiles-page', '/dashboards/library/workspace-tiles'],
    ['/dashboards/workspace-tiles-page', '/dashboards/workspace-tiles'],
    ['/library/workspace-tiles-page', '/dashboards/library/workspace-tiles'],
    ['/workspace-tiles-page', '/dashboards/workspace-tiles'],
    ['/triggers/library', null],
    ['/triggers/abc123', null],
    ['/fraud/triggers/new', null],
    ['/compliancex', null],
    ['/alerts/inbox', null],
    ['/', null],
  ];

  it.each(cases)('%s goes to %s', (from, to) => {
    expect(legacyRedirectPath(from)).toBe(to);
  });
});

describe('retained query parameters', () => {
  const cases: [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
    [{ orgId: 'a', feature: 'infoPanel', tab: '1' }, {}, { orgId: 'a', feature: 'infoPanel' }],
    [{ orgId: 'a' }, { q: 'x' }, { orgId: 'a', q: 'x' }],
    [{ orgId: 'a', feature: 'f' }, { orgId: 'b' }, { orgId: 'b', feature: 'f' }],
    [{ orgId: 'a' }, { orgId: undefined }, { orgId: 'a' }],
    [{}, { q: 'x' }, { q: 'x' }],
    [{ isNewTab: true, orgId: 'a' }, {}, { orgId: 'a' }],
  ];

  it.each(cases)('from %j to %j gives %j', (current, next, expected) => {
    const result = retainSearchParams(current, next);
    expect(Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined))).toEqual(
      expected,
    );
  });
});

describe('organisation selector', () => {
  const ids = ['a', 'b', 'c'];
  const cases: [string | undefined, 1 | -1, string | undefined][] = [
    ['a', 1, 'b'],
    ['c', 1, 'a'],
    ['a', -1, 'c'],
    ['b', -1, 'a'],
    [undefined, 1, 'a'],
    ['zzz', -1, 'c'],
  ];

  it.each(cases)('from %s by %i goes to %s', (current, step, expected) => {
    expect(adjacentOrgId(ids, current, step)).toBe(expected);
  });

  it('stays on the only organisation and has none to offer from an empty list', () => {
    expect(adjacentOrgId(['a'], 'a', 1)).toBe('a');
    expect(adjacentOrgId([], undefined, 1)).toBeUndefined();
  });

  it.each([
    ['Acme Bank', 'A'],
    ['  coastal', 'C'],
    ['', '?'],
  ])('badges %j with %s', (name, letter) => {
    expect(orgBadgeLetter(name)).toBe(letter);
  });
});

describe('shell header rules', () => {
  it.each([
    ['Acme Bank', 'Assets', 'Acme Bank - Assets'],
    ['Acme Bank', undefined, 'Acme Bank'],
    [undefined, 'Log in', 'Log in'],
    [undefined, undefined, 'Vigil'],
  ])('titles the document for %s and %s as %s', (org, page, title) => {
    expect(documentTitle(org, page, 'Vigil')).toBe(title);
  });

  it.each([
    [{ cyberRiskReadinessDashboard: true, cyberRiskReadinessBanner: true }, '/home'],
    [{ cyberRiskReadinessDashboard: true }, '/home'],
    [{ cyberRiskReadinessBanner: true }, '/dashboards/default'],
    [{}, null],
  ])('leads the cyber risk readiness button for %j to %s', (features, target) => {
    expect(cyberRiskReadinessTarget(features)).toBe(target);
  });

  it.each([
    [['TRAC_USER'], { infoPanel: true }, true, true],
    [['TRAC_USER'], { infoPanel: false }, false, false],
    [['TRAC_ADMIN'], { infoPanel: true }, false, true],
    [['TRAC_ENGINEER'], { infoPanel: true }, false, true],
    [['ASSET_VIEW'], { infoPanel: true }, false, false],
  ])(
    'with %j and %j the info-panel button shows: %s, its data loads: %s',
    (perms, features, button, data) => {
      const given = { permissions: new Set(perms), features };
      expect(infoPanelButtonVisible(given)).toBe(button);
      expect(infoPanelDataAllowed(given)).toBe(data);
    },
  );

  it('makes provider administrators of TRAC_ADMIN in the provider organisation only', () => {
    expect(isProviderAdmin({ permissions: new Set(['TRAC_ADMIN']), isProvider: true })).toBe(true);
    expect(isProviderAdmin({ permissions: new Set(['TRAC_ADMIN']), isProvider: false })).toBe(false);
    expect(isProviderAdmin({ permissions: new Set(['TRAC_USER']), isProvider: true })).toBe(false);
  });

  it.each([
    ['/alerts', '/alerts/inbox', true],
    ['/alerts', '/alerts', true],
    ['/alerts/', '/alerts/inbox', true],
    ['/alerts', '/alertsx', false],
    ['/alerts/inbox', '/alerts', false],
    ['/', '/anything', true],
  ])('treats %s as a prefix of %s: %s', (prefix, pathname, expected) => {
    expect(pathHasPrefix(pathname, prefix)).toBe(expected);
  });
});

describe('info panel rules (spec 1 sections 4.5 and 5)', () => {
  const current = { title: 'All quiet', threatLevel: 'FOUR' as const };

  it.each([
    ['ONE', { title: 'Active Incident', threatLevel: 'ONE' }],
    ['TWO', { title: 'Suspected Activity', threatLevel: 'TWO' }],
    ['THREE', { title: 'Added Information', threatLevel: 'THREE' }],
    ['FOUR', null],
  ] as const)('changing the threat level to %s sends %j', (level, expected) => {
    expect(threatLevelChange(current, level)).toEqual(expected);
  });

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['x'.repeat(100), null],
    [` ${'x'.repeat(100)} `, null],
    ['x'.repeat(101), 'tooLong'],
    ['Under watch', null],
  ])('title %j has problem %s', (title, problem) => {
    expect(orgTitleProblem(title)).toBe(problem);
  });

  it.each([
    ['  Under watch ', { title: 'Under watch', threatLevel: 'FOUR' }],
    ['All quiet', null],
    [' All quiet  ', null],
    ['', null],
    ['x'.repeat(101), null],
  ])('saving title %j sends %j', (draft, expected) => {
    expect(orgTitleChange(current, draft)).toEqual(expected);
  });

  it.each([
    ['2026-11-22T20:07:00Z', 'America/New_York', '11-22-2026 3:07 PM'],
    ['2026-11-22T20:07:00Z', 'UTC', '11-22-2026 8:07 PM'],
    ['2026-01-05T07:30:59Z', 'America/Los_Angeles', '1-4-2026 11:30 PM'],
    ['2026-07-04T00:00:00Z', 'UTC', '7-4-2026 12:00 AM'],
    ['2026-07-04T12:05:00Z', 'Pacific/Honolulu', '7-4-2026 2:05 AM'],
    ['2026-03-09T16:45:00Z', 'America/Phoenix', '3-9-2026 9:45 AM'],
  ])('shows %s in %s as %s', (iso, zone, text) => {
    expect(formatOrgClock(new Date(iso), zone)).toBe(text);
  });
});

describe('client error reports (spec 1 section 7)', () => {
  it.each([
    ['/api/org/0b7e7a4e-4f8e-4d7a-9b1c-2f0e6d1c9a11/asset/42', '/api/org/:orgId/asset/:id'],
    [
      '/api/org/0b7e7a4e-4f8e-4d7a-9b1c-2f0e6d1c9a11/info/notes/5d0c1b8a-8a55-4f7e-9d3b-1f2e3d4c5b6a/pin',
      '/api/org/:orgId/info/notes/:id/pin',
    ],
    ['/api/org/all/banners', '/api/org/all/banners'],
    ['/api/banners/17/dismiss', '/api/banners/:id/dismiss'],
    ['/api/org/3/assets/search?q=secret&page=2', '/api/org/:orgId/assets/search'],
    ['/api/user/email/ada%40bank.example/forgot', '/api/user/email/:id/forgot'],
    ['/api/org/3/threats/d41d8cd98f00b204e9800998ecf8427e', '/api/org/:orgId/threats/:id'],
    ['/api/health', '/api/health'],
  ])('reports %s as %s', (url, expected) => {
    expect(parameterisePath(url)).toBe(expected);
  });

  it.each([
    [400, true],
    [401, false],
    [403, true],
    [404, true],
    [429, true],
    [500, true],
    [599, true],
    [399, false],
    [600, false],
    [0, false],
  ])('reports status %i: %s', (status, reported) => {
    expect(isReportedFailure(status)).toBe(reported);
  });
});
