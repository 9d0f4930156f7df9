import { validateQuery } from '@vigil/query';
import type { Aggregation, SavedQuery, SavedQueryInput } from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { viewerOf } from '../roles/rules';
import { countChartsUsingQuery } from '../dashboards/repo';
import { savedQueryUsedInReports } from '../reports/usage';
import { countTriggersUsingQuery } from '../triggers/repo';
import {
  deleteSavedQuery,
  findSavedQueryView,
  insertSavedQuery,
  nameTaken,
  updateSavedQuery,
  type SavedQueryRow,
  type SavedQueryView,
} from './repo';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

export const savedQueryNotFound = () =>
  new AppError('NotFoundException', 'SAVED_QUERY_NOT_FOUND', 'Saved or library query not found');

const nameTakenError = (name: string) =>
  conflict('SAVED_QUERY_NAME_TAKEN', `A saved query named ${name} already exists`, {
    field: 'name',
    params: { name },
  });

const libraryReadOnly = () =>
  new AppError(
    'AccessDeniedException',
    'SAVED_QUERY_LIBRARY_READ_ONLY',
    'Library queries can be changed only by provider staff',
  );

/** 400 SAVED_QUERY_INVALID_QUERY with the position of the fault. */
function assertValidQuery(query: string) {
  const result = validateQuery(query);
  if (!result.valid) {
    throw validationFailed(
      'SAVED_QUERY_INVALID_QUERY',
      `Invalid query at ${result.position}: ${result.message}`,
      {
        field: 'query',
        params: { position: result.position, message: result.message },
      },
    );
  }
}

/**
 * How many live triggers (not deleted or archived) use a saved query, alone or as a sequence step,
 * and how many live charts draw it; a query in use keeps its aggregation, since the chart types
 * that can draw it depend on it. Reports register their use here when they exist.
 */
export async function savedQueryUseCount(db: Db, id: string): Promise<number> {
  return (await countTriggersUsingQuery(db, id)) + (await countChartsUsingQuery(db, id));
}

/** Library queries are changed only by provider staff; an organisation's only by its own people. */
async function mayEdit(db: Db, access: AccessContext, row: SavedQueryRow): Promise<boolean> {
  if (row.library) return (await viewerOf(db, access)).providerStaff;
  return row.orgId === access.org.id;
}

export function toJson({ row, createdByName }: SavedQueryView, editable: boolean): SavedQuery {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    description: row.description,
    query: row.query,
    aggregation: (row.aggregation as Aggregation | null) ?? null,
    primaryField: row.primaryField,
    library: row.library,
    editable,
    createdBy: row.createdBy,
    createdByName,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** Whether the caller may change each of these queries. */
export async function editableFlags(db: Db, access: AccessContext, views: SavedQueryView[]) {
  const staff = views.some((view) => view.row.library) ? (await viewerOf(db, access)).providerStaff : false;
  return views.map((view) => (view.row.library ? staff : view.row.orgId === access.org.id));
}

export async function getSavedQuery(db: Db, access: AccessContext, id: string): Promise<SavedQuery> {
  const view = await findSavedQueryView(db, access.org.id, id);
  if (!view) throw savedQueryNotFound();
  return toJson(view, await mayEdit(db, access, view.row));
}

const snapshot = (row: SavedQueryRow) => ({
  name: row.name,
  description: row.description,
  query: row.query,
  aggregation: row.aggregation,
  primaryField: row.primaryField,
  library: row.library,
});

/** Unique-index races end as 409 like the checked case. */
async function mapDuplicate<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) === '23505') throw nameTakenError(name);
    throw error;
  }
}

type ParsedInput = {
  name: string;
  description: string;
  query: string;
  aggregation?: SavedQueryInput['aggregation'];
  primaryField?: string | null;
};

export async function createSavedQuery(db: Db, actor: Actor, input: ParsedInput): Promise<SavedQuery> {
  const { access } = actor;
  assertValidQuery(input.query);
  if (await nameTaken(db, { orgId: access.org.id }, input.name)) throw nameTakenError(input.name);
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await insertSavedQuery(tx, {
        orgId: access.org.id,
        name: input.name,
        description: input.description,
        query: input.query,
        aggregation: input.aggregation ?? null,
        primaryField: input.primaryField ?? null,
        library: false,
        createdBy: access.user.id,
      });
      await recordActivity(tx, {
        orgId: access.org.id,
        actorUserId: access.user.id,
        action: 'saved-query.created',
        targetType: 'saved-query',
        targetId: row.id,
        details: { after: snapshot(row) },
        ip: actor.ip,
      });
      return toJson((await findSavedQueryView(tx, access.org.id, row.id))!, true);
    }),
  );
}

async function editableRow(db: Db, access: AccessContext, id: string): Promise<SavedQueryRow> {
  const view = await findSavedQueryView(db, access.org.id, id);
  if (!view) throw savedQueryNotFound();
  if (!(await mayEdit(db, access, view.row))) throw libraryReadOnly();
  return view.row;
}

/** A query drawing a chart of a report template keeps its search (its name and description may change). */
const usedInReports = () =>
  validationFailed(
    'SAVED_QUERY_USED_IN_ON_DEMAND_REPORT',
    'Cannot modify a saved query that is used in an On-Demand Report',
    { field: 'query' },
  );

const sameAggregation = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export async function replaceSavedQuery(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedInput,
): Promise<SavedQuery> {
  const { access } = actor;
  const before = await editableRow(db, access, id);
  assertValidQuery(input.query);
  const scope = before.library ? ({ library: true } as const) : { orgId: access.org.id };
  if (await nameTaken(db, scope, input.name, id)) throw nameTakenError(input.name);
  const aggregation = input.aggregation ?? null;
  const searchChanged = before.query !== input.query || !sameAggregation(before.aggregation, aggregation);
  if (searchChanged && (await savedQueryUsedInReports(db, id))) throw usedInReports();
  if (!sameAggregation(before.aggregation, aggregation) && (await savedQueryUseCount(db, id)) > 0) {
    throw conflict(
      'SAVED_QUERY_AGGREGATION_IN_USE',
      'The aggregation cannot change while the query is in use',
      {
        field: 'aggregation',
      },
    );
  }
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await updateSavedQuery(tx, id, {
        name: input.name,
        description: input.description,
        query: input.query,
        aggregation,
        primaryField: input.primaryField ?? null,
      });
      await recordActivity(tx, {
        orgId: access.org.id,
        actorUserId: access.user.id,
        action: 'saved-query.updated',
        targetType: 'saved-query',
        targetId: id,
        details: { before: snapshot(before), after: snapshot(row) },
        ip: actor.ip,
      });
      return toJson((await findSavedQueryView(tx, access.org.id, id))!, true);
    }),
  );
}

export async function removeSavedQuery(db: Db, actor: Actor, id: string): Promise<void> {
  const { access } = actor;
  const before = await editableRow(db, access, id);
  if (await savedQueryUsedInReports(db, id)) throw usedInReports();
  await db.transaction(async (tx) => {
    await deleteSavedQuery(tx, id);
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'saved-query.deleted',
      targetType: 'saved-query',
      targetId: id,
      details: { before: snapshot(before) },
      ip: actor.ip,
    });
  });
}

/**
 * Makes an organisation's query a library query, visible to every organisation and from then on
 * changed only by provider staff. Provider administrators only (TRAC_ADMIN held by provider staff).
 */
export async function promoteSavedQuery(db: Db, actor: Actor, id: string): Promise<SavedQuery> {
  const { access } = actor;
  if (!access.permissions.has('TRAC_ADMIN') || !(await viewerOf(db, access)).providerStaff) {
    throw new AppError(
      'AccessDeniedException',
      'SAVED_QUERY_PROMOTE_DENIED',
      'Only provider administrators may add queries to the library',
    );
  }
  const view = await findSavedQueryView(db, access.org.id, id);
  if (!view) throw savedQueryNotFound();
  const before = view.row;
  if (before.library) throw conflict('SAVED_QUERY_ALREADY_LIBRARY', 'The query is already a library query');
  if (await nameTaken(db, { library: true }, before.name)) throw nameTakenError(before.name);
  return mapDuplicate(before.name, () =>
    db.transaction(async (tx) => {
      const row = await updateSavedQuery(tx, id, { library: true, orgId: null });
      await recordActivity(tx, {
        orgId: access.org.id,
        actorUserId: access.user.id,
        action: 'saved-query.promoted',
        targetType: 'saved-query',
        targetId: id,
        details: { before: snapshot(before), after: snapshot(row), fromOrgId: before.orgId },
        ip: actor.ip,
      });
      return toJson((await findSavedQueryView(tx, access.org.id, id))!, true);
    }),
  );
}
