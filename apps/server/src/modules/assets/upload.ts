import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ASSET_HOSTNAME_MAX_LENGTH,
  ASSET_LABEL_MAX_LENGTH,
  ASSET_LIST_MAX_ITEMS,
  ASSET_NAME_MAX_LENGTH,
  ASSET_UPLOAD_COLUMNS,
  ASSET_UPLOAD_ERROR_TABLE_LIMIT,
  ASSET_UPLOAD_IMPORTANCES,
  ASSET_UPLOAD_VALUE_SEPARATOR,
  isIpAddress,
  isMacAddress,
  normaliseIp,
  normaliseMac,
  type ASSET_UPLOAD_MODES,
  type AssetUploadLineError,
  type AssetUploadLineErrorEntry,
  type AssetUploadResult,
  type IpMacPair,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { CsvMalformedError, csvLine, readCsvChunks } from '../../platform/csv';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict } from '../../platform/errors';
import type { SpooledFile } from '../../platform/uploads';
import { findAddressHolders, retireAddresses, searchTextOf, type AddressRow } from './repo';
import type { Actor } from './service';
import { assetAddresses, assets } from './tables';

/*
 * The asset CSV upload (spec 2 sections 3, 5 and 9). Files are read twice from their spooled copies:
 * a first pass checks every line (the inventory in batches), a second stores the lines in one
 * transaction, in batches. Neither pass holds more than a batch of lines; what stays in memory for
 * the whole upload is the set of ids and addresses seen (to find repeats) and the first errors.
 */

export type AssetUploadMode = (typeof ASSET_UPLOAD_MODES)[number];
type Column = (typeof ASSET_UPLOAD_COLUMNS)[number];

/** Lines checked against the inventory, and stored, per query. */
export const UPLOAD_BATCH_LINES = 1000;
/** Longest cell value repeated in a line error. */
const ERROR_VALUE_MAX_LENGTH = 256;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uploadMalformed = (filename: string) =>
  new AppError(
    'ValidatorException',
    'ASSET_UPLOAD_MALFORMED',
    `Error with uploaded file. Please confirm that ${filename} is not malformed and try again.`,
    { params: { 0: filename } },
  );

/** One data line, read and checked on its own. */
interface UploadLine {
  line: number;
  name: string;
  /** Lower case; null when the cell is blank or not a UUID. */
  id: string | null;
  hostnames: string[];
  pairs: IpMacPair[];
  importance: (typeof ASSET_UPLOAD_IMPORTANCES)[number];
  labels: string[];
  errors: { field: Column; key: AssetUploadLineError; value: string }[];
}

const splitValues = (cell: string) =>
  cell === '' ? [] : cell.split(ASSET_UPLOAD_VALUE_SEPARATOR).map((value) => value.trim());

/** Column positions from the header line; 400 ASSET_UPLOAD_MISSING_COLUMNS names what is missing. */
function readHeader(cells: string[], filename: string): Map<Column, number> {
  const names = cells.map((cell, index) =>
    (index === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim().toLowerCase(),
  );
  const positions = new Map<Column, number>();
  for (const column of ASSET_UPLOAD_COLUMNS) {
    const at = names.indexOf(column);
    if (at >= 0) positions.set(column, at);
  }
  const missing = ASSET_UPLOAD_COLUMNS.filter((column) => !positions.has(column));
  if (missing.length > 0) {
    throw new AppError(
      'ValidatorException',
      'ASSET_UPLOAD_MISSING_COLUMNS',
      `${filename} lacks the column(s) ${missing.join(', ')}`,
      { params: { 0: filename, columns: missing.join(', ') } },
    );
  }
  return positions;
}

const isBlankLine = (cells: string[]) => cells.every((cell) => cell.trim() === '');

/**
 * The checks one line can make alone. Blank importance means low. Hostname, IP, MAC and label cells
 * may hold several values separated by ';': the n-th IP pairs with the n-th MAC (so their counts
 * must agree when both are given); an empty IP or MAC leaves its pair with the other address alone,
 * and a pair with neither is dropped. Empty labels are ignored, as in the asset form.
 */
function readLine(cells: string[], header: Map<Column, number>, line: number): UploadLine {
  const cell = (column: Column) => (cells[header.get(column)!] ?? '').trim();
  const errors: UploadLine['errors'] = [];
  const fail = (field: Column, key: AssetUploadLineError, value: string) =>
    errors.push({ field, key, value });

  const name = cell('name');
  if (name === '') fail('name', 'nameRequired', '');
  else if (name.length > ASSET_NAME_MAX_LENGTH) fail('name', 'tooLong', name);

  const rawId = cell('id');
  let id: string | null = null;
  if (rawId !== '') {
    if (UUID_PATTERN.test(rawId)) id = rawId.toLowerCase();
    else fail('id', 'badId', rawId);
  }

  const hostnameCell = cell('hostname');
  const hostnameValues = splitValues(hostnameCell);
  if (hostnameValues.some((value) => value === '')) fail('hostname', 'emptyHostname', hostnameCell);
  const hostnames = hostnameValues.filter((value) => value !== '');
  const longHostname = hostnames.find((value) => value.length > ASSET_HOSTNAME_MAX_LENGTH);
  if (longHostname) fail('hostname', 'tooLong', longHostname);
  else if (hostnames.length > ASSET_LIST_MAX_ITEMS) fail('hostname', 'tooLong', hostnameCell);

  const ipCell = cell('ip');
  const macCell = cell('mac');
  const ipValues = splitValues(ipCell);
  const macValues = splitValues(macCell);
  const ips = ipValues.map((value) => {
    if (value === '') return null;
    if (isIpAddress(value)) return normaliseIp(value);
    fail('ip', 'badIp', value);
    return null;
  });
  const macs = macValues.map((value) => {
    if (value === '') return null;
    if (isMacAddress(value)) return normaliseMac(value);
    fail('mac', 'badMac', value);
    return null;
  });
  let pairs: IpMacPair[] = [];
  if (ipValues.length > 0 && macValues.length > 0 && ipValues.length !== macValues.length) {
    fail('mac', 'ipMacMismatch', macCell);
  } else {
    const count = Math.max(ipValues.length, macValues.length);
    for (let index = 0; index < count; index++) {
      const pair = { ip: ips[index] ?? null, mac: macs[index] ?? null };
      if (pair.ip !== null || pair.mac !== null) pairs.push(pair);
    }
    if (pairs.length > ASSET_LIST_MAX_ITEMS) {
      fail('ip', 'tooLong', ipCell);
      pairs = [];
    }
  }
  if (
    hostnames.length === 0 &&
    ipValues.every((value) => value === '') &&
    macValues.every((value) => value === '')
  ) {
    fail('hostname', 'identifierRequired', '');
  }

  const importanceCell = cell('importance');
  const importance = (
    importanceCell === '' ? 'low' : importanceCell.toLowerCase()
  ) as UploadLine['importance'];
  if (!ASSET_UPLOAD_IMPORTANCES.includes(importance)) fail('importance', 'badImportance', importanceCell);

  const labelCell = cell('label');
  const labels = [...new Set(splitValues(labelCell).filter((value) => value !== ''))];
  const longLabel = labels.find((label) => label.length > ASSET_LABEL_MAX_LENGTH);
  if (longLabel) fail('label', 'badLabel', longLabel);
  else if (labels.length > ASSET_LIST_MAX_ITEMS) fail('label', 'badLabel', labelCell);

  return { line, name, id, hostnames, pairs, importance, labels, errors };
}

/** The lines of one spooled file, a batch at a time; the header is checked first. */
async function* fileLines(file: SpooledFile): AsyncGenerator<UploadLine[]> {
  let header: Map<Column, number> | null = null;
  let record = 0;
  let batch: UploadLine[] = [];
  try {
    for await (const rows of readCsvChunks(file.path)) {
      for (const cells of rows) {
        record++;
        if (!header) {
          header = readHeader(cells, file.filename);
          continue;
        }
        if (isBlankLine(cells)) continue;
        batch.push(readLine(cells, header, record));
        if (batch.length >= UPLOAD_BATCH_LINES) {
          yield batch;
          batch = [];
        }
      }
    }
  } catch (error) {
    if (error instanceof CsvMalformedError) throw uploadMalformed(file.filename);
    throw error;
  }
  if (!header) throw uploadMalformed(file.filename);
  if (batch.length > 0) yield batch;
}

const COLUMN_ORDER = new Map(ASSET_UPLOAD_COLUMNS.map((column, index) => [column, index]));

/** What the first pass learnt. */
interface Validation {
  lines: number;
  validLines: number;
  errorCount: number;
  errors: AssetUploadLineErrorEntry[];
  /** Lines with errors, by file. */
  invalid: Set<number>[];
}

/**
 * The first pass: every line of every file, checked alone, against the lines before it (repeated
 * ids and addresses, across files) and, a batch at a time, against the inventory (unknown ids,
 * addresses of other assets). Every error goes to `errorSink` when one is given.
 */
async function validateUpload(
  db: Db,
  orgId: string,
  files: SpooledFile[],
  errorSink?: WriteStream,
): Promise<Validation> {
  const seenIds = new Set<string>();
  const seenIps = new Set<string>();
  const seenMacs = new Set<string>();
  const result: Validation = { lines: 0, validLines: 0, errorCount: 0, errors: [], invalid: [] };

  for (const [fileIndex, file] of files.entries()) {
    const invalid = new Set<number>();
    result.invalid[fileIndex] = invalid;
    for await (const batch of fileLines(file)) {
      for (const line of batch) {
        if (line.id !== null) {
          if (seenIds.has(line.id)) line.errors.push({ field: 'id', key: 'duplicateId', value: line.id });
          seenIds.add(line.id);
        }
        for (const { ip, mac } of line.pairs) {
          if (ip !== null) {
            if (seenIps.has(ip)) line.errors.push({ field: 'ip', key: 'duplicateIp', value: ip });
            seenIps.add(ip);
          }
          if (mac !== null) {
            if (seenMacs.has(mac)) line.errors.push({ field: 'mac', key: 'duplicateMac', value: mac });
            seenMacs.add(mac);
          }
        }
      }
      await checkInventory(db, orgId, batch);
      for (const line of batch) {
        result.lines++;
        if (line.errors.length === 0) {
          result.validLines++;
          continue;
        }
        invalid.add(line.line);
        line.errors.sort((a, b) => COLUMN_ORDER.get(a.field)! - COLUMN_ORDER.get(b.field)!);
        for (const error of line.errors) {
          result.errorCount++;
          const entry = {
            file: file.filename,
            line: line.line,
            field: error.field,
            key: error.key,
            value: error.value.slice(0, ERROR_VALUE_MAX_LENGTH),
          };
          if (result.errors.length < ASSET_UPLOAD_ERROR_TABLE_LIMIT) result.errors.push(entry);
          if (
            errorSink &&
            !errorSink.write(csvLine([entry.file, entry.line, entry.field, entry.key, entry.value]))
          ) {
            await once(errorSink, 'drain');
          }
        }
      }
    }
  }
  return result;
}

/** Ids that name no active asset of the organisation, and addresses other assets hold. */
async function checkInventory(db: Db, orgId: string, batch: UploadLine[]): Promise<void> {
  const ids = [...new Set(batch.flatMap((line) => (line.id ? [line.id] : [])))];
  const known = new Set(
    ids.length === 0
      ? []
      : (
          await db
            .select({ id: assets.id })
            .from(assets)
            .where(and(eq(assets.orgId, orgId), eq(assets.active, true), inArray(assets.id, ids)))
        ).map((row) => row.id),
  );
  const holders = await findAddressHolders(db, orgId, {
    ips: batch.flatMap((line) => line.pairs.flatMap((pair) => (pair.ip ? [pair.ip] : []))),
    macs: batch.flatMap((line) => line.pairs.flatMap((pair) => (pair.mac ? [pair.mac] : []))),
  });
  const ipHolder = new Map(holders.filter((row) => row.ip).map((row) => [row.ip!, row.assetId]));
  const macHolder = new Map(holders.filter((row) => row.mac).map((row) => [row.mac!, row.assetId]));
  for (const line of batch) {
    if (line.id && !known.has(line.id)) line.errors.push({ field: 'id', key: 'unknownId', value: line.id });
    for (const { ip, mac } of line.pairs) {
      const ipOwner = ip === null ? undefined : ipHolder.get(ip);
      if (ipOwner && ipOwner !== line.id) line.errors.push({ field: 'ip', key: 'ipInUse', value: ip! });
      const macOwner = mac === null ? undefined : macHolder.get(mac);
      if (macOwner && macOwner !== line.id) line.errors.push({ field: 'mac', key: 'macInUse', value: mac! });
    }
  }
}

/** Stores one batch of checked lines: new tracked assets, and updates of the assets named by id. */
async function storeBatch(db: Db, orgId: string, batch: UploadLine[], now: Date) {
  const creates = batch.filter((line) => line.id === null);
  const updates = batch.filter((line) => line.id !== null);
  let created = 0;
  let updated = 0;

  if (creates.length > 0) {
    // One JSON parameter per statement: far quicker than thousands of bound values.
    const rows = creates.map((line) => ({
      id: randomUUID(),
      name: line.name,
      importance: line.importance,
      labels: line.labels,
      hostnames: line.hostnames,
      search_text: searchTextOf({ ...line, tag: null, owner: null, description: null }, line.pairs),
    }));
    await db.execute(sql`
      INSERT INTO ${assets} (id, org_id, name, importance, labels, hostnames, tracked, search_text)
      SELECT v.id, ${orgId}::uuid, v.name, v.importance, v.labels, v.hostnames, true, v.search_text
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS v(id uuid, name text, importance text, labels text[], hostnames text[], search_text text)`);
    await insertAddresses(
      db,
      orgId,
      creates.flatMap((line, index) =>
        line.pairs.map((pair, position) => ({ assetId: rows[index]!.id, ...pair, position })),
      ),
      now,
    );
    created = rows.length;
  }

  if (updates.length > 0) {
    const ids = updates.map((line) => line.id!);
    const current = await db
      .select({ id: assets.id, tag: assets.tag, owner: assets.owner, description: assets.description })
      .from(assets)
      .where(and(eq(assets.orgId, orgId), eq(assets.active, true), inArray(assets.id, ids)));
    const byId = new Map(current.map((row) => [row.id, row]));
    const lines = updates.filter((line) => byId.has(line.id!));
    const values = lines.map((line) => {
      const fields = {
        ...byId.get(line.id!)!,
        name: line.name,
        labels: line.labels,
        hostnames: line.hostnames,
      };
      return {
        id: line.id,
        name: line.name,
        importance: line.importance,
        labels: line.labels,
        hostnames: line.hostnames,
        search_text: searchTextOf(fields, line.pairs),
      };
    });
    if (values.length > 0) {
      await db.execute(sql`
        UPDATE ${assets} AS a
        SET name = v.name, importance = v.importance, labels = v.labels, hostnames = v.hostnames,
            search_text = v.search_text, tracked = true, modified_on = ${now.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          AS v(id uuid, name text, importance text, labels text[], hostnames text[], search_text text)
        WHERE a.id = v.id AND a.org_id = ${orgId} AND a.active`);
      await replaceBatchPairs(db, orgId, lines, now);
    }
    updated = values.length;
  }
  return { created, updated };
}

/** The pairs of updated assets, as replacePairs does for one: kept, moved to the history, added. */
async function replaceBatchPairs(db: Db, orgId: string, lines: UploadLine[], now: Date) {
  const existing = await db
    .select()
    .from(assetAddresses)
    .where(
      and(
        eq(assetAddresses.orgId, orgId),
        eq(assetAddresses.active, true),
        inArray(
          assetAddresses.assetId,
          lines.map((line) => line.id!),
        ),
      ),
    );
  const byAsset = new Map<string, AddressRow[]>();
  for (const row of existing) byAsset.set(row.assetId, [...(byAsset.get(row.assetId) ?? []), row]);

  const removed: AddressRow[] = [];
  const moved: { id: string; position: number }[] = [];
  const added: NewAddress[] = [];
  for (const line of lines) {
    const unused = [...(byAsset.get(line.id!) ?? [])];
    line.pairs.forEach((pair, position) => {
      const at = unused.findIndex((row) => row.ip === pair.ip && row.mac === pair.mac);
      if (at < 0) {
        added.push({ assetId: line.id!, ...pair, position });
        return;
      }
      const [row] = unused.splice(at, 1);
      if (row!.position !== position) moved.push({ id: row!.id, position });
    });
    removed.push(...unused);
  }
  await retireAddresses(db, orgId, removed, now);
  if (moved.length > 0) {
    await db.execute(sql`
      UPDATE ${assetAddresses} AS a SET position = v.position
      FROM jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) AS v(id uuid, position int)
      WHERE a.id = v.id AND a.org_id = ${orgId}`);
  }
  await insertAddresses(db, orgId, added, now);
}

interface NewAddress {
  assetId: string;
  ip: string | null;
  mac: string | null;
  position: number;
}

async function insertAddresses(db: Db, orgId: string, rows: NewAddress[], now: Date) {
  if (rows.length === 0) return;
  await db.execute(sql`
    INSERT INTO ${assetAddresses} (org_id, asset_id, ip, mac, position, first_seen)
    SELECT ${orgId}::uuid, v.asset_id, v.ip, v.mac, v.position, ${now.toISOString()}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(
      rows.map((row) => ({ asset_id: row.assetId, ip: row.ip, mac: row.mac, position: row.position })),
    )}::jsonb) AS v(asset_id uuid, ip text, mac text, position int)`);
}

/** The second pass: the lines to store, re-read from the files, in one transaction. */
async function storeUpload(
  db: Db,
  orgId: string,
  files: SpooledFile[],
  skip: Set<number>[],
  mode: AssetUploadMode,
  actor: Actor,
) {
  try {
    return await db.transaction(async (tx) => {
      const now = new Date();
      const totals = { created: 0, updated: 0 };
      for (const [fileIndex, file] of files.entries()) {
        for await (const batch of fileLines(file)) {
          const lines = batch.filter((line) => !skip[fileIndex]!.has(line.line));
          if (lines.length === 0) continue;
          const stored = await storeBatch(tx, orgId, lines, now);
          totals.created += stored.created;
          totals.updated += stored.updated;
        }
      }
      await recordActivity(tx, {
        orgId,
        actorUserId: actor.userId,
        ip: actor.ip,
        action: 'asset.uploaded',
        targetType: 'asset',
        details: { files: files.map((file) => file.filename), mode, ...totals },
      });
      return totals;
    });
  } catch (error) {
    // The inventory changed between the passes: another save took an address.
    if (findSqlState(error) === '23505') {
      throw conflict('ASSET_IP_OR_MAC_IN_USE', 'An address of the upload was taken meanwhile; upload again', {
        params: { value: null },
      });
    }
    throw error;
  }
}

/**
 * POST /asset-upload for modes validate, all and valid: checks every line, then stores all of them
 * (`all`, only when no line has an error) or the valid ones (`valid`). `validate` stores nothing.
 */
export async function uploadAssets(
  db: Db,
  orgId: string,
  files: SpooledFile[],
  mode: Exclude<AssetUploadMode, 'errors-csv'>,
  actor: Actor,
): Promise<AssetUploadResult> {
  const validation = await validateUpload(db, orgId, files);
  const store =
    validation.validLines > 0 && (mode === 'valid' || (mode === 'all' && validation.errorCount === 0));
  const totals = store
    ? await storeUpload(db, orgId, files, validation.invalid, mode, actor)
    : { created: 0, updated: 0 };
  return {
    files: files.length,
    lines: validation.lines,
    validLines: validation.validLines,
    errorCount: validation.errorCount,
    errors: validation.errors,
    ...totals,
    stored: store,
  };
}

/** POST /asset-upload?mode=errors-csv: writes every line error to `csvPath` (file, line, field, error, value). */
export async function writeUploadErrorsCsv(
  db: Db,
  orgId: string,
  files: SpooledFile[],
  csvPath: string,
): Promise<void> {
  const sink = createWriteStream(csvPath);
  try {
    sink.write(csvLine(['file', 'line', 'field', 'error', 'value']));
    await validateUpload(db, orgId, files, sink);
  } finally {
    await new Promise<void>((resolve) => sink.end(() => resolve()));
  }
}
