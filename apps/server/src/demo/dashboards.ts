import type { Db } from '../db/client';
import { insertChart, insertDashboard, type NewChart } from '../modules/dashboards/repo';
import { insertWorkspace, replaceShares } from '../modules/dashboards/workspace-repo';
import { copyWorkspaceInto } from '../modules/dashboards/workspace-service';
import { insertSavedQuery } from '../modules/saved-queries/repo';

const DATA_SOURCES = ['windows-security', 'firewall', 'web-proxy', 'core-banking'] as const;
const PROVIDER_DATA_SOURCES = ['windows-security', 'firewall', 'web-proxy'] as const;

type ChartSeed = Pick<NewChart, 'name' | 'description' | 'type' | 'family'> & {
  savedQueryIds?: string[];
  rowLimit?: number;
};

/**
 * Makes the saved queries and charts of one organisation's demo dashboard `dashboardName`, the
 * queries described as used by it.
 */
function dashboardParts(db: Db, orgId: string, createdBy: string, dashboardName: string) {
  const query = async (
    name: string,
    text: string,
    aggregation: { type: string; field?: string } | null = null,
  ) =>
    (
      await insertSavedQuery(db, {
        orgId,
        name,
        description: `Used by the ${dashboardName} dashboard.`,
        query: text,
        aggregation,
        primaryField: null,
        library: false,
        createdBy,
      })
    ).id;
  const chart = async (seed: ChartSeed) =>
    (
      await insertChart(db, {
        orgId,
        library: false,
        domain: 'security',
        savedQueryIds: seed.savedQueryIds ?? [],
        rowLimit: seed.rowLimit ?? null,
        createdBy,
        ...seed,
      })
    ).id;
  /** The tiles every events dashboard opens with: events per source over time, failed sign-ins, top hosts. */
  const eventTiles = async (sources: readonly string[]) => {
    const perSource: string[] = [];
    for (const source of sources)
      perSource.push(await query(`Events from ${source}`, `data_source:${source}`));
    const failed = await query('Failed sign-ins', 'data_source:windows-security AND outcome:failure');
    const hosts = await query('Top hosts', '_exists_:host', { type: 'terms', field: 'host' });
    return [
      {
        chartId: await chart({
          name: 'Events by data source',
          description: 'Events per data source over time.',
          type: 'line',
          family: 'SAVED_QUERIES',
          savedQueryIds: perSource,
        }),
        width: 2,
      },
      {
        chartId: await chart({
          name: 'Failed sign-ins',
          description: 'Failed Windows sign-ins in the range.',
          type: 'badge',
          family: 'SAVED_QUERIES',
          savedQueryIds: [failed],
        }),
        width: 1,
      },
      {
        chartId: await chart({
          name: 'Top hosts',
          description: '',
          type: 'bar',
          family: 'SAVED_QUERIES',
          savedQueryIds: [hosts],
        }),
        width: 1,
      },
    ];
  };
  return { query, chart, eventTiles };
}

/**
 * Each demo bank's default dashboard, "Security operations", of live charts over its demo events
 * and alerts: events by data source over time, failed sign-ins, top hosts, alerts by severity,
 * transactions by type, the latest core-banking events and the alert trend. Answers the
 * dashboard's id.
 */
export async function seedDashboardsDemo(db: Db, orgId: string, createdBy: string): Promise<string> {
  const { query, chart, eventTiles } = dashboardParts(db, orgId, createdBy, 'Security operations');
  const transactions = await query('Transactions by type', 'data_source:core-banking', {
    type: 'terms',
    field: 'transactionType',
  });
  const coreBanking = await query('Core-banking events', 'data_source:core-banking');
  const tiles = [
    ...(await eventTiles(DATA_SOURCES)),
    {
      chartId: await chart({
        name: 'Alerts by severity',
        description: '',
        type: 'bar',
        family: 'ALERT_COUNTS',
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'Transactions by type',
        description: '',
        type: 'pie',
        family: 'SAVED_QUERIES',
        savedQueryIds: [transactions],
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'Latest core-banking events',
        description: '',
        type: 'events_table',
        family: 'SAVED_QUERIES',
        savedQueryIds: [coreBanking],
        rowLimit: 10,
      }),
      width: 2,
      // A tall tile: the ten latest events without scrolling.
      height: 2,
    },
    {
      chartId: await chart({
        name: 'Alert trend',
        description: 'Alerts per day over the past year.',
        type: 'line',
        family: 'ALERT_TRENDS',
      }),
      width: 1,
    },
  ];
  const dashboard = await insertDashboard(db, {
    orgId,
    library: false,
    name: 'Security operations',
    description: 'Events, sign-ins and alerts of the bank at a glance.',
    chartsPerRow: 3,
    tiles,
    intervalType: '7D',
    refreshSeconds: 300,
    createdBy,
  });
  return dashboard.id;
}

/**
 * The provider organisation's default dashboard, "Platform operations", of live charts over its own
 * events (`seedProviderEventsDemo`): events by data source, failed sign-ins, top hosts, denied
 * connections by port, sign-ins by user and the latest blocked web requests, over 30 days since no
 * trickle feeds the provider.
 */
export async function seedProviderDashboardDemo(db: Db, orgId: string, createdBy: string): Promise<string> {
  const { query, chart, eventTiles } = dashboardParts(db, orgId, createdBy, 'Platform operations');
  const denied = await query('Denied connections by port', 'data_source:firewall AND action:deny', {
    type: 'terms',
    field: 'dstPort',
  });
  const signIns = await query('Sign-ins by user', 'data_source:windows-security', {
    type: 'terms',
    field: 'user_name',
  });
  const blocked = await query('Blocked web requests', 'data_source:web-proxy AND status:403');
  const tiles = [
    ...(await eventTiles(PROVIDER_DATA_SOURCES)),
    {
      chartId: await chart({
        name: 'Denied connections by port',
        description: 'Firewall denies of the platform per destination port.',
        type: 'pie',
        family: 'SAVED_QUERIES',
        savedQueryIds: [denied],
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'Sign-ins by user',
        description: '',
        type: 'bar',
        family: 'SAVED_QUERIES',
        savedQueryIds: [signIns],
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'Latest blocked web requests',
        description: '',
        type: 'events_table',
        family: 'SAVED_QUERIES',
        savedQueryIds: [blocked],
        rowLimit: 10,
      }),
      width: 3,
    },
  ];
  const dashboard = await insertDashboard(db, {
    orgId,
    library: false,
    name: 'Platform operations',
    description: "Sign-ins and traffic of the provider's own platform.",
    chartsPerRow: 3,
    tiles,
    intervalType: '30D',
    refreshSeconds: 0,
    createdBy,
  });
  return dashboard.id;
}

/**
 * First Harbor's "Security risk and compliance" dashboard: its risks by residual risk, controls by
 * overall score, framework answers and the FFIEC CAT summary and risk profile (after "Security
 * operations" in name order, which stays where users land).
 */
export async function seedRiskComplianceDashboardDemo(
  db: Db,
  orgId: string,
  createdBy: string,
): Promise<string> {
  const chart = async (seed: ChartSeed) =>
    (
      await insertChart(db, {
        orgId,
        library: false,
        domain: 'security',
        savedQueryIds: [],
        rowLimit: null,
        createdBy,
        ...seed,
      })
    ).id;
  const tiles = [
    {
      chartId: await chart({
        name: 'Risks by residual risk',
        description: 'Active risks of the register.',
        type: 'bar',
        family: 'RISKS',
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'Controls by overall score',
        description: '',
        type: 'pie',
        family: 'CONTROLS',
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'Framework answers',
        description: "Each framework's controls per answer in its current evaluation period.",
        type: 'bar',
        family: 'FRAMEWORKS',
      }),
      width: 2,
    },
    {
      chartId: await chart({
        name: 'FFIEC CAT summary',
        description: 'Maturity assessed and statements implemented per domain.',
        type: 'table',
        family: 'CAT_SUMMARY',
      }),
      width: 1,
    },
    {
      chartId: await chart({
        name: 'FFIEC CAT inherent risk profile',
        description: '',
        type: 'table',
        family: 'CAT_RISK_PROFILE',
      }),
      width: 1,
    },
  ];
  const dashboard = await insertDashboard(db, {
    orgId,
    library: false,
    name: 'Security risk and compliance',
    description: 'The risk register and the framework work as they stand.',
    chartsPerRow: 2,
    tiles,
    intervalType: '30D',
    refreshSeconds: 0,
    createdBy,
  });
  return dashboard.id;
}

/** The provider's library dashboard "Alert desk", of alert charts that work in every organisation. */
export async function seedLibraryDashboardDemo(db: Db, createdBy: string): Promise<string> {
  const chart = async (seed: ChartSeed) =>
    (
      await insertChart(db, {
        orgId: null,
        library: true,
        domain: 'security',
        savedQueryIds: [],
        rowLimit: seed.rowLimit ?? null,
        createdBy,
        ...seed,
      })
    ).id;
  const tiles = [
    {
      chartId: await chart({
        name: 'Alerts by severity',
        description: '',
        type: 'pie',
        family: 'ALERT_COUNTS',
      }),
      width: 1,
    },
    {
      chartId: await chart({ name: 'Alert trend', description: '', type: 'area', family: 'ALERT_TRENDS' }),
      width: 2,
    },
    {
      chartId: await chart({
        name: 'Latest alerts',
        description: '',
        type: 'table',
        family: 'ALERT_LIST',
        rowLimit: 10,
      }),
      width: 2,
    },
    {
      chartId: await chart({
        name: 'Dismissed by trigger',
        description: '',
        type: 'bar',
        family: 'DISMISSED_TRIGGER_ACTIVITY',
      }),
      width: 1,
    },
  ];
  const dashboard = await insertDashboard(db, {
    orgId: null,
    library: true,
    name: 'Alert desk',
    description: 'What the alert inbox holds and how it is worked.',
    chartsPerRow: 3,
    tiles,
    intervalType: '30D',
    refreshSeconds: 0,
    createdBy,
  });
  return dashboard.id;
}

/**
 * A shared workspace "Shift handover" holding the Security operations dashboard, owned by the
 * bank's administrator and shared view-only with its analyst.
 */
export async function seedWorkspaceDemo(
  db: Db,
  orgId: string,
  ids: { ownerId: string; analystId: string; dashboardId: string },
): Promise<string> {
  const workspace = await insertWorkspace(db, {
    orgId,
    library: false,
    name: 'Shift handover',
    description: 'What the day shift hands to the night shift.',
    dashboardIds: [ids.dashboardId],
    ownerId: ids.ownerId,
    sharing: 'USERS',
    editableByOthers: false,
  });
  await replaceShares(db, workspace.id, [ids.analystId]);
  return workspace.id;
}

/**
 * The provider's library workspace "SOC essentials", holding the library's Alert desk dashboard and
 * marked Default (copied to customers), and its copy in each demo bank, as a bank gets it when
 * created: shared with all its users, with its own copy of Alert desk.
 */
export async function seedLibraryWorkspaceDemo(
  db: Db,
  ids: { libraryDashboardId: string; createdBy: string; customerOrgIds: readonly string[] },
): Promise<string> {
  const workspace = await insertWorkspace(db, {
    orgId: null,
    library: true,
    ownerId: null,
    name: 'SOC essentials',
    description: 'The alert desk every customer starts from.',
    dashboardIds: [ids.libraryDashboardId],
    sharing: 'ALL',
    editableByOthers: false,
    premiumOnly: false,
    copyToCustomers: true,
  });
  for (const orgId of ids.customerOrgIds) await copyWorkspaceInto(db, workspace, orgId, ids.createdBy);
  return workspace.id;
}
