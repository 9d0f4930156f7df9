import {
  CLASSIFIER_MAX_COUNT,
  CLASSIFIER_MAX_METADATA,
  CLASSIFIER_METADATA_KEY_MAX_LENGTH,
  CLASSIFIER_METADATA_KEY_PATTERN,
  CLASSIFIER_METADATA_VALUE_MAX_LENGTH,
  hasSkuGate,
  type Classifier,
  type ClassifierList,
  type Permission,
} from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { accessDenied, AppError, conflict, validationFailed } from '../../platform/errors';
import { resolveField } from '../events/repo';
import { viewerOf } from '../roles/rules';
import {
  classifierIds,
  deleteClassifier,
  findClassifier,
  insertClassifier,
  listClassifiers,
  nameTaken,
  reorderClassifiers,
  updateClassifier,
  type ClassifierRow,
  type NewClassifier,
  type Owner,
} from './repo';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

/** Which list a call works on: the organisation's classifiers or the provider's library. */
export type ClassifierScope = 'org' | 'library';

export type ParsedClassifierInput = Omit<NewClassifier, 'paused' | 'createdBy'> & {
  metadata: Record<string, string>;
};

export const classifierNotFound = () =>
  new AppError('NotFoundException', 'CLASSIFIER_NOT_FOUND', 'Classifier not found');

const nameTakenError = (name: string) =>
  conflict('CLASSIFIER_NAME_TAKEN', `A classifier named ${name} already exists`, {
    field: 'name',
    params: { name },
  });

/**
 * Names a search reads from an event column (host, src_ip, srcIp, ip…): an attribute of that name
 * would be stored in the fields yet never found.
 */
const reservedKey = (key: string) => resolveField(key)?.kind !== 'field';

/** Every rule of the input beyond its shape, before anything is written. */
function assertValidInput(access: AccessContext, scope: ClassifierScope, input: ParsedClassifierInput) {
  const result = validateQuery(input.query);
  if (!result.valid) {
    throw validationFailed(
      'CLASSIFIER_INVALID_QUERY',
      `Invalid query at ${result.position}: ${result.message}`,
      {
        field: 'query',
        params: { position: result.position, message: result.message },
      },
    );
  }
  const entries = Object.entries(input.metadata);
  if (entries.length > CLASSIFIER_MAX_METADATA) {
    throw validationFailed('CLASSIFIER_TOO_MANY_METADATA', `At most ${CLASSIFIER_MAX_METADATA} attributes`, {
      field: 'metadata',
      params: { max: CLASSIFIER_MAX_METADATA },
    });
  }
  for (const [key, value] of entries) {
    if (!CLASSIFIER_METADATA_KEY_PATTERN.test(key) || key.length > CLASSIFIER_METADATA_KEY_MAX_LENGTH) {
      throw validationFailed('CLASSIFIER_INVALID_METADATA_KEY', `Invalid metadata key: ${key}`, {
        field: 'metadata',
        params: { key, maxLength: CLASSIFIER_METADATA_KEY_MAX_LENGTH },
      });
    }
    if (reservedKey(key)) {
      throw validationFailed('CLASSIFIER_METADATA_KEY_RESERVED', `Metadata key ${key} is an event column`, {
        field: 'metadata',
        params: { key },
      });
    }
    if (value.length > CLASSIFIER_METADATA_VALUE_MAX_LENGTH) {
      throw validationFailed('CLASSIFIER_METADATA_VALUE_TOO_LONG', `Metadata value of ${key} is too long`, {
        field: 'metadata',
        params: { key, maxLength: CLASSIFIER_METADATA_VALUE_MAX_LENGTH },
      });
    }
  }
  // Library classifiers serve every organisation; the flag takes effect only where the tier is held.
  if (
    scope === 'org' &&
    input.acceleratedArchive &&
    !hasSkuGate(access.org.productSkus, 'acceleratedArchive')
  ) {
    throw validationFailed(
      'CLASSIFIER_ACCELERATED_ARCHIVE_NOT_ENTITLED',
      'Accelerated archive needs the ACCELERATED_ARCHIVE_DATA_TIER product',
      { field: 'acceleratedArchive' },
    );
  }
}

const ownerOf = (access: AccessContext, scope: ClassifierScope): Owner =>
  scope === 'library' ? null : access.org.id;

const needs = (access: AccessContext, permission: Permission) => {
  if (!access.permissions.has(permission)) {
    throw accessDenied('PERMISSION_DENIED', `This needs the ${permission} permission`);
  }
};

/**
 * Whether the caller may change the scope's classifiers. The routes check CLASSIFIER_EDIT for the
 * organisation's and TRAC_ENGINEER for the library's; library classifiers are changed only by provider
 * staff who may also edit classifiers.
 */
async function mayEdit(db: Db, access: AccessContext, scope: ClassifierScope): Promise<boolean> {
  if (scope === 'org') return access.permissions.has('CLASSIFIER_EDIT');
  return access.permissions.has('CLASSIFIER_EDIT') && (await viewerOf(db, access)).providerStaff;
}

/** Reading the library also needs CLASSIFIER_VIEW, like its navigation entry. */
function assertMayRead(access: AccessContext, scope: ClassifierScope) {
  if (scope === 'library') needs(access, 'CLASSIFIER_VIEW');
}

async function assertMayEdit(db: Db, access: AccessContext, scope: ClassifierScope, pausing = false) {
  assertMayRead(access, scope);
  if (await mayEdit(db, access, scope)) return;
  if (scope === 'org') needs(access, 'CLASSIFIER_EDIT');
  throw pausing
    ? accessDenied(
        'CLASSIFIER_LIBRARY_PAUSE_DENIED',
        'Library classifiers can be paused only by the provider',
      )
    : accessDenied('CLASSIFIER_LIBRARY_READ_ONLY', 'Library classifiers can be changed only by the provider');
}

export function toJson(row: ClassifierRow, editable: boolean): Classifier {
  return {
    id: row.id,
    library: row.orgId === null,
    name: row.name,
    description: row.description,
    query: row.query,
    metadata: row.metadata,
    dropEvent: row.dropEvent,
    skipThreatMatch: row.skipThreatMatch,
    skipAnomalyDetection: row.skipAnomalyDetection,
    skipAssetDetection: row.skipAssetDetection,
    acceleratedArchive: row.acceleratedArchive,
    paused: row.paused,
    position: row.position,
    editable,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

const snapshot = (row: ClassifierRow) => ({
  name: row.name,
  description: row.description,
  query: row.query,
  metadata: row.metadata,
  dropEvent: row.dropEvent,
  skipThreatMatch: row.skipThreatMatch,
  skipAnomalyDetection: row.skipAnomalyDetection,
  skipAssetDetection: row.skipAssetDetection,
  acceleratedArchive: row.acceleratedArchive,
  paused: row.paused,
});

const audit = (
  db: Db,
  actor: Actor,
  action: string,
  targetId: string | undefined,
  details: Record<string, unknown>,
) =>
  recordActivity(db, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `classifier.${action}`,
    targetType: 'classifier',
    targetId,
    details,
    ip: actor.ip,
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

export async function listClassifierPage(
  db: Db,
  access: AccessContext,
  scope: ClassifierScope,
  query: { search?: string; pageSize: number; pageNumber: number },
): Promise<ClassifierList> {
  assertMayRead(access, scope);
  const { items, total } = await listClassifiers(db, ownerOf(access, scope), query.search, {
    limit: query.pageSize,
    offset: (query.pageNumber - 1) * query.pageSize,
  });
  const editable = await mayEdit(db, access, scope);
  return { items: items.map((row) => toJson(row, editable)), total, editable };
}

async function existing(db: Db, access: AccessContext, scope: ClassifierScope, id: string) {
  const row = await findClassifier(db, ownerOf(access, scope), id);
  if (!row) throw classifierNotFound();
  return row;
}

export async function getClassifier(
  db: Db,
  access: AccessContext,
  scope: ClassifierScope,
  id: string,
): Promise<Classifier> {
  assertMayRead(access, scope);
  const row = await existing(db, access, scope, id);
  return toJson(row, await mayEdit(db, access, scope));
}

export async function createClassifier(
  db: Db,
  actor: Actor,
  scope: ClassifierScope,
  input: ParsedClassifierInput,
): Promise<Classifier> {
  const { access } = actor;
  await assertMayEdit(db, access, scope);
  assertValidInput(access, scope, input);
  const owner = ownerOf(access, scope);
  if (await nameTaken(db, owner, input.name)) throw nameTakenError(input.name);
  if ((await classifierIds(db, owner)).length >= CLASSIFIER_MAX_COUNT) {
    throw conflict('CLASSIFIER_LIMIT_REACHED', `At most ${CLASSIFIER_MAX_COUNT} classifiers`, {
      params: { max: CLASSIFIER_MAX_COUNT },
    });
  }
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await insertClassifier(tx, owner, { ...input, createdBy: access.user.id });
      await audit(tx, actor, 'created', row.id, { library: scope === 'library', after: snapshot(row) });
      return toJson(row, true);
    }),
  );
}

export async function replaceClassifier(
  db: Db,
  actor: Actor,
  scope: ClassifierScope,
  id: string,
  input: ParsedClassifierInput,
): Promise<Classifier> {
  const { access } = actor;
  await assertMayEdit(db, access, scope);
  const before = await existing(db, access, scope, id);
  assertValidInput(access, scope, input);
  const owner = ownerOf(access, scope);
  if (await nameTaken(db, owner, input.name, id)) throw nameTakenError(input.name);
  return mapDuplicate(input.name, () =>
    db.transaction(async (tx) => {
      const row = await updateClassifier(tx, owner, id, input);
      await audit(tx, actor, 'updated', id, {
        library: scope === 'library',
        before: snapshot(before),
        after: snapshot(row),
      });
      return toJson(row, true);
    }),
  );
}

export async function setClassifierPaused(
  db: Db,
  actor: Actor,
  scope: ClassifierScope,
  id: string,
  paused: boolean,
): Promise<Classifier> {
  const { access } = actor;
  await assertMayEdit(db, access, scope, true);
  const before = await existing(db, access, scope, id);
  if (before.paused === paused) return toJson(before, true);
  return db.transaction(async (tx) => {
    const row = await updateClassifier(tx, ownerOf(access, scope), id, { paused });
    await audit(tx, actor, paused ? 'paused' : 'resumed', id, {
      library: scope === 'library',
      name: row.name,
    });
    return toJson(row, true);
  });
}

export async function removeClassifier(
  db: Db,
  actor: Actor,
  scope: ClassifierScope,
  id: string,
): Promise<void> {
  const { access } = actor;
  await assertMayEdit(db, access, scope);
  const before = await existing(db, access, scope, id);
  await db.transaction(async (tx) => {
    await deleteClassifier(tx, ownerOf(access, scope), id);
    await audit(tx, actor, 'deleted', id, { library: scope === 'library', before: snapshot(before) });
  });
}

/** The new order must name every classifier of the list exactly once. */
export async function reorder(
  db: Db,
  actor: Actor,
  scope: ClassifierScope,
  ids: readonly string[],
): Promise<void> {
  const { access } = actor;
  await assertMayEdit(db, access, scope);
  const owner = ownerOf(access, scope);
  const current = await classifierIds(db, owner);
  const known = new Set(current);
  if (new Set(ids).size !== ids.length || ids.length !== current.length || ids.some((id) => !known.has(id))) {
    throw validationFailed('CLASSIFIER_ORDER_MISMATCH', 'The order must list every classifier once', {
      field: 'ids',
    });
  }
  await db.transaction(async (tx) => {
    await reorderClassifiers(tx, owner, ids);
    await audit(tx, actor, 'reordered', undefined, {
      library: scope === 'library',
      before: current,
      after: ids,
    });
  });
}
