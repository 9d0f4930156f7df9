import { z } from 'zod';

/**
 * The permission catalogue (spec 2 section 6, spec 3 section 6). Each area grants a Read Only code
 * (`<AREA>_VIEW`) and a Read & Write code (`<AREA>_EDIT`); areas are grouped by module.
 */
export const PERMISSION_MODULES = [
  'EVENTS',
  'ALERTS',
  'TICKETS',
  'GOVERNANCE',
  'RISK',
  'ASSETS',
  'METADATA',
  'REPORTS',
  'SETTINGS',
] as const;
export type PermissionModule = (typeof PERMISSION_MODULES)[number];

export interface PermissionArea {
  /** Prefix of the two codes, e.g. `EVENT` gives EVENT_VIEW and EVENT_EDIT. */
  code: string;
  module: PermissionModule;
  /** Label shown in the role editor. */
  label: string;
  /** What the area also covers, as the spec names it. */
  note?: string;
}

export const PERMISSION_AREAS = [
  { code: 'EVENT', module: 'EVENTS', label: 'Event Search' },
  { code: 'SAVED_SEARCH', module: 'EVENTS', label: 'Saved Search' },
  { code: 'CLASSIFIER', module: 'EVENTS', label: 'Classifiers' },
  { code: 'DATA_RESTORE', module: 'EVENTS', label: 'Data Restores' },
  { code: 'ALERT_INBOX', module: 'ALERTS', label: 'Alert Inbox' },
  { code: 'TRIGGER', module: 'ALERTS', label: 'Triggers', note: 'includes trigger schedules' },
  { code: 'THREATMATCH', module: 'ALERTS', label: 'Threatmatch' },
  { code: 'RATE_THREAT', module: 'ALERTS', label: 'Rate threats' },
  { code: 'INCIDENT', module: 'TICKETS', label: 'Incidents' },
  { code: 'TASK', module: 'TICKETS', label: 'Tasks' },
  { code: 'TASK_SCHEDULE', module: 'TICKETS', label: 'Task Schedules', note: 'includes the library' },
  { code: 'GOVERNANCE_DASHBOARD', module: 'GOVERNANCE', label: 'Governance Dashboard' },
  { code: 'POLICY_FRAMEWORK', module: 'GOVERNANCE', label: 'Frameworks' },
  { code: 'CAT_POLICY', module: 'GOVERNANCE', label: 'CAT Policies' },
  { code: 'CUSTOM_POLICY', module: 'GOVERNANCE', label: 'Custom Policies' },
  { code: 'POLICY_LINK', module: 'GOVERNANCE', label: 'Policy Link', note: 'needed to edit tickets' },
  { code: 'RISK', module: 'RISK', label: 'Risk' },
  { code: 'ASSET', module: 'ASSETS', label: 'Assets' },
  { code: 'REPORT', module: 'REPORTS', label: 'Reports' },
  { code: 'CHART', module: 'REPORTS', label: 'Charts' },
  { code: 'DASHBOARD', module: 'REPORTS', label: 'Dashboards' },
  { code: 'ESCALATION', module: 'METADATA', label: 'Escalations' },
  { code: 'ACTIVITY_LOG', module: 'METADATA', label: 'Activity Logs' },
  { code: 'TAG', module: 'METADATA', label: 'Tags' },
  { code: 'USER', module: 'SETTINGS', label: 'Users', note: 'also covers roles' },
  { code: 'AUTH_TOKEN', module: 'SETTINGS', label: 'Auth Tokens' },
  { code: 'INTEGRATION', module: 'SETTINGS', label: 'Integrations' },
  { code: 'DATA_RESTRICTION', module: 'SETTINGS', label: 'Data Restrictions' },
  { code: 'CUSTOM_PARSER', module: 'SETTINGS', label: 'Custom Parsers' },
  { code: 'GLOBAL_SETTINGS', module: 'SETTINGS', label: 'Organisation Settings' },
  { code: 'ACTION', module: 'SETTINGS', label: 'Actions' },
] as const satisfies readonly PermissionArea[];

export type PermissionAreaCode = (typeof PERMISSION_AREAS)[number]['code'];
export type AreaPermission = `${PermissionAreaCode}_VIEW` | `${PermissionAreaCode}_EDIT`;

/** Codes that mark provider staff and compliance administrators rather than an area. */
export const ROLE_MARKER_PERMISSIONS = [
  'TRAC_ADMIN',
  'TRAC_ENGINEER',
  'TRAC_USER',
  'COMPLIANCE_ADMIN',
] as const;
export type RoleMarkerPermission = (typeof ROLE_MARKER_PERMISSIONS)[number];

export type Permission = AreaPermission | RoleMarkerPermission;

export const AREA_PERMISSIONS: readonly AreaPermission[] = PERMISSION_AREAS.flatMap((area) => [
  `${area.code}_VIEW` as AreaPermission,
  `${area.code}_EDIT` as AreaPermission,
]);

export const ALL_PERMISSIONS: readonly Permission[] = [...AREA_PERMISSIONS, ...ROLE_MARKER_PERMISSIONS];

const permissionSet = new Set<string>(ALL_PERMISSIONS);
export function isPermission(code: string): code is Permission {
  return permissionSet.has(code);
}

export const VIEW_PERMISSIONS: readonly AreaPermission[] = AREA_PERMISSIONS.filter((code) =>
  code.endsWith('_VIEW'),
);

/**
 * Dependencies between areas. `requires`: the first code is refused without the second;
 * `recommends`: the role editor suggests the second with the first.
 */
export interface PermissionDependency {
  permission: AreaPermission;
  needs: AreaPermission;
  kind: 'requires' | 'recommends';
}
export const PERMISSION_DEPENDENCIES: readonly PermissionDependency[] = [
  { permission: 'REPORT_VIEW', needs: 'CHART_EDIT', kind: 'recommends' },
  { permission: 'REPORT_VIEW', needs: 'SAVED_SEARCH_EDIT', kind: 'recommends' },
  { permission: 'CHART_EDIT', needs: 'EVENT_EDIT', kind: 'requires' },
  { permission: 'CHART_EDIT', needs: 'SAVED_SEARCH_EDIT', kind: 'requires' },
  { permission: 'DASHBOARD_VIEW', needs: 'EVENT_VIEW', kind: 'requires' },
  { permission: 'INCIDENT_EDIT', needs: 'POLICY_LINK_VIEW', kind: 'recommends' },
  { permission: 'TASK_EDIT', needs: 'POLICY_LINK_VIEW', kind: 'recommends' },
];

/**
 * An `_EDIT` code implies its `_VIEW` code, so a role stores either and the effective set holds both.
 */
export function expandPermissions(codes: Iterable<string>): Set<Permission> {
  const out = new Set<Permission>();
  for (const code of codes) {
    if (!isPermission(code)) continue;
    out.add(code);
    if (code.endsWith('_EDIT')) out.add(code.replace(/_EDIT$/, '_VIEW') as Permission);
  }
  return out;
}

/** Read-only mode keeps only the codes that contain `_VIEW` (spec 1 section 6). */
export function readOnlyPermissions<T extends string>(codes: Iterable<T>): T[] {
  return [...codes].filter((code) => code.includes('_VIEW'));
}

/** Codes of `requires` dependencies that a set of permissions is missing, e.g. for the role editor. */
export function missingRequiredPermissions(codes: Iterable<string>): PermissionDependency[] {
  const held = expandPermissions(codes);
  return PERMISSION_DEPENDENCIES.filter(
    (dep) => dep.kind === 'requires' && held.has(dep.permission) && !held.has(dep.needs),
  );
}

/** GET /api/org/:orgId/user/permissions */
export const permissionsResponseSchema = z.object({ permissions: z.array(z.string()) });
