import type {
  Permission,
  TicketBulkCloseInput,
  TicketBulkCloseResult,
  TicketDraftList,
  TicketKind,
  UniversalTicketList,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { accessContextOf, refusalFor, type AccessContext, type SessionUser } from '../../platform/access';
import { AppError } from '../../platform/errors';
import { listUserOrgs } from '../orgs/repo';
import { loadOrgAccess } from '../users/access';
import { listDrafts } from './drafts';
import { findTicketView } from './repo';
import { changeTicketState, pageOfTickets, toTicket, type TicketDeps, type TicketPageQuery } from './service';

/** What each kind's own per-organisation routes need to read and to change a ticket. */
export const TICKET_PERMISSIONS: Record<TicketKind, { view: Permission; edit: Permission }> = {
  incident: { view: 'INCIDENT_VIEW', edit: 'INCIDENT_EDIT' },
  task: { view: 'TASK_VIEW', edit: 'TASK_EDIT' },
};

/**
 * The user's access in every organisation they may act in (their home and those they are authorised
 * for), read by the same rules as each organisation's own routes.
 */
async function accessByOrg(db: Db, user: SessionUser): Promise<Map<string, AccessContext>> {
  const contexts = new Map<string, AccessContext>();
  for (const org of await listUserOrgs(db, user)) {
    const orgAccess = await loadOrgAccess(db, user, org.id);
    if (orgAccess) contexts.set(org.id, accessContextOf(user, orgAccess));
  }
  return contexts;
}

/**
 * One list of the tickets of a kind across every organisation the user may read them in: those
 * organisations where the user holds the kind's view permission, never another.
 */
export async function listUniversalTickets(
  db: Db,
  user: SessionUser,
  kind: TicketKind,
  query: TicketPageQuery,
): Promise<UniversalTicketList> {
  const readable = [...(await accessByOrg(db, user)).values()].filter(
    (access) => refusalFor({ permission: TICKET_PERMISSIONS[kind].view }, access) === null,
  );
  const orgs = readable
    .map((access) => ({ id: access.org.id, name: access.org.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (orgs.length === 0) return { items: [], total: 0, orgs };
  const names = new Map(orgs.map((org) => [org.id, org.name]));
  const { items, total } = await pageOfTickets(
    db,
    orgs.map((org) => org.id),
    kind,
    query,
  );
  return {
    items: items.map((view) => ({
      ...toTicket(view),
      orgId: view.row.orgId,
      orgName: names.get(view.row.orgId) ?? '',
    })),
    total,
    orgs,
  };
}

/**
 * The drafts of every organisation where the user holds TRAC_ENGINEER (drafts are for the provider's
 * engineers), never another.
 */
export async function listUniversalDrafts(
  db: Db,
  user: SessionUser,
  query: Parameters<typeof listDrafts>[2],
): Promise<TicketDraftList> {
  const orgs = [...(await accessByOrg(db, user)).values()]
    .filter((access) => refusalFor({ permission: 'TRAC_ENGINEER' }, access) === null)
    .map((access) => ({ id: access.org.id, name: access.org.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return listDrafts(db, orgs, query);
}

/**
 * Closes tickets of several organisations, each by the rules of its own organisation's state change:
 * the user must hold the kind's edit permission there (PERMISSION_DENIED; ORG_NOT_AUTHORISED where
 * they may not act at all), the ticket must be of that organisation and kind (TICKET_NOT_FOUND),
 * unchanged since read (TICKET_MODIFIED) and not closed already (TICKET_SAME_STATE). Each ticket is
 * its own change: one refused does not stop the others.
 */
export async function bulkCloseTickets(
  deps: TicketDeps,
  user: SessionUser,
  ip: string | undefined,
  kind: TicketKind,
  input: TicketBulkCloseInput,
): Promise<TicketBulkCloseResult> {
  const contexts = await accessByOrg(deps.db, user);
  const results: TicketBulkCloseResult['results'] = [];
  const seen = new Set<string>();
  for (const { orgId, id, version } of input.tickets) {
    if (seen.has(`${orgId}/${id}`)) continue;
    seen.add(`${orgId}/${id}`);
    const access = contexts.get(orgId);
    const refusal = access
      ? refusalFor({ permission: TICKET_PERMISSIONS[kind].edit }, access)
      : 'ORG_NOT_AUTHORISED';
    if (!access || refusal) {
      results.push({ orgId, id, slug: null, outcome: refusal ?? 'ORG_NOT_AUTHORISED' });
      continue;
    }
    try {
      const closed = await changeTicketState(deps, { access, ip }, kind, id, { version, state: 'CLOSED' });
      results.push({ orgId, id, slug: closed.slug, outcome: 'closed' });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const view = await findTicketView(deps.db, orgId, { id }, kind);
      results.push({ orgId, id, slug: view?.row.slug ?? null, outcome: error.key });
    }
  }
  const closed = results.filter((result) => result.outcome === 'closed').length;
  return { results, closed, failed: results.length - closed };
}
