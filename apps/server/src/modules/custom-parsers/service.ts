import {
  CUSTOM_PARSER_MAX_MAPPINGS,
  CUSTOM_PARSERS_MAX_PER_ORG,
  mappingProblems,
  type CustomParser,
  type CustomParserMapping,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import {
  countCustomParsers,
  dataSourceTaken,
  deleteCustomParser,
  findCustomParserView,
  insertCustomParser,
  lockOrgParsers,
  updateCustomParser,
  type CustomParserRow,
  type CustomParserView,
} from './repo';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

interface ParsedInput {
  dataSource: string;
  mappings: CustomParserMapping[];
}

export const customParserNotFound = () =>
  new AppError('NotFoundException', 'CUSTOM_PARSER_NOT_FOUND', 'Custom parser not found');

const dataSourceTakenError = (dataSource: string) =>
  conflict('CUSTOM_PARSER_DATA_SOURCE_TAKEN', `A custom parser for ${dataSource} already exists`, {
    field: 'dataSource',
    params: { dataSource },
  });

/** The spec's rules on a parser, each refused with its own key; the first fault wins. */
function assertValidInput(input: ParsedInput) {
  if (input.dataSource === '') {
    throw validationFailed('CUSTOM_PARSER_DATA_SOURCE_REQUIRED', 'The data source is required', {
      field: 'dataSource',
    });
  }
  if (input.mappings.length === 0) {
    throw validationFailed('CUSTOM_PARSER_MAPPING_REQUIRED', 'At least one mapping is required', {
      field: 'mappings',
    });
  }
  if (input.mappings.length > CUSTOM_PARSER_MAX_MAPPINGS) {
    throw validationFailed(
      'CUSTOM_PARSER_TOO_MANY_MAPPINGS',
      `At most ${CUSTOM_PARSER_MAX_MAPPINGS} mappings per parser`,
      { field: 'mappings', params: { max: CUSTOM_PARSER_MAX_MAPPINGS, count: input.mappings.length } },
    );
  }
  const [problem] = mappingProblems(input.mappings);
  if (problem) {
    const value = input.mappings[problem.index]![problem.side];
    throw validationFailed(
      problem.key,
      `Invalid remapping field in mapping ${problem.index + 1} (${problem.side}): ${value}`,
      { field: `mappings.${problem.index}.${problem.side}`, params: { name: value, row: problem.index + 1 } },
    );
  }
}

export function toJson({ row, createdByName }: CustomParserView): CustomParser {
  return {
    id: row.id,
    dataSource: row.dataSource,
    mappings: row.mappings,
    createdBy: row.createdBy,
    createdByName,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

export async function getCustomParser(db: Db, orgId: string, id: string): Promise<CustomParser> {
  const view = await findCustomParserView(db, orgId, id);
  if (!view) throw customParserNotFound();
  return toJson(view);
}

const snapshot = (row: CustomParserRow) => ({ dataSource: row.dataSource, mappings: row.mappings });

/** Unique-index races end as 409 like the checked case. */
async function mapDuplicate<T>(dataSource: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) === '23505') throw dataSourceTakenError(dataSource);
    throw error;
  }
}

export async function createCustomParser(db: Db, actor: Actor, input: ParsedInput): Promise<CustomParser> {
  const { access } = actor;
  const orgId = access.org.id;
  assertValidInput(input);
  if (await dataSourceTaken(db, orgId, input.dataSource)) throw dataSourceTakenError(input.dataSource);
  return mapDuplicate(input.dataSource, () =>
    db.transaction(async (tx) => {
      await lockOrgParsers(tx, orgId);
      if ((await countCustomParsers(tx, orgId)) >= CUSTOM_PARSERS_MAX_PER_ORG) {
        throw conflict(
          'CUSTOM_PARSER_LIMIT_REACHED',
          `An organisation can have at most ${CUSTOM_PARSERS_MAX_PER_ORG} custom parsers`,
          { params: { max: CUSTOM_PARSERS_MAX_PER_ORG } },
        );
      }
      const row = await insertCustomParser(tx, {
        orgId,
        dataSource: input.dataSource,
        mappings: input.mappings,
        createdBy: access.user.id,
      });
      await recordActivity(tx, {
        orgId,
        actorUserId: access.user.id,
        action: 'custom-parser.created',
        targetType: 'custom-parser',
        targetId: row.id,
        details: { after: snapshot(row) },
        ip: actor.ip,
      });
      return toJson((await findCustomParserView(tx, orgId, row.id))!);
    }),
  );
}

export async function replaceCustomParser(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedInput,
): Promise<CustomParser> {
  const { access } = actor;
  const orgId = access.org.id;
  const before = await findCustomParserView(db, orgId, id);
  if (!before) throw customParserNotFound();
  assertValidInput(input);
  if (await dataSourceTaken(db, orgId, input.dataSource, id)) throw dataSourceTakenError(input.dataSource);
  return mapDuplicate(input.dataSource, () =>
    db.transaction(async (tx) => {
      const row = await updateCustomParser(tx, orgId, id, {
        dataSource: input.dataSource,
        mappings: input.mappings,
      });
      await recordActivity(tx, {
        orgId,
        actorUserId: access.user.id,
        action: 'custom-parser.updated',
        targetType: 'custom-parser',
        targetId: id,
        details: { before: snapshot(before.row), after: snapshot(row) },
        ip: actor.ip,
      });
      return toJson((await findCustomParserView(tx, orgId, id))!);
    }),
  );
}

export async function removeCustomParser(db: Db, actor: Actor, id: string): Promise<void> {
  const { access } = actor;
  const orgId = access.org.id;
  const before = await findCustomParserView(db, orgId, id);
  if (!before) throw customParserNotFound();
  await db.transaction(async (tx) => {
    await deleteCustomParser(tx, orgId, id);
    await recordActivity(tx, {
      orgId,
      actorUserId: access.user.id,
      action: 'custom-parser.deleted',
      targetType: 'custom-parser',
      targetId: id,
      details: { before: snapshot(before.row) },
      ip: actor.ip,
    });
  });
}
