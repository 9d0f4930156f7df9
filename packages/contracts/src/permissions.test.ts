import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  PERMISSION_AREAS,
  PERMISSION_MODULES,
  expandPermissions,
  missingRequiredPermissions,
  readOnlyPermissions,
} from './permissions';

describe('permission catalogue', () => {
  it('gives every area a Read Only and a Read & Write code in a known module', () => {
    for (const area of PERMISSION_AREAS) {
      expect(ALL_PERMISSIONS).toContain(`${area.code}_VIEW`);
      expect(ALL_PERMISSIONS).toContain(`${area.code}_EDIT`);
      expect(PERMISSION_MODULES).toContain(area.module);
    }
  });

  it('holds every view code the shell and the areas name', () => {
    const named = [
      'DASHBOARD_VIEW',
      'REPORT_VIEW',
      'CHART_VIEW',
      'INCIDENT_VIEW',
      'EVENT_VIEW',
      'SAVED_SEARCH_VIEW',
      'CLASSIFIER_VIEW',
      'ASSET_VIEW',
      'ALERT_INBOX_VIEW',
      'TRIGGER_VIEW',
      'THREATMATCH_VIEW',
      'TASK_VIEW',
      'TASK_SCHEDULE_VIEW',
      'POLICY_FRAMEWORK_VIEW',
      'CUSTOM_POLICY_VIEW',
      'CAT_POLICY_VIEW',
      'RISK_VIEW',
      'USER_VIEW',
      'AUTH_TOKEN_VIEW',
      'INTEGRATION_VIEW',
      'DATA_RESTRICTION_VIEW',
      'CUSTOM_PARSER_VIEW',
      'GLOBAL_SETTINGS_VIEW',
      'ESCALATION_VIEW',
      'TAG_VIEW',
      'RATE_THREAT_VIEW',
      'RATE_THREAT_EDIT',
      'ASSET_EDIT',
      'TRAC_ADMIN',
      'TRAC_ENGINEER',
      'TRAC_USER',
      'COMPLIANCE_ADMIN',
    ];
    for (const code of named) expect(ALL_PERMISSIONS).toContain(code);
  });

  it('has no duplicate codes', () => {
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
  });
});

describe('read-only mode', () => {
  it('keeps only codes containing _VIEW', () => {
    expect(readOnlyPermissions(['ASSET_VIEW', 'ASSET_EDIT', 'TRAC_USER', 'RATE_THREAT_VIEW'])).toEqual([
      'ASSET_VIEW',
      'RATE_THREAT_VIEW',
    ]);
  });
});

describe('expandPermissions', () => {
  it('adds the view code of each edit code and drops unknown codes', () => {
    expect([...expandPermissions(['ASSET_EDIT', 'NOT_A_CODE'])].sort()).toEqual(['ASSET_EDIT', 'ASSET_VIEW']);
  });
});

describe('missingRequiredPermissions', () => {
  it('reports that editing charts needs Event Search and Saved Search Read & Write', () => {
    const missing = missingRequiredPermissions(['CHART_EDIT', 'EVENT_EDIT']).map((dep) => dep.needs);
    expect(missing).toEqual(['SAVED_SEARCH_EDIT']);
  });

  it('reports that viewing dashboards needs Event Search', () => {
    expect(missingRequiredPermissions(['DASHBOARD_VIEW']).map((dep) => dep.needs)).toEqual(['EVENT_VIEW']);
    expect(missingRequiredPermissions(['DASHBOARD_VIEW', 'EVENT_VIEW'])).toEqual([]);
  });
});
