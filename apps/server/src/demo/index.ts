import type { ManagementMode, OrgSettings, ProductSku } from '@vigil/contracts';
import type { Db } from '../db/client';
import { banners } from '../modules/banners/tables';
import { infoNotes, orgInfo } from '../modules/info/tables';
import { insertTag } from '../modules/metadata/repo';
import { insertOrg } from '../modules/orgs/repo';
import { insertRestriction } from '../modules/restrictions/repo';
import { insertCustomRole } from '../modules/roles/repo';
import type { SystemRoleName } from '../modules/roles/system-roles';
import { insertJobDescriptor, setUserJobDescriptors } from '../modules/users/job-descriptors';
import { insertUser } from '../modules/users/repo';
import { userOrgs } from '../modules/users/tables';
import { generatePassword, hashPassword } from '../platform/passwords';
import { seedAlertsDemo } from './alerts';
import { seedAssetsDemo } from './assets';
import { seedClassifiersDemo } from './classifiers';
import { seedCustomParsersDemo } from './custom-parsers';
import {
  seedDashboardsDemo,
  seedLibraryDashboardDemo,
  seedLibraryWorkspaceDemo,
  seedProviderDashboardDemo,
  seedRiskComplianceDashboardDemo,
  seedWorkspaceDemo,
} from './dashboards';
import { seedEscalationDemo } from './escalation';
import { seedGovernanceDemo } from './governance';
import { seedEventsDemo, seedProviderEventsDemo, seedTrickleTokens } from './events';
import { seedReportLibraryDemo, seedReportsDemo } from './reports';
import { seedReadinessDemo } from './home';
import { seedActionsDemo, seedIntegrationsDemo } from './integrations';
import { seedRiskDemo } from './risk';
import { seedThreatDemo } from './threat';
import { seedTriggerLibraryDemo } from './trigger-library';
import { seedGovernanceCalendarDemo, seedTaskSchedulesDemo } from './schedules';
import { seedTicketsDemo } from './tickets';
import { seedTriggersDemo } from './triggers';
import { seedWatchlistsDemo } from './watchlists';
import type { SecretBox } from '../platform/crypto';

export interface DemoContext {
  providerOrg: { id: string; name: string };
  adminUserId: string;
  roleIds: Record<SystemRoleName, string>;
  password?: string;
  /** An S3-compatible endpoint is configured: the demo log source is collected. */
  s3Endpoint?: string;
  /** Seals the demo action integration's client secret; without it Prairie has no action integration. */
  secrets?: SecretBox;
}

export interface DemoSummary {
  /** Shown once at first start when it was generated. */
  generatedPassword?: string;
  orgs: { id: string; name: string }[];
  users: { email: string; role: string; org: string }[];
}

interface DemoOrg {
  key: string;
  name: string;
  domain: string;
  productSkus: ProductSku[];
  managementMode: ManagementMode;
  featureFlags: Partial<Record<string, boolean>>;
  settings?: Partial<OrgSettings>;
}

const DEMO_ORGS: DemoOrg[] = [
  {
    key: 'harbor',
    name: 'First Harbor Bank',
    domain: 'firstharbor.example',
    productSkus: [
      'CYBERFRAUD_PREMIUM',
      'RISK_INFORMATION_SECURITY',
      'RISK_SYSTEMS_AND_APPLICATIONS',
      'RISK_THIRD_PARTY_RISK',
      'REPORTING_PREMIUM',
    ],
    managementMode: 'CTS_OPS_MANAGED',
    featureFlags: {
      cyberRiskReadinessDashboard: true,
      defaultRevealDashboards: true,
      universalTicketInbox: true,
      csmInformation: true,
    },
    settings: { csmName: 'Dana Whitfield', csmEmailAddress: 'dana.whitfield@vigil.example' },
  },
  {
    key: 'prairie',
    name: 'Prairie Credit Union',
    domain: 'prairiecu.example',
    productSkus: ['CYBERFRAUD_STANDARD', 'CUSTOM_PARSERS', 'RISK_SYSTEMS_AND_APPLICATIONS'],
    managementMode: 'CLIENT_MANAGED',
    // Only the readiness banner, on the dashboards.
    featureFlags: {
      automatedIntervention: true,
      infoPanel: true,
      defaultRevealDashboards: true,
      cyberRiskReadinessBanner: true,
    },
  },
  {
    key: 'coastal',
    name: 'Coastal Community Bank',
    domain: 'coastalcb.example',
    productSkus: [],
    managementMode: 'ONBOARDING',
    // Without defaultRevealDashboards its users land on the old dashboards until they switch.
    featureFlags: { infoPanel: false, escalationPage: false },
    // Its users set up an authenticator app at their first sign-in.
    settings: { requireTwoFactor: true, emailTimezone: 'America/Chicago' },
  },
];

const PROVIDER_DOMAIN = 'vigil.example';

/**
 * The demo data set. Each area adds its own records here, after the organisations and people they
 * belong to, so every page has something real to show on first start.
 */
export async function seedDemoData(db: Db, context: DemoContext): Promise<DemoSummary> {
  const generatedPassword = context.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(context.password ?? generatedPassword!);
  const summary: DemoSummary = { generatedPassword, orgs: [], users: [] };

  const orgIds: Record<string, string> = {};
  for (const demoOrg of DEMO_ORGS) {
    const { key: _key, domain: _domain, ...values } = demoOrg;
    const org = await insertOrg(db, values);
    orgIds[demoOrg.key] = org.id;
    summary.orgs.push({ id: org.id, name: org.name });
  }
  const clientOrgIds = Object.values(orgIds);

  // The bootstrap administrator works every demo client.
  await db.insert(userOrgs).values(clientOrgIds.map((orgId) => ({ userId: context.adminUserId, orgId })));

  const userIds: Record<string, string> = {};
  const addUser = async (
    email: string,
    firstName: string,
    lastName: string,
    role: SystemRoleName,
    homeOrgId: string,
    orgName: string,
    authorisedOrgIds: string[] = [],
  ) => {
    const user = await insertUser(db, {
      email,
      firstName,
      lastName,
      homeOrgId,
      roleId: context.roleIds[role],
      passwordHash,
      authorisedOrgIds,
    });
    userIds[email] = user.id;
    summary.users.push({ email, role, org: orgName });
  };

  const provider = context.providerOrg.name;
  await addUser(
    `engineer@${PROVIDER_DOMAIN}`,
    'Erin',
    'Okafor',
    'providerEngineer',
    context.providerOrg.id,
    provider,
    [orgIds.harbor!, orgIds.prairie!],
  );
  await addUser(
    `analyst@${PROVIDER_DOMAIN}`,
    'Sam',
    'Lindqvist',
    'providerUser',
    context.providerOrg.id,
    provider,
    clientOrgIds,
  );
  for (const demoOrg of DEMO_ORGS) {
    const orgId = orgIds[demoOrg.key]!;
    await addUser(`admin@${demoOrg.domain}`, 'Alex', 'Moreno', 'clientAdmin', orgId, demoOrg.name);
    await addUser(`analyst@${demoOrg.domain}`, 'Jordan', 'Reyes', 'clientAnalyst', orgId, demoOrg.name);
  }
  await addUser(
    `compliance@${DEMO_ORGS[0]!.domain}`,
    'Priya',
    'Natarajan',
    'complianceOfficer',
    orgIds.harbor!,
    DEMO_ORGS[0]!.name,
  );

  await seedShellDemo(db, {
    adminUserId: context.adminUserId,
    analystUserId: userIds[`analyst@${PROVIDER_DOMAIN}`]!,
    harborOrgId: orgIds.harbor!,
  });
  await seedMetadataDemo(db, {
    harborOrgId: orgIds.harbor!,
    harborAnalystId: userIds[`analyst@${DEMO_ORGS[0]!.domain}`]!,
    providerOrgId: context.providerOrg.id,
  });
  await seedAccessDemo(db, orgIds.harbor!, userIds[`analyst@${DEMO_ORGS[0]!.domain}`]!);
  await seedAssetsDemo(db, { harbor: orgIds.harbor!, prairie: orgIds.prairie!, coastal: orgIds.coastal! });
  await seedClassifiersDemo(db, orgIds.harbor!, context.adminUserId);
  await seedWatchlistsDemo(db, orgIds.harbor!, context.adminUserId);
  await seedThreatDemo(db, clientOrgIds, orgIds.harbor!, context.adminUserId);
  await seedEventsDemo(db, [orgIds.harbor!, orgIds.prairie!, orgIds.coastal!]);
  await seedTrickleTokens(db, [orgIds.harbor!, orgIds.prairie!, orgIds.coastal!]);
  await seedCustomParsersDemo(db, orgIds.prairie!, userIds[`admin@${DEMO_ORGS[1]!.domain}`]!);
  await seedTriggersDemo(db, orgIds.harbor!, context.adminUserId);
  await seedTriggerLibraryDemo(
    db,
    { harbor: orgIds.harbor!, prairie: orgIds.prairie!, coastal: orgIds.coastal! },
    context.adminUserId,
  );
  await seedAlertsDemo(db, orgIds.harbor!, userIds[`analyst@${DEMO_ORGS[0]!.domain}`]!);
  const peopleOf = (index: number) => ({
    orgId: orgIds[DEMO_ORGS[index]!.key]!,
    analystId: userIds[`analyst@${DEMO_ORGS[index]!.domain}`]!,
    adminId: userIds[`admin@${DEMO_ORGS[index]!.domain}`]!,
  });
  await seedTicketsDemo(db, peopleOf(0), peopleOf(1));
  await seedTaskSchedulesDemo(db, peopleOf(0), context.adminUserId);
  await seedGovernanceCalendarDemo(db, [peopleOf(0), peopleOf(2)]);
  await seedEscalationDemo(db, peopleOf(0));
  await seedGovernanceDemo(db, peopleOf(0));
  await seedReadinessDemo(db, peopleOf(0));
  await seedRiskDemo(db, peopleOf(0), context.adminUserId);
  for (const orgId of clientOrgIds) {
    const dashboardId = await seedDashboardsDemo(db, orgId, context.adminUserId);
    const demoOrg = DEMO_ORGS.find((entry) => orgIds[entry.key] === orgId)!;
    await seedReportsDemo(db, orgId, {
      dashboardId,
      requestedBy: context.adminUserId,
      recipient: `security@${demoOrg.domain}`,
    });
    if (orgId === orgIds.harbor) {
      await seedWorkspaceDemo(db, orgId, {
        ownerId: peopleOf(0).adminId,
        analystId: peopleOf(0).analystId,
        dashboardId,
      });
      await seedRiskComplianceDashboardDemo(db, orgId, context.adminUserId);
    }
  }
  await seedProviderEventsDemo(db, context.providerOrg.id);
  await seedProviderDashboardDemo(db, context.providerOrg.id, context.adminUserId);
  const libraryDashboardId = await seedLibraryDashboardDemo(db, context.adminUserId);
  await seedLibraryWorkspaceDemo(db, {
    libraryDashboardId,
    createdBy: context.adminUserId,
    customerOrgIds: clientOrgIds,
  });
  await seedReportLibraryDemo(db, {
    libraryDashboardId,
    createdBy: context.adminUserId,
    customerOrgIds: clientOrgIds,
  });
  await seedIntegrationsDemo(db, orgIds.harbor!, { collect: context.s3Endpoint !== undefined });
  if (context.secrets) await seedActionsDemo(db, context.secrets, orgIds.prairie!, context.adminUserId);
  return summary;
}

/** A banner for everyone, and the info panel of First Harbor with a threat level and notes. */
async function seedShellDemo(
  db: Db,
  ids: { adminUserId: string; analystUserId: string; harborOrgId: string },
) {
  await db.insert(banners).values({
    type: 'info',
    title: 'Welcome to Vigil',
    message: 'This console holds demo organisations and users. Dismiss this banner to see the next one.',
    createdBy: ids.adminUserId,
  });
  await db.insert(banners).values({
    type: 'warning',
    title: 'Scheduled maintenance',
    message: 'Event search may be slow on Sunday between 02:00 and 03:00 UTC.',
    hyperlink: 'https://status.vigil.example',
    createdBy: ids.adminUserId,
  });
  await db.insert(orgInfo).values({
    orgId: ids.harborOrgId,
    title: 'Suspected Activity',
    threatLevel: 'TWO',
    updatedBy: ids.analystUserId,
  });
  await db.insert(infoNotes).values([
    {
      orgId: ids.harborOrgId,
      createdBy: ids.analystUserId,
      pinned: true,
      noteText: 'Wire-fraud alerts go to the fraud desk first: +1 555 0142 (24/7).',
    },
    {
      orgId: ids.harborOrgId,
      createdBy: ids.adminUserId,
      noteText: 'Core banking migration scheduled for the first weekend of next month.',
    },
  ]);
}

/** First Harbor's tags, and a restriction keeping payroll events from its analyst and provider staff. */
async function seedMetadataDemo(
  db: Db,
  ids: { harborOrgId: string; harborAnalystId: string; providerOrgId: string },
) {
  for (const tag of [
    { name: 'Wire fraud', color: 'red' as const, description: 'Outgoing wire transfers under review' },
    { name: 'Phishing', color: 'orange' as const, description: 'Reported or detected phishing' },
    { name: 'Core banking', color: 'blue' as const, description: 'Events from the core banking platform' },
    { name: 'Board report', color: 'grape' as const, description: '' },
  ]) {
    await insertTag(db, ids.harborOrgId, tag);
  }
  await insertRestriction(db, ids.harborOrgId, {
    name: 'No payroll events',
    includeQuery: null,
    excludeQuery: 'source:payroll OR category:"human resources"',
    userIds: [ids.harborAnalystId],
    orgIds: [ids.providerOrgId],
  });
}

/** First Harbor's own role for its fraud desk, and job descriptors, one of them held by its analyst. */
async function seedAccessDemo(db: Db, harborOrgId: string, analystUserId: string) {
  await insertCustomRole(db, harborOrgId, {
    name: 'Fraud Desk Analyst',
    description: 'Works fraud alerts and incidents; reads events, assets and dashboards',
    permissions: [
      'EVENT_VIEW',
      'SAVED_SEARCH_VIEW',
      'ALERT_INBOX_EDIT',
      'INCIDENT_EDIT',
      'POLICY_LINK_VIEW',
      'ASSET_VIEW',
      'DASHBOARD_VIEW',
    ],
  });
  const lead = await insertJobDescriptor(db, harborOrgId, 'Fraud desk lead');
  await insertJobDescriptor(db, harborOrgId, 'Branch security officer');
  await setUserJobDescriptors(db, analystUserId, [lead.id]);
}
