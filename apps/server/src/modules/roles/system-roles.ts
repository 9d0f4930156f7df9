import { AREA_PERMISSIONS, VIEW_PERMISSIONS, type Permission } from '@vigil/contracts';

const ALL_EDIT = AREA_PERMISSIONS.filter((code) => code.endsWith('_EDIT'));

/** Read & Write on the day-to-day analyst areas, Read Only elsewhere. */
const ANALYST_EDIT: Permission[] = [
  'EVENT_EDIT',
  'SAVED_SEARCH_EDIT',
  'ALERT_INBOX_EDIT',
  'RATE_THREAT_EDIT',
  'INCIDENT_EDIT',
  'TASK_EDIT',
  'POLICY_LINK_EDIT',
  'ASSET_EDIT',
  'CHART_EDIT',
  'DASHBOARD_EDIT',
  'TAG_EDIT',
];

const SETTINGS_VIEWS = new Set<Permission>([
  'USER_VIEW',
  'AUTH_TOKEN_VIEW',
  'INTEGRATION_VIEW',
  'DATA_RESTRICTION_VIEW',
  'CUSTOM_PARSER_VIEW',
  'GLOBAL_SETTINGS_VIEW',
  'ACTION_VIEW',
]);

export interface SystemRole {
  name: string;
  description: string;
  provider: boolean;
  permissions: Permission[];
}

/** Shared roles every installation starts with; organisations add custom roles of their own. */
export const SYSTEM_ROLES = {
  providerAdmin: {
    name: 'TRAC_ADMIN',
    description: 'Provider administrator: every area, every organisation it is authorised for',
    provider: true,
    permissions: [...ALL_EDIT, 'TRAC_ADMIN', 'TRAC_ENGINEER', 'TRAC_USER', 'COMPLIANCE_ADMIN'],
  },
  providerEngineer: {
    name: 'TRAC_ENGINEER',
    description: 'Provider operations engineer: works the clients it is authorised for',
    provider: true,
    permissions: [...ALL_EDIT, 'TRAC_ENGINEER', 'TRAC_USER'],
  },
  providerUser: {
    name: 'TRAC_USER',
    description: 'Provider analyst: monitors and triages for clients',
    provider: true,
    permissions: [...VIEW_PERMISSIONS, ...ANALYST_EDIT, 'TRAC_USER'],
  },
  clientAdmin: {
    name: 'Client Administrator',
    description: 'Administers users, tokens and settings of the organisation',
    provider: false,
    permissions: [...ALL_EDIT],
  },
  clientAnalyst: {
    name: 'Client Analyst',
    description: 'Searches events, works alerts and incidents; no settings',
    provider: false,
    permissions: [...VIEW_PERMISSIONS.filter((code) => !SETTINGS_VIEWS.has(code)), ...ANALYST_EDIT],
  },
  complianceOfficer: {
    name: 'Compliance Officer',
    description: 'Keeps risk registers, frameworks, policies and assessments',
    provider: false,
    permissions: [
      'RISK_EDIT',
      'POLICY_FRAMEWORK_EDIT',
      'CAT_POLICY_EDIT',
      'CUSTOM_POLICY_EDIT',
      'POLICY_LINK_EDIT',
      'GOVERNANCE_DASHBOARD_EDIT',
      'TASK_EDIT',
      'TASK_SCHEDULE_EDIT',
      'REPORT_VIEW',
      'DASHBOARD_VIEW',
      'EVENT_VIEW',
      'ASSET_VIEW',
      'INCIDENT_VIEW',
      'COMPLIANCE_ADMIN',
    ],
  },
} as const satisfies Record<string, SystemRole>;

export type SystemRoleName = keyof typeof SYSTEM_ROLES;
