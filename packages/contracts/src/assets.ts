import { z } from 'zod';
import { MAX_PAGE_SIZE } from './limits';
import { queryFlag } from './query-params';

/*
 * Assets (spec 2 sections 3 to 9): the inventory of hosts and devices, their addresses, labels and
 * software, and the address patterns that asset forms, uploads and event pivots share.
 */

// ---------------------------------------------------------------------------------------------
// Patterns and pure rules
// ---------------------------------------------------------------------------------------------

const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** A dotted-quad IPv4 address, no leading zeros (which some parsers read as octal). */
export const IPV4_PATTERN = new RegExp(`^${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}$`);

const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3})`;
/** An IPv6 address in any RFC 4291 text form (compressed, with an embedded IPv4 tail); no zone. */
export const IPV6_PATTERN = new RegExp(
  '^(?:' +
    [
      `(?:${H16}:){6}${LS32}`,
      `::(?:${H16}:){5}${LS32}`,
      `(?:${H16})?::(?:${H16}:){4}${LS32}`,
      `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
      `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
      `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
      `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
      `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
      `(?:(?:${H16}:){0,6}${H16})?::`,
    ].join('|') +
    ')$',
);

/** Six hex pairs separated by ':' or '-', or three groups of four separated by '.'. */
export const MAC_PATTERN =
  /^(?:[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}|(?:[0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4})$/;

/** Spec 2 section 9: a file signature is 32 to 64 hexadecimal characters, in whole pairs. */
export const HASH_PATTERN = /^(?:[0-9A-Fa-f]{2}){16,32}$/;

export function isIpAddress(value: string): boolean {
  return IPV4_PATTERN.test(value) || IPV6_PATTERN.test(value);
}

export function isMacAddress(value: string): boolean {
  return MAC_PATTERN.test(value);
}

/** Spec 2 section 4: a subject is a signature when it is a hash, otherwise a host. */
export function isHash(value: string): boolean {
  return HASH_PATTERN.test(value);
}

/** The stored form of a MAC: lower case, colon separated. */
export function normaliseMac(value: string): string {
  const hex = value.replace(/[:.-]/g, '').toLowerCase();
  return hex.match(/../g)!.join(':');
}

/** The eight 16-bit groups of a valid IPv6 address. */
function ipv6Groups(value: string): number[] {
  let text = value.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  if (rest === undefined) return left;
  const right = parse(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The stored form of an IP: IPv4 as written, IPv6 in the canonical text of RFC 5952 (lower case,
 * no leading zeros, the longest run of two or more zero groups as '::'), so that `0:0::1` and
 * `::1` are one address.
 */
export function normaliseIp(value: string): string {
  if (IPV4_PATTERN.test(value)) return value;
  const groups = ipv6Groups(value);
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = (part: number[]) => part.map((group) => group.toString(16)).join(':');
  if (best.start < 0) return hex(groups);
  return `${hex(groups.slice(0, best.start))}::${hex(groups.slice(best.start + best.length))}`;
}

/**
 * Spec 2 section 5: the private ranges an asset address is recognised in (10/8, 172.16/12,
 * 192.168/16, link-local 169.254/16, unique-local fd00::/8) and the loopback addresses.
 */
export function isPrivateAddress(ip: string): boolean {
  if (IPV4_PATTERN.test(ip)) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return (
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      a === 127
    );
  }
  if (!IPV6_PATTERN.test(ip)) return false;
  const canonical = normaliseIp(ip);
  // The first group is fd00 to fdff: four digits in the canonical text (fd0: is 0x0fd0).
  return canonical === '::1' || /^fd[0-9a-f]{2}:/.test(canonical);
}

// ---------------------------------------------------------------------------------------------
// Constants and limits (spec 2 section 9)
// ---------------------------------------------------------------------------------------------

export const ASSET_IMPORTANCES = ['high', 'medium', 'low', 'none'] as const;
export type AssetImportance = (typeof ASSET_IMPORTANCES)[number];
/** The list filter adds "all". */
export const ASSET_IMPORTANCE_FILTERS = ['all', ...ASSET_IMPORTANCES] as const;
/** Dots shown for an importance (spec 2 section 9); none shows no dots. */
export const IMPORTANCE_DOTS: Record<AssetImportance, number> = { high: 3, medium: 2, low: 1, none: 0 };
/** Importances an upload line may carry. */
export const ASSET_UPLOAD_IMPORTANCES = ['low', 'medium', 'high'] as const;

export const ASSET_TRACKED_FILTERS = ['both', 'tracked', 'untracked'] as const;
export type AssetTrackedFilter = (typeof ASSET_TRACKED_FILTERS)[number];
export const ASSET_SORT_FIELDS = [
  'name',
  'tag',
  'owner',
  'importance',
  'lastSeen',
  'dataLastSent',
  'createdOn',
  'modifiedOn',
] as const;
export type AssetSortField = (typeof ASSET_SORT_FIELDS)[number];

export const SUGGESTED_ASSET_LABELS = [
  'Scanner',
  'Domain Controller',
  'Load Balancer',
  'Firewall',
  'Health Monitored',
] as const;

export const ASSET_LAST_SEEN_WINDOW_DAYS = 30;
/** Pivot searches around an event (spec 2 section 9). */
export const SEARCH_AROUND_MINUTES = [1, 5] as const;
/** High-importance assets without data for this long raise the assets-down notice. */
export const ASSET_DOWN_AFTER_MS = 5 * 60_000;
/** An upload is fewer than 50 files, each at most 32 MiB. */
export const ASSET_UPLOAD_MAX_FILES = 49;
export const ASSET_UPLOAD_MAX_FILE_BYTES = 32 * 1024 * 1024;
/** More line errors than this and the page offers the error CSV instead of the whole table. */
export const ASSET_UPLOAD_ERROR_TABLE_LIMIT = 100;
/** The columns of an upload line; hostname, ip, mac and label cells may hold several values separated by ';' (ip and mac pair up by position). */
export const ASSET_UPLOAD_COLUMNS = ['name', 'id', 'hostname', 'ip', 'mac', 'importance', 'label'] as const;
export const ASSET_UPLOAD_VALUE_SEPARATOR = ';';
/** Lookups by IP, MAC or hostname answer at most this many values per call. */
export const ASSET_LOOKUP_MAX_BATCH = 200;

export const ASSET_NAME_MAX_LENGTH = 200;
export const ASSET_TEXT_MAX_LENGTH = 200;
export const ASSET_DESCRIPTION_MAX_LENGTH = 4000;
export const ASSET_LABEL_MAX_LENGTH = 64;
export const ASSET_HOSTNAME_MAX_LENGTH = 253;
export const ASSET_LIST_MAX_ITEMS = 100;

// ---------------------------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------------------------

/** Form-level error codes shown inline beside an IP/MAC pair (spec 2 section 5). */
export const IP_MAC_PAIR_ERRORS = ['badIp', 'badMac', 'ipOrMacRequired'] as const;
export type IpMacPairError = (typeof IP_MAC_PAIR_ERRORS)[number];

/** The inline problems of one pair, or none; blank strings count as absent. */
export function ipMacPairErrors(pair: { ip?: string | null; mac?: string | null }): IpMacPairError[] {
  const ip = pair.ip?.trim() ?? '';
  const mac = pair.mac?.trim() ?? '';
  const errors: IpMacPairError[] = [];
  if (!ip && !mac) errors.push('ipOrMacRequired');
  if (ip && !isIpAddress(ip)) errors.push('badIp');
  if (mac && !isMacAddress(mac)) errors.push('badMac');
  return errors;
}

const blankToNull = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

export const ipMacPairInputSchema = z
  .object({
    ip: z.string().max(64).nullish().transform(blankToNull),
    mac: z.string().max(32).nullish().transform(blankToNull),
  })
  .superRefine((pair, ctx) => {
    for (const code of ipMacPairErrors(pair)) {
      ctx.addIssue({ code: 'custom', message: code, path: code === 'badMac' ? ['mac'] : ['ip'] });
    }
  })
  .transform((pair) => ({
    ip: pair.ip === null ? null : normaliseIp(pair.ip),
    mac: pair.mac === null ? null : normaliseMac(pair.mac),
  }));
export type IpMacPair = { ip: string | null; mac: string | null };

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => blankToNull(value));

/** Labels are trimmed; empty ones and repeats are dropped (spec 2 section 5). */
export const assetLabelsSchema = z
  .array(z.string().max(ASSET_LABEL_MAX_LENGTH))
  .max(ASSET_LIST_MAX_ITEMS)
  .transform((labels) => [...new Set(labels.map((label) => label.trim()).filter((label) => label !== ''))]);

/** POST /api/org/:orgId/asset and PUT /asset/:id. */
export const assetInputSchema = z.object({
  name: z.string().trim().min(1).max(ASSET_NAME_MAX_LENGTH),
  importance: z.enum(ASSET_IMPORTANCES),
  tag: optionalText(ASSET_TEXT_MAX_LENGTH),
  owner: optionalText(ASSET_TEXT_MAX_LENGTH),
  description: optionalText(ASSET_DESCRIPTION_MAX_LENGTH),
  labels: assetLabelsSchema.default([]),
  hostnames: z
    .array(z.string().trim().min(1).max(ASSET_HOSTNAME_MAX_LENGTH))
    .max(ASSET_LIST_MAX_ITEMS)
    .default([]),
  ipMacPairs: z.array(ipMacPairInputSchema).max(ASSET_LIST_MAX_ITEMS).default([]),
});
export type AssetInput = z.input<typeof assetInputSchema>;

export const ipMacPairSchema = z.object({ ip: z.string().nullable(), mac: z.string().nullable() });

export const assetSchema = z.object({
  id: z.string(),
  name: z.string(),
  tag: z.string().nullable(),
  owner: z.string().nullable(),
  importance: z.enum(ASSET_IMPORTANCES),
  description: z.string().nullable(),
  labels: z.array(z.string()),
  hostnames: z.array(z.string()),
  ipMacPairs: z.array(ipMacPairSchema),
  /** Tracked assets are kept by people; untracked ones were discovered from events. */
  tracked: z.boolean(),
  /** Deleted assets appear under the "deleted" status filter only. */
  active: z.boolean(),
  lastSeen: z.string().nullable(),
  dataLastSent: z.string().nullable(),
  modifiedOn: z.string(),
  createdOn: z.string(),
});
export type Asset = z.infer<typeof assetSchema>;

export const assetSoftwareSchema = z.object({
  name: z.string(),
  version: z.string().nullable(),
  lastSeen: z.string().nullable(),
});
export type AssetSoftware = z.infer<typeof assetSoftwareSchema>;

// ---------------------------------------------------------------------------------------------
// Requests and responses
// ---------------------------------------------------------------------------------------------

/** A query parameter that may be given once or repeated. */
const manyStrings = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]));

/**
 * The asset list parameters (spec 2 section 3): GET /assets/search (query string), DELETE
 * /assets/search (query string) and POST /assets/search (JSON body, CSV answer). `lastSeenBefore`
 * and `lastSeenAfter` compare the last-seen time, or the creation time of an asset never seen.
 */
export const assetSearchSchema = z.object({
  query: z.string().trim().max(200).optional(),
  label: z.string().trim().max(ASSET_LABEL_MAX_LENGTH).optional(),
  softwareNames: manyStrings.pipe(z.array(z.string().trim().min(1).max(200)).max(50)).optional(),
  tracked: z.enum(ASSET_TRACKED_FILTERS).default('both'),
  /** true lists active assets, false deleted ones. */
  active: z.union([z.boolean(), queryFlag]).default(true),
  importance: z.enum(ASSET_IMPORTANCE_FILTERS).default('all'),
  lastSeenBefore: z.iso.datetime({ offset: true }).optional(),
  lastSeenAfter: z.iso.datetime({ offset: true }).optional(),
  sortBy: z.enum(ASSET_SORT_FIELDS).default('name'),
  desc: z.union([z.boolean(), queryFlag]).default(false),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  /** Zero-based. */
  pageId: z.coerce.number().int().min(0).default(0),
});
export type AssetSearch = z.input<typeof assetSearchSchema>;
export type AssetSearchParsed = z.output<typeof assetSearchSchema>;

export const assetListResponseSchema = z.object({ items: z.array(assetSchema), total: z.number() });
export const assetDeleteSearchResponseSchema = z.object({ deleted: z.number() });

/** DELETE /api/org/:orgId/assets?assetId= */
export const assetDeleteQuerySchema = z.object({ assetId: z.uuid() });

/** POST /api/org/:orgId/assets/merge: the untracked asset is folded into the tracked one. */
export const assetMergeSchema = z.object({ trackedAsset: z.uuid(), untrackedAsset: z.uuid() });

export const assetLabelsResponseSchema = z.object({
  /** Labels in use in the organisation, sorted. */
  labels: z.array(z.string()),
  suggested: z.array(z.string()),
});
export const softwareNamesResponseSchema = z.object({ names: z.array(z.string()) });

/** A short asset for pivots and lookups. */
export const assetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  importance: z.enum(ASSET_IMPORTANCES),
  tracked: z.boolean(),
});
export type AssetSummary = z.infer<typeof assetSummarySchema>;

/**
 * GET /ip/assets?address=a&address=b&timestamp=, GET /mac/assets?address=..., GET
 * /hostname/assets?hostname=...: batched lookups. With a timestamp, the IP lookup answers the
 * assets that held the address at that time.
 */
export const ipLookupQuerySchema = z.object({
  address: manyStrings.pipe(z.array(z.string().trim().min(1).max(64)).min(1).max(ASSET_LOOKUP_MAX_BATCH)),
  timestamp: z.iso.datetime({ offset: true }).optional(),
});
export const macLookupQuerySchema = z.object({
  address: manyStrings.pipe(z.array(z.string().trim().min(1).max(32)).min(1).max(ASSET_LOOKUP_MAX_BATCH)),
});
export const hostnameLookupQuerySchema = z.object({
  hostname: manyStrings.pipe(
    z.array(z.string().trim().min(1).max(ASSET_HOSTNAME_MAX_LENGTH)).min(1).max(ASSET_LOOKUP_MAX_BATCH),
  ),
});
export const assetLookupResponseSchema = z.object({
  items: z.array(z.object({ value: z.string(), assets: z.array(assetSummarySchema) })),
});

/** GET and POST /api/org/:orgId/config: the organisation's asset settings. */
export const assetConfigSchema = z.object({
  /** Show the notice for high-importance assets that sent no data for five minutes. */
  downNoticeEnabled: z.boolean(),
  /** Create untracked assets for hosts first seen in events. */
  discoverUntracked: z.boolean(),
});
export type AssetConfig = z.infer<typeof assetConfigSchema>;

/** GET /api/org/:orgId/asset-tag-query?label=: an event query matching the label's assets. */
export const assetTagQuerySchema = z.object({ label: z.string().trim().min(1).max(ASSET_LABEL_MAX_LENGTH) });
export const assetTagQueryResponseSchema = z.object({ query: z.string(), assetCount: z.number() });

/** GET /api/org/:orgId/assets/down: high-importance assets without data for five minutes. */
export const assetsDownResponseSchema = z.object({
  items: z.array(assetSummarySchema.extend({ dataLastSent: z.string().nullable() })),
  total: z.number(),
});

/** GET /api/org/:orgId/asset-upload?size=: may a file of this size be uploaded. */
export const assetUploadCheckQuerySchema = z.object({ size: z.coerce.number().int().min(0) });
export const assetUploadCheckResponseSchema = z.object({
  allowed: z.boolean(),
  maxFileBytes: z.number(),
  maxFiles: z.number(),
});

/**
 * Upload line error codes (spec 2 section 5). `field` names the column; `value` the cell.
 */
export const ASSET_UPLOAD_LINE_ERRORS = [
  'nameRequired',
  'identifierRequired',
  'badId',
  'unknownId',
  'duplicateId',
  'badIp',
  'duplicateIp',
  'ipInUse',
  'badMac',
  'duplicateMac',
  'macInUse',
  'ipMacMismatch',
  'emptyHostname',
  'badImportance',
  'badLabel',
  'tooLong',
] as const;
export type AssetUploadLineError = (typeof ASSET_UPLOAD_LINE_ERRORS)[number];

/**
 * POST /api/org/:orgId/asset-upload?mode= (multipart, one or more CSV files). `validate` stores
 * nothing; `all` stores the lines only when every line is valid; `valid` stores the valid lines.
 * `errors-csv` answers every line error as a CSV file instead of JSON.
 */
export const ASSET_UPLOAD_MODES = ['validate', 'all', 'valid', 'errors-csv'] as const;
export const assetUploadQuerySchema = z.object({ mode: z.enum(ASSET_UPLOAD_MODES).default('validate') });
export const assetUploadLineErrorSchema = z.object({
  file: z.string(),
  /** 1-based line number in the file, the header being line 1. */
  line: z.number(),
  field: z.enum(ASSET_UPLOAD_COLUMNS),
  key: z.enum(ASSET_UPLOAD_LINE_ERRORS),
  value: z.string(),
});
export type AssetUploadLineErrorEntry = z.infer<typeof assetUploadLineErrorSchema>;
export const assetUploadResultSchema = z.object({
  files: z.number(),
  lines: z.number(),
  validLines: z.number(),
  errorCount: z.number(),
  /** The first ASSET_UPLOAD_ERROR_TABLE_LIMIT line errors, in file and line order. */
  errors: z.array(assetUploadLineErrorSchema),
  /** Assets created and updated; both zero when nothing was stored. */
  created: z.number(),
  updated: z.number(),
  stored: z.boolean(),
});
export type AssetUploadResult = z.infer<typeof assetUploadResultSchema>;
