import { Readable } from 'node:stream';
import type { Db } from '../../db/client';
import { csvLine } from '../../platform/csv';
import { iterateAssets, listPairs, type AssetFilter, type AssetSort } from './repo';
import { toAsset } from './service';

/** Assets read per query while exporting. */
export const EXPORT_BATCH_SIZE = 500;

export const ASSET_CSV_COLUMNS = [
  'id',
  'name',
  'tag',
  'owner',
  'importance',
  'description',
  'labels',
  'hostnames',
  'ips',
  'macs',
  'tracked',
  'active',
  'lastSeen',
  'dataLastSent',
  'createdOn',
  'modifiedOn',
] as const;

/**
 * The matches of an asset search as CSV, in the list's order, read a batch at a time (keyset
 * paging) and written as it goes. Lists are joined with '; ' (the upload's separator); the n-th IP
 * and the n-th MAC belong to one pair, a pair without one leaving its place empty. Cells that a
 * spreadsheet would take for a formula are quoted as text by csvLine.
 */
export function exportAssetsCsv(db: Db, orgId: string, filter: AssetFilter, sort: AssetSort): Readable {
  async function* lines() {
    yield csvLine(ASSET_CSV_COLUMNS);
    for await (const rows of iterateAssets(db, orgId, filter, sort, EXPORT_BATCH_SIZE)) {
      const pairs = await listPairs(
        db,
        orgId,
        rows.map((row) => row.id),
      );
      for (const row of rows) {
        const asset = toAsset(row, pairs.get(row.id) ?? []);
        const allPairs = asset.ipMacPairs;
        const anyIp = allPairs.some((pair) => pair.ip !== null);
        const anyMac = allPairs.some((pair) => pair.mac !== null);
        yield csvLine([
          asset.id,
          asset.name,
          asset.tag,
          asset.owner,
          asset.importance,
          asset.description,
          asset.labels.join('; '),
          asset.hostnames.join('; '),
          anyIp ? allPairs.map((pair) => pair.ip ?? '').join('; ') : '',
          anyMac ? allPairs.map((pair) => pair.mac ?? '').join('; ') : '',
          asset.tracked,
          asset.active,
          asset.lastSeen,
          asset.dataLastSent,
          asset.createdOn,
          asset.modifiedOn,
        ]);
      }
    }
  }
  return Readable.from(lines());
}
