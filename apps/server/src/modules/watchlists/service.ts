import { eq } from 'drizzle-orm';
import {
  WATCHLIST_MAX_ITEMS,
  WATCHLIST_WARN_ITEMS,
  type Watchlist,
  type WatchlistDomain,
  type WatchlistUploadMode,
  type WatchlistUploadResult,
} from '@vigil/contracts';
import { parseQuery, validateQuery } from '@vigil/query';
import type { Db } from '../../db/client';
import { assertDomainEntitled, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import type { SpooledFile } from '../../platform/uploads';
import {
  allItems,
  deleteAllItems,
  deleteItems,
  deleteWatchlist,
  findWatchlistView,
  insertItems,
  insertWatchlist,
  nameTaken,
  touchWatchlist,
  updateWatchlist,
  type WatchlistRow,
  type WatchlistView,
} from './repo';
import { watchlists } from './tables';
import { readWatchlistFile } from './upload';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

export const watchlistNotFound = () =>
  new AppError('NotFoundException', 'WATCHLIST_NOT_FOUND', 'Watchlist not found');

const nameTakenError = (name: string) =>
  conflict('WATCHLIST_NAME_TAKEN', `A watchlist named ${name} already exists`, {
    field: 'name',
    params: { name },
  });

const itemsRequired = () =>
  validationFailed('WATCHLIST_ITEMS_REQUIRED', 'A watchlist needs at least one value', { field: 'items' });

/** 400 WATCHLIST_TOO_MANY_ITEMS when a list would hold `count` items. */
function assertWithinLimit(count: number) {
  if (count > WATCHLIST_MAX_ITEMS) {
    throw validationFailed(
      'WATCHLIST_TOO_MANY_ITEMS',
      `A watchlist holds at most ${WATCHLIST_MAX_ITEMS} items; this would be ${count - WATCHLIST_MAX_ITEMS} too many`,
      { field: 'items', params: { max: WATCHLIST_MAX_ITEMS, overflow: count - WATCHLIST_MAX_ITEMS } },
    );
  }
}

/**
 * The field must be a name the query language reads as one field when written bare (`user_name`,
 * `fields.card_bin`), so that triggers can search it as `field:value`.
 */
function assertValidField(field: string) {
  const text = `${field}:x`;
  const validation = validateQuery(text);
  const ast = validation.valid ? parseQuery(text) : null;
  if (ast?.type !== 'term' || ast.field !== field) {
    throw validationFailed(
      'WATCHLIST_FIELD_INVALID',
      validation.valid ? `${field} is not one field name` : validation.message,
      { field: 'field', params: { field } },
    );
  }
}

/** The listed values that are among `values`; a list holds at most 30,000, so it is read whole. */
const intersect = (listed: string[], values: ReadonlySet<string>) =>
  new Set(listed.filter((value) => values.has(value)));

/** Trimmed, distinct, without blanks. */
const distinctValues = (values: readonly string[]) =>
  new Set(values.map((value) => value.trim()).filter((value) => value !== ''));

export function toJson({ row, itemCount }: WatchlistView): Watchlist {
  return {
    id: row.id,
    domain: row.domain as WatchlistDomain,
    name: row.name,
    description: row.description,
    field: row.field,
    itemCount,
    nearLimit: itemCount >= WATCHLIST_WARN_ITEMS,
    createdBy: row.createdBy,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** A watchlist of the caller's organisation in a domain it holds; 404 or 403 otherwise. */
async function viewFor(db: Db, access: AccessContext, id: string): Promise<WatchlistView> {
  const view = await findWatchlistView(db, access.org.id, id);
  if (!view) throw watchlistNotFound();
  assertDomainEntitled(access, view.row.domain as WatchlistDomain);
  return view;
}

export async function getWatchlist(db: Db, access: AccessContext, id: string): Promise<Watchlist> {
  return toJson(await viewFor(db, access, id));
}

/** The watchlist's values, for exports. */
export async function watchlistExport(db: Db, access: AccessContext, id: string) {
  const { row } = await viewFor(db, access, id);
  return { name: row.name, values: await allItems(db, id) };
}

/**
 * The field and values of an organisation's watchlist, for triggers and matching; undefined when
 * the organisation holds no such watchlist.
 */
export async function watchlistValues(
  db: Db,
  orgId: string,
  watchlistId: string,
): Promise<{ domain: WatchlistDomain; field: string; values: string[] } | undefined> {
  const view = await findWatchlistView(db, orgId, watchlistId);
  if (!view) return undefined;
  return {
    domain: view.row.domain as WatchlistDomain,
    field: view.row.field,
    values: await allItems(db, watchlistId),
  };
}

const snapshot = (row: WatchlistRow) => ({
  domain: row.domain,
  name: row.name,
  description: row.description,
  field: row.field,
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

/** Holds the watchlist row until the transaction ends, so that concurrent item changes count in turn. */
async function lockWatchlist(tx: Db, id: string) {
  await tx.select({ id: watchlists.id }).from(watchlists).where(eq(watchlists.id, id)).for('update');
}

const currentView = async (tx: Db, access: AccessContext, id: string) =>
  toJson((await findWatchlistView(tx, access.org.id, id))!);

export async function createWatchlist(
  db: Db,
  actor: Actor,
  input: { domain: WatchlistDomain; name: string; description: string; field: string; items: string[] },
): Promise<Watchlist> {
  const { access } = actor;
  assertDomainEntitled(access, input.domain);
  assertValidField(input.field);
  const values = distinctValues(input.items);
  if (values.size === 0) throw itemsRequired();
  assertWithinLimit(values.size);
  if (await nameTaken(db, access.org.id, input.domain, input.name)) throw nameTakenError(input.name);
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await insertWatchlist(tx, {
        orgId: access.org.id,
        domain: input.domain,
        name: input.name,
        description: input.description,
        field: input.field,
        createdBy: access.user.id,
      });
      await insertItems(tx, row.id, values);
      await recordActivity(tx, {
        orgId: access.org.id,
        actorUserId: access.user.id,
        action: 'watchlist.created',
        targetType: 'watchlist',
        targetId: row.id,
        details: { after: snapshot(row), itemCount: values.size },
        ip: actor.ip,
      });
      return currentView(tx, access, row.id);
    }),
  );
}

export async function replaceWatchlist(
  db: Db,
  actor: Actor,
  id: string,
  input: { name: string; description: string; field: string },
): Promise<Watchlist> {
  const { access } = actor;
  const { row: before } = await viewFor(db, access, id);
  assertValidField(input.field);
  const domain = before.domain as WatchlistDomain;
  if (await nameTaken(db, access.org.id, domain, input.name, id)) throw nameTakenError(input.name);
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await updateWatchlist(tx, id, input);
      await recordActivity(tx, {
        orgId: access.org.id,
        actorUserId: access.user.id,
        action: 'watchlist.updated',
        targetType: 'watchlist',
        targetId: id,
        details: { before: snapshot(before), after: snapshot(row) },
        ip: actor.ip,
      });
      return currentView(tx, access, id);
    }),
  );
}

export async function removeWatchlist(db: Db, actor: Actor, id: string): Promise<void> {
  const { access } = actor;
  const { row: before, itemCount } = await viewFor(db, access, id);
  await db.transaction(async (tx) => {
    await deleteWatchlist(tx, id);
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'watchlist.deleted',
      targetType: 'watchlist',
      targetId: id,
      details: { before: snapshot(before), itemCount },
      ip: actor.ip,
    });
  });
}

/** Adds values; those already listed are skipped. */
export async function addWatchlistItems(
  db: Db,
  actor: Actor,
  id: string,
  items: string[],
): Promise<Watchlist> {
  const { access } = actor;
  await viewFor(db, access, id);
  const values = [...distinctValues(items)];
  if (values.length === 0) throw itemsRequired();
  return db.transaction(async (tx) => {
    await lockWatchlist(tx, id);
    const { itemCount } = (await findWatchlistView(tx, access.org.id, id))!;
    const known = intersect(await allItems(tx, id), new Set(values));
    assertWithinLimit(itemCount + values.length - known.size);
    const added = await insertItems(
      tx,
      id,
      values.filter((value) => !known.has(value)),
    );
    await touchWatchlist(tx, id);
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'watchlist.items-added',
      targetType: 'watchlist',
      targetId: id,
      details: { added },
      ip: actor.ip,
    });
    return currentView(tx, access, id);
  });
}

/** Removes values; a watchlist keeps at least one (400 WATCHLIST_ITEMS_REQUIRED). */
export async function removeWatchlistItems(
  db: Db,
  actor: Actor,
  id: string,
  items: string[],
): Promise<Watchlist> {
  const { access } = actor;
  await viewFor(db, access, id);
  const values = [...distinctValues(items)];
  if (values.length === 0) throw itemsRequired();
  return db.transaction(async (tx) => {
    await lockWatchlist(tx, id);
    const removed = await deleteItems(tx, id, values);
    const view = await currentView(tx, access, id);
    if (view.itemCount === 0) throw itemsRequired();
    await touchWatchlist(tx, id);
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'watchlist.items-removed',
      targetType: 'watchlist',
      targetId: id,
      details: { removed },
      ip: actor.ip,
    });
    return currentView(tx, access, id);
  });
}

/**
 * Reads an uploaded file into the watchlist: `append` adds its values, `replace` makes them the
 * whole list. The upload is refused whole when the list would exceed the limit.
 */
export async function uploadWatchlistItems(
  db: Db,
  actor: Actor,
  id: string,
  file: SpooledFile,
  mode: WatchlistUploadMode,
): Promise<WatchlistUploadResult> {
  const { access } = actor;
  const { row } = await viewFor(db, access, id);
  const read = new Set<string>();
  await readWatchlistFile(file, row.field, read);
  if (read.size === 0) throw itemsRequired();
  const values = [...read];
  return db.transaction(async (tx) => {
    await lockWatchlist(tx, id);
    const { itemCount } = (await findWatchlistView(tx, access.org.id, id))!;
    const known = intersect(await allItems(tx, id), read);
    assertWithinLimit(mode === 'replace' ? values.length : itemCount + values.length - known.size);
    if (mode === 'replace') await deleteAllItems(tx, id);
    await insertItems(tx, id, mode === 'replace' ? values : values.filter((value) => !known.has(value)));
    await touchWatchlist(tx, id);
    const added = values.length - known.size;
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'watchlist.uploaded',
      targetType: 'watchlist',
      targetId: id,
      details: { file: file.filename, mode, read: values.length, added, before: itemCount },
      ip: actor.ip,
    });
    return { watchlist: await currentView(tx, access, id), read: values.length, added };
  });
}
