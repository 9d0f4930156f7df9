import type { RiskListItem, RiskListKind } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict } from '../../platform/errors';
import { deleteItem, insertItem, listItems } from './repo';
import type { Actor } from './service';

/** An organisation's custom lists (audits, asset types, policies, business units, risk owners, vendors). */

const toItem = (row: { id: string; kind: string; name: string; createdOn: Date }): RiskListItem => ({
  id: row.id,
  kind: row.kind as RiskListKind,
  name: row.name,
  createdOn: row.createdOn.toISOString(),
});

export async function listRiskListItems(db: Db, orgId: string, kind?: RiskListKind): Promise<RiskListItem[]> {
  return (await listItems(db, orgId, kind)).map(toItem);
}

/** Adds a name to a list; 409 RISK_LIST_ITEM_NAME_TAKEN when the list holds it already, any case. */
export async function addRiskListItem(db: Db, actor: Actor, kind: RiskListKind, name: string) {
  const orgId = actor.access.org.id;
  const row = await insertItem(db, orgId, kind, name);
  if (!row) {
    throw conflict('RISK_LIST_ITEM_NAME_TAKEN', `${name} is already in the list`, {
      field: 'name',
      params: { name },
    });
  }
  await recordActivity(db, {
    orgId,
    actorUserId: actor.access.user.id,
    action: 'risk-list.created',
    targetType: kind,
    targetId: row.id,
    details: { name },
    ip: actor.ip,
  });
  return toItem(row);
}

/** Deletes a list item; the risks naming it lose it (a risk owner leaves the risk without an owner). */
export async function removeRiskListItem(db: Db, actor: Actor, id: string) {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    const row = await deleteItem(tx, orgId, id);
    if (!row) throw new AppError('NotFoundException', 'RISK_LIST_ITEM_NOT_FOUND', 'List item not found');
    await recordActivity(tx, {
      orgId,
      actorUserId: actor.access.user.id,
      action: 'risk-list.deleted',
      targetType: row.kind,
      targetId: row.id,
      details: { name: row.name },
      ip: actor.ip,
    });
  });
}
