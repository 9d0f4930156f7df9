import {
  hasSkuGate,
  type workspaceInputSchema,
  type Workspace,
  type WorkspaceLabel,
  type WorkspaceLibraryCopyResult,
  type WorkspaceSharing,
} from '@vigil/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { AppError, validationFailed } from '../../platform/errors';
import { findDashboardView } from './repo';
import {
  assertProviderAdmin,
  auditFor,
  copyIntoOrg,
  copyToEveryCustomer,
  isProviderAdmin,
  type Actor,
} from './service';
import {
  copiedWorkspaceIds,
  dashboardCopiesOf,
  defaultLibraryWorkspaces,
  deleteWorkspaceRow,
  findWorkspaceView,
  insertWorkspace,
  liveDashboardNames,
  orgPeople,
  replaceShares,
  sharedUsersOf,
  updateWorkspace,
  type Viewer,
  type WorkspaceRow,
  type WorkspaceView,
} from './workspace-repo';

type ParsedWorkspace = z.output<typeof workspaceInputSchema>;

export const workspaceNotFound = () =>
  new AppError('NotFoundException', 'WORKSPACE_NOT_FOUND', 'Workspace not found');

/** A viewer changing a workspace that is view-only for them, or its sharing without owning it. */
const permissionDenied = (message: string) =>
  new AppError('AccessDeniedException', 'WORKSPACE_PERMISSION_DENIED', message);

const premiumOf = (access: AccessContext) => hasSkuGate(access.org.productSkus, 'reportingPremium');

export const workspaceViewer = (access: AccessContext): Viewer => ({
  orgId: access.org.id,
  userId: access.user.id,
  premium: premiumOf(access),
});

/** Whether the caller may change a workspace: the library's for provider admins, else owner or editor. */
function mayEdit(access: AccessContext, row: WorkspaceRow, admin: boolean): boolean {
  if (!access.permissions.has('DASHBOARD_EDIT')) return false;
  if (row.library) return admin;
  return row.ownerId === access.user.id || row.editableByOthers;
}

/** The spec's labels of a workspace as the caller sees it. */
function labelsOf(row: WorkspaceRow, owned: boolean, editable: boolean): WorkspaceLabel[] {
  const labels: WorkspaceLabel[] = [];
  if (!row.library) {
    if (owned) labels.push(row.sharing === 'NOBODY' ? 'PERSONAL' : 'SHARED');
    else if (row.sharing === 'USERS') labels.push('SHARED_WITH_ME');
    if (row.sharing === 'ALL') labels.push('PUBLIC');
  }
  labels.push(editable ? 'EDITOR' : 'VIEWER');
  if (row.copyToCustomers) labels.push('DEFAULT');
  if (row.premiumOnly) labels.push('PREMIUM_ONLY');
  return labels;
}

export async function workspaceJsons(db: Db, access: AccessContext, views: WorkspaceView[]) {
  const admin = views.some((view) => view.row.library) ? await isProviderAdmin(db, access) : false;
  const shares = await sharedUsersOf(
    db,
    views.map((view) => view.row.id),
  );
  const out: Workspace[] = [];
  for (const { row, ownerName } of views) {
    const owned = !row.library && row.ownerId === access.user.id;
    const editable = mayEdit(access, row, admin);
    const names = await liveDashboardNames(db, row.orgId, row.dashboardIds);
    out.push({
      id: row.id,
      orgId: row.orgId,
      name: row.name,
      description: row.description,
      dashboards: row.dashboardIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
      ownerId: row.ownerId,
      ownerName,
      sharing: row.sharing as WorkspaceSharing,
      sharedUsers: owned ? (shares.get(row.id) ?? []) : [],
      editableByOthers: row.editableByOthers,
      premiumOnly: row.premiumOnly,
      library: row.library,
      copyToCustomers: row.copyToCustomers,
      copiedFromId: row.copiedFromId,
      editable,
      owned,
      labels: labelsOf(row, owned, editable),
      lastModifiedOn: row.modifiedOn.toISOString(),
    });
  }
  return out;
}

async function visibleWorkspace(db: Db, access: AccessContext, id: string): Promise<WorkspaceView> {
  const view = await findWorkspaceView(db, workspaceViewer(access), id);
  if (!view) throw workspaceNotFound();
  return view;
}

export async function getWorkspace(db: Db, access: AccessContext, id: string): Promise<Workspace> {
  return (await workspaceJsons(db, access, [await visibleWorkspace(db, access, id)]))[0]!;
}

export async function sharePeople(db: Db, access: AccessContext) {
  return { items: await orgPeople(db, access.org.id) };
}

/** Dashboards live in the workspace's scope, shares with active people; answers the shares to store. */
async function checkInput(db: Db, access: AccessContext, input: ParsedWorkspace, library: boolean) {
  if (input.premiumOnly && !library && !premiumOf(access)) {
    throw new AppError(
      'AccessDeniedException',
      'PRODUCT_NOT_ENTITLED',
      'Premium-only workspaces need REPORTING_PREMIUM',
      { params: { sku: 'REPORTING_PREMIUM' } },
    );
  }
  const names = await liveDashboardNames(db, library ? null : access.org.id, input.dashboardIds);
  const missing = input.dashboardIds.findIndex((id) => !names.has(id));
  if (missing >= 0) {
    throw validationFailed('WORKSPACE_DASHBOARD_MISSING', 'A dashboard is not available', {
      field: `dashboardIds.${missing}`,
      params: { id: input.dashboardIds[missing]! },
    });
  }
  if (library || input.sharing !== 'USERS') return [];
  const people = new Set((await orgPeople(db, access.org.id)).map((person) => person.id));
  const invalid = input.sharedUserIds.findIndex((id) => !people.has(id));
  if (invalid >= 0) {
    throw validationFailed('WORKSPACE_SHARE_USER_INVALID', 'Shared with someone not of the organisation', {
      field: `sharedUserIds.${invalid}`,
      params: { id: input.sharedUserIds[invalid]! },
    });
  }
  return [...new Set(input.sharedUserIds)];
}

const valuesOf = (input: ParsedWorkspace, library: boolean) => ({
  name: input.name,
  description: input.description,
  dashboardIds: [...new Set(input.dashboardIds)],
  // A library workspace is for every user of the organisations it is copied to.
  sharing: library ? 'ALL' : input.sharing,
  editableByOthers: input.editableByOthers,
  premiumOnly: input.premiumOnly,
  copyToCustomers: library && input.copyToCustomers,
});

const snapshot = (row: WorkspaceRow, sharedUserIds: string[]) => ({
  name: row.name,
  description: row.description,
  dashboardIds: row.dashboardIds,
  sharing: row.sharing,
  sharedUserIds,
  editableByOthers: row.editableByOthers,
  premiumOnly: row.premiumOnly,
  copyToCustomers: row.copyToCustomers,
});

const audit = auditFor('workspace');
export async function createWorkspace(db: Db, actor: Actor, input: ParsedWorkspace): Promise<Workspace> {
  const { access } = actor;
  if (input.library) await assertProviderAdmin(db, access);
  const shares = await checkInput(db, access, input, input.library);
  return db.transaction(async (tx) => {
    const row = await insertWorkspace(tx, {
      orgId: input.library ? null : access.org.id,
      library: input.library,
      ownerId: input.library ? null : access.user.id,
      ...valuesOf(input, input.library),
    });
    await replaceShares(tx, row.id, shares);
    await audit(tx, actor, 'created', row.id, { after: snapshot(row, shares) });
    return getWorkspace(tx, access, row.id);
  });
}

export async function updateWorkspaceFields(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedWorkspace,
): Promise<Workspace> {
  const { access } = actor;
  const { row: before } = await visibleWorkspace(db, access, id);
  const admin = await isProviderAdmin(db, access);
  if (!mayEdit(access, before, admin)) throw permissionDenied('This workspace is view-only for you');
  const beforeShares = ((await sharedUsersOf(db, [id])).get(id) ?? []).map((user) => user.id);
  const next = valuesOf(input, before.library);
  const owner = before.library ? admin : before.ownerId === access.user.id;
  const sharingChanged =
    next.sharing !== before.sharing ||
    next.editableByOthers !== before.editableByOthers ||
    next.premiumOnly !== before.premiumOnly;
  // Others do not see whom it is shared with: their `sharedUserIds` are ignored.
  if (sharingChanged && !owner) throw permissionDenied('Only the owner changes who sees the workspace');
  const shares = await checkInput(db, access, input, before.library);
  return db.transaction(async (tx) => {
    const row = await updateWorkspace(tx, id, next);
    if (owner) await replaceShares(tx, id, shares);
    await audit(tx, actor, 'updated', id, {
      before: snapshot(before, beforeShares),
      after: snapshot(row, owner ? shares : beforeShares),
    });
    return getWorkspace(tx, access, id);
  });
}

/** Deleted by the owner (provider admins for library workspaces; editors for ownerless copies). */
export async function deleteWorkspace(db: Db, actor: Actor, id: string): Promise<void> {
  const { access } = actor;
  const { row } = await visibleWorkspace(db, access, id);
  const admin = await isProviderAdmin(db, access);
  const allowed = row.ownerId ? row.ownerId === access.user.id : mayEdit(access, row, admin);
  if (!allowed || !access.permissions.has('DASHBOARD_EDIT')) {
    throw permissionDenied('Only the owner deletes the workspace');
  }
  await db.transaction(async (tx) => {
    await deleteWorkspaceRow(tx, id);
    await audit(tx, actor, 'deleted', id, { before: snapshot(row, []) });
  });
}

/**
 * A copy of one library workspace in an organisation, in the caller's transaction. Its library
 * dashboards come along: the organisation's live copy of one is reused, otherwise it is copied in.
 * The copy has no owner and is shared with all users of the organisation.
 */
export async function copyWorkspaceInto(
  tx: Db,
  workspace: WorkspaceRow,
  orgId: string,
  createdBy: string,
): Promise<WorkspaceRow> {
  const copies = await dashboardCopiesOf(tx, orgId);
  const dashboardIds: string[] = [];
  for (const libraryId of workspace.dashboardIds) {
    let copyId = copies.get(libraryId);
    if (!copyId) {
      const original = await findDashboardView(tx, orgId, libraryId);
      if (!original?.row.library || original.row.state !== 'ACTIVE') continue;
      copyId = (await copyIntoOrg(tx, original.row, orgId, createdBy)).id;
    }
    dashboardIds.push(copyId);
  }
  return insertWorkspace(tx, {
    orgId,
    library: false,
    copiedFromId: workspace.id,
    ownerId: null,
    name: workspace.name,
    description: workspace.description,
    dashboardIds,
    sharing: 'ALL',
    editableByOthers: workspace.editableByOthers,
    premiumOnly: workspace.premiumOnly,
    copyToCustomers: true,
  });
}

/**
 * Copies the library workspaces marked "copied by default" into one customer organisation, in the
 * caller's transaction: those it has no copy of yet, premium-only ones only with REPORTING_PREMIUM.
 */
export async function copyDefaultWorkspacesInto(
  tx: Db,
  actor: Actor,
  org: { id: string; productSkus: readonly string[] },
): Promise<{ copied: number; skipped: number }> {
  const library = await defaultLibraryWorkspaces(tx);
  const already = await copiedWorkspaceIds(tx, org.id);
  const premium = hasSkuGate(org.productSkus, 'reportingPremium');
  let copied = 0;
  let skipped = 0;
  for (const workspace of library) {
    if (already.has(workspace.id) || (workspace.premiumOnly && !premium)) {
      skipped++;
      continue;
    }
    const row = await copyWorkspaceInto(tx, workspace, org.id, actor.access.user.id);
    await audit(tx, actor, 'copied', row.id, { fromLibraryId: workspace.id }, org.id);
    copied++;
  }
  return { copied, skipped };
}

/** Copies the default library workspaces to every customer organisation that has no copy yet. */
export async function copyWorkspacesToCustomers(db: Db, actor: Actor): Promise<WorkspaceLibraryCopyResult> {
  return copyToEveryCustomer(db, actor, audit, (tx, org) => copyDefaultWorkspacesInto(tx, actor, org));
}
