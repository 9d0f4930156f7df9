import {
  CHART_FAMILY_TYPES,
  CHART_PREMIUM_FAMILIES,
  hasSkuGate,
  DASHBOARD_MAX_CHARTS,
  type BulkDeleteResult,
  type Chart,
  type ChartData,
  type chartInputSchema,
  type dashboardInputSchema,
  type ChartRange,
  type Dashboard,
  type DashboardSummary,
  type DashboardLibraryCopyResult,
  type SearchIntervalType,
} from '@vigil/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { refusalFor, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { resolveRange } from '../events/service';
import { listAllOrgs, type OrgRow } from '../orgs/repo';
import { chartUsedInReports } from '../reports/usage';
import { viewerOf } from '../roles/rules';
import {
  copiedLibraryIds,
  findChartView,
  findChartViews,
  findDashboardView,
  findDefaultDashboardId,
  firstDashboardId,
  insertChart,
  insertDashboard,
  liveLibraryDashboards,
  markChartDeleted,
  markDashboardDeleted,
  setDefaultDashboard,
  updateChart,
  updateDashboard,
  type ChartRow,
  type ChartView,
  type DashboardRow,
  type DashboardView,
} from './repo';
import { CHART_SOURCES, type ChartSpec } from './sources';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

type ParsedChart = z.output<typeof chartInputSchema>;
type ParsedDashboard = z.output<typeof dashboardInputSchema>;

export const chartNotFound = () => new AppError('NotFoundException', 'CHART_NOT_FOUND', 'Chart not found');
export const dashboardNotFound = () =>
  new AppError('NotFoundException', 'DASHBOARD_NOT_FOUND', 'Dashboard not found');

const libraryDenied = () =>
  new AppError(
    'AccessDeniedException',
    'LIBRARY_COPY_DENIED',
    'Only provider administrators manage the library',
  );

/** Provider administrators: TRAC_ADMIN held by provider staff. */
export async function isProviderAdmin(db: Db, access: AccessContext): Promise<boolean> {
  return access.permissions.has('TRAC_ADMIN') && (await viewerOf(db, access)).providerStaff;
}

export async function assertProviderAdmin(db: Db, access: AccessContext) {
  if (!(await isProviderAdmin(db, access))) throw libraryDenied();
}

/** Writes the activity-log row of a change to a `kind` (chart, dashboard, workspace) by the actor. */
export const auditFor =
  (kind: string) =>
  async (
    db: Db,
    actor: Actor,
    action: string,
    id: string,
    details: Record<string, unknown>,
    orgId = actor.access.org.id,
  ) => {
    await recordActivity(db, {
      orgId,
      actorUserId: actor.access.user.id,
      action: `${kind}.${action}`,
      targetType: kind,
      targetId: id,
      details,
      ip: actor.ip,
    });
  };

// ---------------------------------------------------------------------------------------------------
// Charts

export function chartJson({ row, createdByName }: ChartView, editable: boolean): Chart {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    description: row.description,
    type: row.type as Chart['type'],
    family: row.family as Chart['family'],
    savedQueryIds: row.savedQueryIds,
    domain: row.domain as Chart['domain'],
    rowLimit: row.rowLimit,
    library: row.library,
    copiedFromId: row.copiedFromId,
    state: row.state as Chart['state'],
    editable,
    createdByName,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** Whether the caller may change each chart: the organisation's own, or the library's for provider admins. */
export async function chartEditableFlags(
  db: Db,
  access: AccessContext,
  rows: { library: boolean; orgId: string | null }[],
) {
  const editor = hasChartEdit(access);
  const admin = rows.some((row) => row.library) ? await isProviderAdmin(db, access) : false;
  return rows.map((row) => editor && (row.library ? admin : row.orgId === access.org.id));
}

const hasChartEdit = (access: AccessContext) =>
  access.permissions.has('CHART_EDIT') &&
  access.permissions.has('EVENT_EDIT') &&
  access.permissions.has('SAVED_SEARCH_EDIT');

/** Editing charts needs Event Search and Saved Search Read & Write besides Charts (spec 3 section 6). */
function assertChartEditor(access: AccessContext) {
  if (!hasChartEdit(access)) {
    throw new AppError(
      'AccessDeniedException',
      'CHART_EDIT_NEEDS_SEARCH',
      'Editing charts needs EVENT_EDIT and SAVED_SEARCH_EDIT',
    );
  }
}

const specOf = (input: ParsedChart | ChartRow): ChartSpec => ({
  type: input.type as ChartSpec['type'],
  family: input.family as ChartSpec['family'],
  savedQueryIds: [...input.savedQueryIds],
  domain: input.domain,
  rowLimit: input.rowLimit ?? null,
  library: input.library,
});

/**
 * Premium-only sources (CHART_PREMIUM_FAMILIES) need REPORTING_PREMIUM: 403 CHART_SOURCE_PREMIUM_ONLY
 * when a chart on one is made, changed, previewed or drawn in an organisation without it. Library
 * charts, which the provider makes for every customer, may use them; they draw only where premium.
 */
function assertPremiumSource(access: AccessContext, family: string) {
  if (
    CHART_PREMIUM_FAMILIES.includes(family as ChartSpec['family']) &&
    !hasSkuGate(access.org.productSkus, 'reportingPremium')
  ) {
    throw new AppError(
      'AccessDeniedException',
      'CHART_SOURCE_PREMIUM_ONLY',
      `The ${family} data source is premium only: it needs REPORTING_PREMIUM`,
      { params: { family } },
    );
  }
}

/** The rules of spec 3 for a chart; answers the settings to store. */
async function checkChart(db: Db, access: AccessContext, input: ParsedChart): Promise<ChartSpec> {
  if (!input.library) assertPremiumSource(access, input.family);
  if (!CHART_FAMILY_TYPES[input.family].includes(input.type)) {
    throw validationFailed('CHART_TYPE_NOT_SUPPORTED', `A ${input.type} chart cannot show ${input.family}`, {
      field: 'type',
      params: { type: input.type, family: input.family },
      validValues: [...CHART_FAMILY_TYPES[input.family]],
    });
  }
  return CHART_SOURCES[input.family].check(db, access, specOf(input));
}

const chartSnapshot = (row: ChartRow) => ({
  name: row.name,
  description: row.description,
  type: row.type,
  family: row.family,
  savedQueryIds: row.savedQueryIds,
  domain: row.domain,
  rowLimit: row.rowLimit,
  library: row.library,
  state: row.state,
});

const chartAudit = auditFor('chart');
export async function getChart(db: Db, access: AccessContext, id: string): Promise<Chart> {
  const view = await findChartView(db, access.org.id, id);
  if (!view) throw chartNotFound();
  const [editable] = await chartEditableFlags(db, access, [view.row]);
  return chartJson(view, editable!);
}

export async function createChart(db: Db, actor: Actor, input: ParsedChart): Promise<Chart> {
  const { access } = actor;
  assertChartEditor(access);
  if (input.library) await assertProviderAdmin(db, access);
  const spec = await checkChart(db, access, input);
  return db.transaction(async (tx) => {
    const row = await insertChart(tx, {
      orgId: input.library ? null : access.org.id,
      name: input.name,
      description: input.description,
      ...spec,
      createdBy: access.user.id,
    });
    await chartAudit(tx, actor, 'created', row.id, { after: chartSnapshot(row) });
    return chartJson((await findChartView(tx, access.org.id, row.id))!, true);
  });
}

async function editableChart(db: Db, access: AccessContext, id: string): Promise<ChartRow> {
  assertChartEditor(access);
  const view = await findChartView(db, access.org.id, id);
  if (!view) throw chartNotFound();
  if (view.row.library && !(await isProviderAdmin(db, access))) {
    throw new AppError('AccessDeniedException', 'CHART_LIBRARY_READ_ONLY', 'Library charts are read-only');
  }
  return view.row;
}

/** A chart's series are the data it draws: its family, queries and domain (not its look or name). */
const seriesChanged = (before: ChartRow, after: ChartSpec) =>
  before.family !== after.family ||
  before.domain !== after.domain ||
  JSON.stringify(before.savedQueryIds) !== JSON.stringify(after.savedQueryIds);

export async function updateChartFields(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedChart,
): Promise<Chart> {
  const { access } = actor;
  const before = await editableChart(db, access, id);
  if (before.state !== 'ACTIVE') throw chartNotFound();
  const spec = await checkChart(db, access, { ...input, library: before.library });
  if (seriesChanged(before, spec) && (await chartUsedInReports(db, id))) {
    throw validationFailed(
      'SERIES_USED_IN_ON_DEMAND_REPORT',
      'Cannot modify a series that is used in an On-Demand Report',
      { field: 'savedQueryIds' },
    );
  }
  return db.transaction(async (tx) => {
    const row = await updateChart(tx, id, { name: input.name, description: input.description, ...spec });
    await chartAudit(tx, actor, 'updated', id, { before: chartSnapshot(before), after: chartSnapshot(row) });
    return chartJson((await findChartView(tx, access.org.id, id))!, true);
  });
}

export async function deleteChart(db: Db, actor: Actor, id: string): Promise<Chart> {
  const before = await editableChart(db, actor.access, id);
  if (before.state === 'DELETED') throw conflict('ALREADY_DELETED', 'The chart is already deleted');
  return db.transaction(async (tx) => {
    const row = await markChartDeleted(tx, id);
    if (!row) throw conflict('ALREADY_DELETED', 'The chart is already deleted');
    await chartAudit(tx, actor, 'deleted', id, { before: chartSnapshot(before) });
    return chartJson((await findChartView(tx, actor.access.org.id, id))!, true);
  });
}

export async function restoreChart(db: Db, actor: Actor, id: string): Promise<Chart> {
  const before = await editableChart(db, actor.access, id);
  if (before.state !== 'DELETED') throw conflict('NOT_DELETED', 'The chart is not deleted');
  return db.transaction(async (tx) => {
    await updateChart(tx, id, { state: 'ACTIVE', deletedAt: null });
    await chartAudit(tx, actor, 'restored', id, { before: chartSnapshot(before) });
    return chartJson((await findChartView(tx, actor.access.org.id, id))!, true);
  });
}

interface Deletable {
  id: string;
  library: boolean;
  orgId: string | null;
}

/**
 * Deletes each item that is still as the caller saw it (same `modifiedOn`) and is the caller's to
 * delete (the organisation's, or the library's for provider administrators); the others count as
 * failed ('… may have been modified by another user'). Each deletion is audited, in one transaction.
 */
async function bulkDelete<Row extends Deletable>(
  db: Db,
  actor: Actor,
  items: { id: string; modifiedOn: string }[],
  steps: {
    find: (tx: Db, ids: string[]) => Promise<Row[]>;
    mark: (tx: Db, id: string, seenAt: Date) => Promise<Row | undefined>;
    audit: (tx: Db, before: Row) => Promise<void>;
  },
): Promise<BulkDeleteResult> {
  const admin = await isProviderAdmin(db, actor.access);
  const failedIds: string[] = [];
  let deleted = 0;
  await db.transaction(async (tx) => {
    const found = new Map(
      (
        await steps.find(
          tx,
          items.map((item) => item.id),
        )
      ).map((row) => [row.id, row]),
    );
    for (const item of items) {
      const before = found.get(item.id);
      const seenAt = new Date(item.modifiedOn);
      const allowed = before && (before.library ? admin : before.orgId === actor.access.org.id);
      const row =
        allowed && !Number.isNaN(seenAt.getTime()) ? await steps.mark(tx, item.id, seenAt) : undefined;
      if (!row) {
        failedIds.push(item.id);
        continue;
      }
      deleted++;
      await steps.audit(tx, before!);
    }
  });
  return { deleted, failed: failedIds.length, failedIds };
}

export async function bulkDeleteCharts(
  db: Db,
  actor: Actor,
  items: { id: string; modifiedOn: string }[],
): Promise<BulkDeleteResult> {
  assertChartEditor(actor.access);
  return bulkDelete<ChartRow>(db, actor, items, {
    find: async (tx, ids) => (await findChartViews(tx, actor.access.org.id, ids)).map((view) => view.row),
    mark: markChartDeleted,
    audit: (tx, before) =>
      chartAudit(tx, actor, 'deleted', before.id, { before: chartSnapshot(before), bulk: true }),
  });
}

/** The range of a data request: the one given, or the last 24 hours. */
function rangeOf(range: ChartRange, now: Date) {
  return resolveRange({ ...range, intervalType: range.intervalType }, now);
}

/** What a chart draws for the viewer over a range, under the viewer's permissions and data restrictions. */
export async function runChartSpec(
  db: Db,
  access: AccessContext,
  spec: ChartSpec,
  range: ChartRange,
  now = new Date(),
  onRollupsDeferred?: () => void,
): Promise<ChartData> {
  const source = CHART_SOURCES[spec.family];
  assertPremiumSource(access, spec.family);
  const refusal = refusalFor({ permission: source.viewPermission, sku: source.sku }, access);
  if (refusal) {
    throw new AppError(
      'AccessDeniedException',
      refusal,
      `Showing this chart needs ${source.viewPermission}`,
      {
        params: { permission: source.viewPermission },
      },
    );
  }
  const resolved = rangeOf(range, now);
  return source.run(db, access, spec, resolved, now, onRollupsDeferred);
}

/** The charts of `ids` the caller's organisation sees (its own and the library's), in any state. */
export async function visibleCharts(db: Db, access: AccessContext, ids: string[]): Promise<Chart[]> {
  const views = await findChartViews(db, access.org.id, ids);
  const flags = await chartEditableFlags(
    db,
    access,
    views.map((view) => view.row),
  );
  return views.map((view, index) => chartJson(view, flags[index]!));
}

export async function chartData(
  db: Db,
  access: AccessContext,
  id: string,
  range: ChartRange,
  onRollupsDeferred?: () => void,
): Promise<ChartData> {
  const view = await findChartView(db, access.org.id, id);
  if (!view || view.row.state !== 'ACTIVE') throw chartNotFound();
  return runChartSpec(db, access, specOf(view.row), range, new Date(), onRollupsDeferred);
}

/** The data of a chart not saved yet, checked by the same rules. */
export async function previewChart(
  db: Db,
  access: AccessContext,
  input: ParsedChart,
  range: ChartRange,
): Promise<ChartData> {
  const spec = await checkChart(db, access, input);
  return runChartSpec(db, access, spec, range);
}

// ---------------------------------------------------------------------------------------------------
// Dashboards

const dashboardSnapshot = (row: DashboardRow) => ({
  name: row.name,
  description: row.description,
  chartsPerRow: row.chartsPerRow,
  tiles: row.tiles,
  intervalType: row.intervalType,
  refreshSeconds: row.refreshSeconds,
  library: row.library,
  state: row.state,
});

const dashboardAudit = auditFor('dashboard');
async function dashboardEditable(db: Db, access: AccessContext, row: DashboardRow): Promise<boolean> {
  if (!access.permissions.has('DASHBOARD_EDIT')) return false;
  return row.library ? isProviderAdmin(db, access) : row.orgId === access.org.id;
}

function summaryJson(
  view: DashboardView,
  editable: boolean,
  defaultId: string | undefined,
): DashboardSummary {
  const { row, createdByName } = view;
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    description: row.description,
    chartsPerRow: row.chartsPerRow,
    intervalType: row.intervalType as SearchIntervalType,
    refreshSeconds: row.refreshSeconds,
    type: row.library ? 'LIBRARY' : 'NORMAL',
    copiedFromId: row.copiedFromId,
    state: row.state as Dashboard['state'],
    editable,
    isDefault: row.id === defaultId,
    createdByName,
    lastModifiedOn: row.modifiedOn.toISOString(),
    chartCount: row.tiles.length,
  };
}

async function dashboardJson(db: Db, access: AccessContext, view: DashboardView): Promise<Dashboard> {
  const chartViews = await findChartViews(
    db,
    access.org.id,
    view.row.tiles.map((tile) => tile.chartId),
  );
  const flags = await chartEditableFlags(
    db,
    access,
    chartViews.map((chart) => chart.row),
  );
  const byId = new Map(chartViews.map((chart, index) => [chart.row.id, chartJson(chart, flags[index]!)]));
  const defaultId = await findDefaultDashboardId(db, access.org.id, access.user.id);
  const { chartCount: _count, ...summary } = summaryJson(
    view,
    await dashboardEditable(db, access, view.row),
    defaultId,
  );
  return {
    ...summary,
    tiles: view.row.tiles.map((tile) => ({
      ...tile,
      height: tile.height ?? 1,
      chart: byId.get(tile.chartId) ?? null,
    })),
  };
}

export async function dashboardSummaries(db: Db, access: AccessContext, views: DashboardView[]) {
  const defaultId = await findDefaultDashboardId(db, access.org.id, access.user.id);
  const out: DashboardSummary[] = [];
  for (const view of views)
    out.push(summaryJson(view, await dashboardEditable(db, access, view.row), defaultId));
  return out;
}

export async function getDashboard(db: Db, access: AccessContext, id: string): Promise<Dashboard> {
  const view = await findDashboardView(db, access.org.id, id);
  if (!view) throw dashboardNotFound();
  return dashboardJson(db, access, view);
}

/** The caller's chosen default dashboard, else the organisation's first; null when it has none. */
export async function defaultDashboard(db: Db, access: AccessContext): Promise<Dashboard | null> {
  const id =
    (await findDefaultDashboardId(db, access.org.id, access.user.id)) ??
    (await firstDashboardId(db, access.org.id));
  return id ? getDashboard(db, access, id) : null;
}

/** Tiles: at most DASHBOARD_MAX_CHARTS, no wider than a row, each a live chart the dashboard may show. */
async function checkTiles(db: Db, access: AccessContext, input: ParsedDashboard) {
  if (input.tiles.length > DASHBOARD_MAX_CHARTS) {
    throw validationFailed('DASHBOARD_TOO_MANY_CHARTS', `At most ${DASHBOARD_MAX_CHARTS} charts`, {
      field: 'tiles',
      params: { max: DASHBOARD_MAX_CHARTS },
    });
  }
  const tooWide = input.tiles.findIndex((tile) => tile.width > input.chartsPerRow);
  if (tooWide >= 0) {
    throw validationFailed('DASHBOARD_TILE_TOO_WIDE', 'A tile is wider than the charts per row', {
      field: `tiles.${tooWide}.width`,
      params: { chartsPerRow: input.chartsPerRow },
    });
  }
  const found = new Map(
    (
      await findChartViews(
        db,
        access.org.id,
        input.tiles.map((tile) => tile.chartId),
      )
    ).map((view) => [view.row.id, view.row]),
  );
  input.tiles.forEach((tile, index) => {
    const chart = found.get(tile.chartId);
    // A library dashboard shows library charts only, since it is copied to every organisation.
    if (!chart || chart.state !== 'ACTIVE' || (input.library && !chart.library)) {
      throw validationFailed('DASHBOARD_CHART_MISSING', `Chart ${tile.chartId} is not available`, {
        field: `tiles.${index}.chartId`,
        params: { id: tile.chartId },
      });
    }
  });
}

const dashboardValues = (input: ParsedDashboard) => ({
  name: input.name,
  description: input.description,
  chartsPerRow: input.chartsPerRow,
  tiles: input.tiles.map((tile) => ({ chartId: tile.chartId, width: tile.width, height: tile.height })),
  intervalType: input.intervalType,
  refreshSeconds: input.refreshSeconds,
});

export async function createDashboard(db: Db, actor: Actor, input: ParsedDashboard): Promise<Dashboard> {
  const { access } = actor;
  if (input.library) await assertProviderAdmin(db, access);
  await checkTiles(db, access, input);
  return db.transaction(async (tx) => {
    const row = await insertDashboard(tx, {
      orgId: input.library ? null : access.org.id,
      library: input.library,
      ...dashboardValues(input),
      createdBy: access.user.id,
    });
    await dashboardAudit(tx, actor, 'created', row.id, { after: dashboardSnapshot(row) });
    return dashboardJson(tx, access, (await findDashboardView(tx, access.org.id, row.id))!);
  });
}

async function editableDashboard(db: Db, access: AccessContext, id: string): Promise<DashboardRow> {
  const view = await findDashboardView(db, access.org.id, id);
  if (!view) throw dashboardNotFound();
  if (view.row.library && !(await isProviderAdmin(db, access))) {
    throw new AppError(
      'AccessDeniedException',
      'DASHBOARD_LIBRARY_READ_ONLY',
      'Library dashboards are read-only',
    );
  }
  return view.row;
}

export async function updateDashboardFields(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedDashboard,
): Promise<Dashboard> {
  const { access } = actor;
  const before = await editableDashboard(db, access, id);
  if (before.state !== 'ACTIVE') throw dashboardNotFound();
  await checkTiles(db, access, { ...input, library: before.library });
  return db.transaction(async (tx) => {
    const row = await updateDashboard(tx, id, dashboardValues(input));
    await dashboardAudit(tx, actor, 'updated', id, {
      before: dashboardSnapshot(before),
      after: dashboardSnapshot(row),
    });
    return dashboardJson(tx, access, (await findDashboardView(tx, access.org.id, id))!);
  });
}

export async function deleteDashboard(db: Db, actor: Actor, id: string): Promise<void> {
  const before = await editableDashboard(db, actor.access, id);
  await db.transaction(async (tx) => {
    const row = await markDashboardDeleted(tx, id);
    if (!row) throw conflict('ALREADY_DELETED', 'The dashboard is already deleted');
    await dashboardAudit(tx, actor, 'deleted', id, { before: dashboardSnapshot(before) });
  });
}

export async function restoreDashboard(db: Db, actor: Actor, id: string): Promise<Dashboard> {
  const before = await editableDashboard(db, actor.access, id);
  if (before.state !== 'DELETED') throw conflict('NOT_DELETED', 'The dashboard is not deleted');
  return db.transaction(async (tx) => {
    await updateDashboard(tx, id, { state: 'ACTIVE', deletedAt: null });
    await dashboardAudit(tx, actor, 'restored', id, { before: dashboardSnapshot(before) });
    return dashboardJson(tx, actor.access, (await findDashboardView(tx, actor.access.org.id, id))!);
  });
}

export async function bulkDeleteDashboards(
  db: Db,
  actor: Actor,
  items: { id: string; modifiedOn: string }[],
): Promise<BulkDeleteResult> {
  return bulkDelete<DashboardRow>(db, actor, items, {
    find: async (tx, ids) => {
      const rows: DashboardRow[] = [];
      for (const id of ids) {
        const view = await findDashboardView(tx, actor.access.org.id, id);
        if (view) rows.push(view.row);
      }
      return rows;
    },
    mark: markDashboardDeleted,
    audit: (tx, before) =>
      dashboardAudit(tx, actor, 'deleted', before.id, { before: dashboardSnapshot(before), bulk: true }),
  });
}

export async function chooseDefaultDashboard(db: Db, actor: Actor, id: string): Promise<Dashboard> {
  const { access } = actor;
  const view = await findDashboardView(db, access.org.id, id);
  if (!view || view.row.library || view.row.state !== 'ACTIVE') throw dashboardNotFound();
  await setDefaultDashboard(db, access.org.id, access.user.id, id);
  return dashboardJson(db, access, view);
}

/**
 * Copies the live charts of `chartIds` the organisation sees (the library's) into it, in the
 * caller's transaction; answers the id of each copy by its original's (`copied_from_id`).
 */
export async function copyChartsInto(
  tx: Db,
  chartIds: string[],
  orgId: string,
  createdBy: string,
): Promise<Map<string, string>> {
  const copies = new Map<string, string>();
  for (const { row } of await findChartViews(tx, orgId, chartIds)) {
    if (row.state !== 'ACTIVE') continue;
    const copy = await insertChart(tx, {
      orgId,
      library: false,
      copiedFromId: row.id,
      name: row.name,
      description: row.description,
      type: row.type,
      family: row.family,
      savedQueryIds: row.savedQueryIds,
      domain: row.domain,
      rowLimit: row.rowLimit,
      createdBy,
    });
    copies.set(row.id, copy.id);
  }
  return copies;
}

/**
 * Copies a library dashboard and its charts into one organisation, in the caller's transaction;
 * the copies point at their originals (`copied_from_id`).
 */
export async function copyIntoOrg(
  tx: Db,
  library: DashboardRow,
  orgId: string,
  createdBy: string,
): Promise<DashboardRow> {
  const copies = await copyChartsInto(
    tx,
    library.tiles.map((tile) => tile.chartId),
    orgId,
    createdBy,
  );
  return insertDashboard(tx, {
    orgId,
    library: false,
    copiedFromId: library.id,
    name: library.name,
    description: library.description,
    chartsPerRow: library.chartsPerRow,
    tiles: library.tiles
      .filter((tile) => copies.has(tile.chartId))
      .map((tile) => ({ ...tile, chartId: copies.get(tile.chartId)! })),
    intervalType: library.intervalType,
    refreshSeconds: library.refreshSeconds,
    createdBy,
  });
}

/** 'From the library': a copy of a library dashboard (and its charts) in the caller's organisation. */
export async function addFromLibrary(db: Db, actor: Actor, id: string): Promise<Dashboard> {
  const { access } = actor;
  const view = await findDashboardView(db, access.org.id, id);
  if (!view || view.row.state !== 'ACTIVE') throw dashboardNotFound();
  if (!view.row.library) {
    throw validationFailed('DASHBOARD_NOT_LIBRARY', 'Only library dashboards are added from the library');
  }
  return db.transaction(async (tx) => {
    const row = await copyIntoOrg(tx, view.row, access.org.id, access.user.id);
    await dashboardAudit(tx, actor, 'copied', row.id, { fromLibraryId: id, after: dashboardSnapshot(row) });
    return dashboardJson(tx, access, (await findDashboardView(tx, access.org.id, row.id))!);
  });
}

export interface CopyCount {
  copied: number;
  skipped: number;
}

/**
 * Copies each library item an organisation holds no copy of yet (`already`: the ids of the library
 * items it has copies of, live or deleted), skipping the others.
 */
export async function copyMissing<T extends { id: string }>(
  library: T[],
  already: Set<string>,
  copy: (item: T) => Promise<void>,
): Promise<CopyCount> {
  const count = { copied: 0, skipped: 0 };
  for (const item of library) {
    if (already.has(item.id)) {
      count.skipped++;
      continue;
    }
    await copy(item);
    count.copied++;
  }
  return count;
}

/**
 * "Library items are copied to all customers by administrators" (spec 3): provider administrators
 * only; runs `copyInto` for every organisation but the provider's in one transaction, adds up what
 * was copied and skipped, and records it as `<kind>.library-copied` in the provider's log.
 */
export async function copyToEveryCustomer(
  db: Db,
  actor: Actor,
  audit: ReturnType<typeof auditFor>,
  copyInto: (tx: Db, org: OrgRow) => Promise<CopyCount>,
): Promise<DashboardLibraryCopyResult> {
  await assertProviderAdmin(db, actor.access);
  const customers = (await listAllOrgs(db)).filter((org) => !org.isProvider);
  const total = { copied: 0, skipped: 0 };
  await db.transaction(async (tx) => {
    for (const org of customers) {
      const { copied, skipped } = await copyInto(tx, org);
      total.copied += copied;
      total.skipped += skipped;
    }
    await audit(tx, actor, 'library-copied', actor.access.org.id, total);
  });
  return { ...total, orgs: customers.length };
}

/**
 * Copies every live library dashboard to every customer organisation (not the provider's), skipping
 * those an organisation already holds a copy of (spec 3). Provider administrators only.
 */
export async function copyLibraryToCustomers(db: Db, actor: Actor): Promise<DashboardLibraryCopyResult> {
  const library = await liveLibraryDashboards(db);
  return copyToEveryCustomer(db, actor, dashboardAudit, async (tx, org) =>
    copyMissing(library, await copiedLibraryIds(tx, org.id), async (dashboard) => {
      const row = await copyIntoOrg(tx, dashboard, org.id, actor.access.user.id);
      await dashboardAudit(tx, actor, 'copied', row.id, { fromLibraryId: dashboard.id }, org.id);
    }),
  );
}
