import {
  THREAT_INDICATOR_TYPES,
  THREAT_INDICATORS_PER_SOURCE_MAX,
  THREAT_UPLOAD_COLUMNS,
  THREAT_UPLOAD_ERROR_LIST_LIMIT,
  type ThreatIndicatorType,
  type ThreatUploadColumn,
  type ThreatUploadLineErrorEntry,
  type ThreatUploadResult,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { CsvMalformedError, readCsvChunks } from '../../platform/csv';
import { AppError, validationFailed } from '../../platform/errors';
import type { SpooledFile } from '../../platform/uploads';
import { recordActivity } from '../../platform/audit/audit';
import {
  checkIndicator,
  countIndicators,
  heldValues,
  limitExceeded,
  VALID_VALUES,
  type NewIndicator,
} from './indicators';
import { findEditableSource, type Actor } from './sources';
import { threatIndicators } from './tables';

/*
 * The indicator CSV upload (spec 2 sections 5 and 9): one file of one indicator type. Every line is
 * checked first; nothing is stored unless all are valid, and then all are stored in one transaction.
 * The lines kept for storing are bounded by the per-source limit: a file holding more is refused.
 */

/** Values checked against the source, and rows stored, per query. */
const BATCH = 1000;
/** Columns a file must name in its header line. */
const REQUIRED_COLUMNS: ThreatUploadColumn[] = ['value', 'rating'];
const ERROR_VALUE_MAX_LENGTH = 256;

export function unsupportedType(type: string) {
  return validationFailed('THREAT_UPLOAD_UNSUPPORTED_TYPE', `${type} is not an indicator type`, {
    field: 'type',
    params: { value: type },
    validValues: [...THREAT_INDICATOR_TYPES],
  });
}

export const isIndicatorType = (type: string): type is ThreatIndicatorType =>
  (THREAT_INDICATOR_TYPES as readonly string[]).includes(type);

const malformed = (filename: string) =>
  new AppError(
    'ValidatorException',
    'THREAT_UPLOAD_MALFORMED',
    `Error with uploaded file. Please confirm that ${filename} is not malformed and try again.`,
    { params: { 0: filename } },
  );

function readHeader(cells: string[], filename: string): Map<ThreatUploadColumn, number> {
  const positions = new Map<ThreatUploadColumn, number>();
  cells.forEach((cell, index) => {
    const name = (index === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim().toLowerCase();
    const column = THREAT_UPLOAD_COLUMNS.find((known) => known.toLowerCase() === name);
    if (column && !positions.has(column)) positions.set(column, index);
  });
  const missing = REQUIRED_COLUMNS.filter((column) => !positions.has(column));
  if (missing.length > 0) {
    throw validationFailed('THREAT_UPLOAD_MISSING_COLUMNS', `${filename} lacks ${missing.join(', ')}`, {
      params: { 0: filename, columns: missing.join(', ') },
    });
  }
  return positions;
}

/**
 * Checks every line of an uploaded file and, when all are valid and the source has room, stores them.
 * Lines repeating a value of the file or one the source holds are duplicates.
 */
export async function uploadIndicators(
  db: Db,
  actor: Actor,
  sourceId: string,
  type: ThreatIndicatorType,
  file: SpooledFile,
): Promise<ThreatUploadResult> {
  await findEditableSource(db, actor.access, sourceId);
  const errors: ThreatUploadLineErrorEntry[] = [];
  let totalErrors = 0;
  const fault = (entry: ThreatUploadLineErrorEntry) => {
    totalErrors++;
    if (errors.length < THREAT_UPLOAD_ERROR_LIST_LIMIT) {
      const validValues = VALID_VALUES[entry.key];
      errors.push({
        ...entry,
        value: entry.value.slice(0, ERROR_VALUE_MAX_LENGTH),
        ...(validValues && { validValues }),
      });
    }
  };
  const rows: NewIndicator[] = [];
  const lineOf = new Map<string, number>();
  let lines = 0;
  let header: Map<ThreatUploadColumn, number> | null = null;
  let pending: { line: number; row: NewIndicator }[] = [];

  const checkPending = async () => {
    const held = await heldValues(
      db,
      sourceId,
      type,
      pending.map(({ row }) => row.value),
    );
    for (const { line, row } of pending) {
      if (held.has(row.value))
        fault({ line, field: 'value', key: 'THREAT_INDICATOR_DUPLICATE', value: row.value });
      else if (rows.length <= THREAT_INDICATORS_PER_SOURCE_MAX) rows.push(row);
    }
    pending = [];
  };

  try {
    for await (const records of readCsvChunks(file.path)) {
      for (const cells of records) {
        lines++;
        if (!header) {
          header = readHeader(cells, file.filename);
          continue;
        }
        if (cells.every((cell) => cell.trim() === '')) continue;
        const cell = (column: ThreatUploadColumn) => {
          const at = header!.get(column);
          return at === undefined ? null : (cells[at] ?? null);
        };
        const result = checkIndicator(sourceId, type, {
          value: cell('value') ?? '',
          rating: cell('rating') ?? '',
          severity: cell('severity'),
          reason: cell('reason') ?? '',
          validFrom: cell('validFrom'),
          expires: cell('expires'),
        });
        if (!result.row) {
          for (const entry of result.faults) fault({ line: lines, ...entry });
          continue;
        }
        const first = lineOf.get(result.row.value);
        if (first !== undefined) {
          fault({ line: lines, field: 'value', key: 'THREAT_INDICATOR_DUPLICATE', value: result.row.value });
          continue;
        }
        lineOf.set(result.row.value, lines);
        pending.push({ line: lines, row: result.row });
        if (pending.length >= BATCH) await checkPending();
      }
    }
  } catch (error) {
    if (error instanceof CsvMalformedError) throw malformed(file.filename);
    throw error;
  }
  if (!header) throw malformed(file.filename);
  await checkPending();
  if (totalErrors > 0) return { stored: 0, errors, totalErrors };

  const room = THREAT_INDICATORS_PER_SOURCE_MAX - (await countIndicators(db, sourceId));
  if (lineOf.size > room) throw limitExceeded(lineOf.size - room);
  await db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += BATCH) {
      await tx.insert(threatIndicators).values(rows.slice(start, start + BATCH));
    }
    await recordActivity(tx, {
      orgId: actor.access.org.id,
      actorUserId: actor.access.user.id,
      action: 'threat-indicator.uploaded',
      targetType: 'threat-source',
      targetId: sourceId,
      details: { type, filename: file.filename, stored: rows.length },
      ip: actor.ip,
    });
  });
  return { stored: rows.length, errors: [], totalErrors: 0 };
}
