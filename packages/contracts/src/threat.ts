import { z } from 'zod';
import { isHash, isIpAddress, normaliseIp } from './assets';
import { pageParams } from './query-params';

/**
 * Threat match and threat ratings (spec 1 and 2): an organisation's ratings of hosts and file
 * signatures, and the threat sources whose indicators events are matched against at ingest.
 */

// ---------------------------------------------------------------------------------------------
// Ratings
// ---------------------------------------------------------------------------------------------

export const THREAT_RATINGS = ['HIGH', 'MEDIUM', 'LOW', 'HARMLESS'] as const;
export type ThreatRatingValue = (typeof THREAT_RATINGS)[number];
export const THREAT_SUBJECT_TYPES = ['HOST', 'SIGNATURE'] as const;
export type ThreatSubjectType = (typeof THREAT_SUBJECT_TYPES)[number];
export const THREAT_SUBJECT_MAX_LENGTH = 512;
/** Subjects per rating lookup (the web collects them for THREAT_RATING_LOOKUP_DELAY_MS). */
export const THREAT_RATING_LOOKUP_MAX = 500;
export const THREAT_RATING_LOOKUP_DELAY_MS = 500;

/** The hash type of a signature, by its number of hex digits. */
const SIGNATURE_TYPES: Record<number, string> = { 32: 'MD5', 40: 'SHA1', 64: 'SHA256' };

export interface ThreatSubject {
  type: ThreatSubjectType;
  /** Signatures in lower case; hosts trimmed. */
  subject: string;
  /** Signatures only: MD5, SHA1, SHA256 or HEX. */
  signatureType: string | null;
}

/** Spec 2 section 4: a hex string of 32 to 64 digits in whole bytes is a signature, anything else a host. */
export function classifyThreatSubject(value: string): ThreatSubject {
  const subject = value.trim();
  if (!isHash(subject)) return { type: 'HOST', subject, signatureType: null };
  return {
    type: 'SIGNATURE',
    subject: subject.toLowerCase(),
    signatureType: SIGNATURE_TYPES[subject.length] ?? 'HEX',
  };
}

const subjectText = z.string().trim().min(1).max(THREAT_SUBJECT_MAX_LENGTH);

/** PUT /threat-rating. `ignore` marks the subject ignored (HARMLESS only) until a time, or forever when null. */
export const threatRatingInputSchema = z.object({
  subject: subjectText,
  /** Checked by the service so that a bad value answers with the spec's rating error key. */
  rating: z.string(),
  ignore: z.object({ until: z.iso.datetime({ offset: true }).nullable() }).optional(),
});
export type ThreatRatingInput = z.input<typeof threatRatingInputSchema>;

export const threatRatingSchema = z.object({
  subject: z.string(),
  subjectType: z.enum(THREAT_SUBJECT_TYPES),
  signatureType: z.string().nullable(),
  /** Null when the subject is not rated. */
  rating: z.enum(THREAT_RATINGS).nullable(),
  ratedAt: z.string().nullable(),
  ignored: z.boolean(),
  ignoreUntil: z.string().nullable(),
});
export type ThreatRating = z.infer<typeof threatRatingSchema>;

export const threatRatingClearQuerySchema = z.object({ subject: subjectText });

export const threatRatingLookupSchema = z.object({
  subjects: z.array(subjectText).min(1).max(THREAT_RATING_LOOKUP_MAX),
});
export const threatRatingLookupResultSchema = z.object({ items: z.array(threatRatingSchema) });

// ---------------------------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------------------------

export const THREAT_DOMAINS = ['security', 'fraud'] as const;
export type ThreatDomain = (typeof THREAT_DOMAINS)[number];
export const THREAT_SOURCE_TYPES = ['COMMERCIAL', 'OPEN_SOURCE', 'COMMUNITY', 'INTERNAL'] as const;
export const THREAT_SOURCE_NAME_MAX_LENGTH = 200;
export const THREAT_SOURCE_DESCRIPTION_MAX_LENGTH = 1000;
export const THREAT_SOURCE_URL_MAX_LENGTH = 2048;

const httpUrl = z
  .string()
  .trim()
  .max(THREAT_SOURCE_URL_MAX_LENGTH)
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), 'A http or https URL');

/** POST /threat-source and PUT /threat-source/:id (the domain is fixed at creation). */
export const threatSourceInputSchema = z.object({
  domain: z.enum(THREAT_DOMAINS).default('security'),
  name: z.string().trim().min(1).max(THREAT_SOURCE_NAME_MAX_LENGTH),
  description: z.string().trim().max(THREAT_SOURCE_DESCRIPTION_MAX_LENGTH).default(''),
  url: httpUrl.nullish(),
  type: z.enum(THREAT_SOURCE_TYPES),
  enabled: z.boolean().default(true),
  /** Provider staff only: offer the source to every organisation. */
  provider: z.boolean().default(false),
});
export type ThreatSourceInput = z.input<typeof threatSourceInputSchema>;

export const threatSourceSchema = z.object({
  id: z.string(),
  domain: z.enum(THREAT_DOMAINS),
  name: z.string(),
  description: z.string(),
  url: z.string().nullable(),
  type: z.enum(THREAT_SOURCE_TYPES),
  enabled: z.boolean(),
  /** Offered by the provider to every organisation (subscribed or not), rather than the organisation's own. */
  provider: z.boolean(),
  /** Provider sources: whether this organisation takes it. Own sources are always subscribed. */
  subscribed: z.boolean(),
  /** Whether the caller may change it and its indicators. */
  editable: z.boolean(),
  indicatorCount: z.number(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type ThreatSource = z.infer<typeof threatSourceSchema>;

/** GET /threat-sources: subscribed first, then enabled, then by name (spec 2 section 3). */
export const threatSourceListQuerySchema = z.object({
  domain: z.enum(THREAT_DOMAINS).default('security'),
  search: z.string().trim().max(THREAT_SOURCE_NAME_MAX_LENGTH).optional(),
  ...pageParams,
});
export type ThreatSourceListQuery = z.input<typeof threatSourceListQuerySchema>;
export const threatSourceListSchema = z.object({ items: z.array(threatSourceSchema), total: z.number() });
export type ThreatSourceList = z.infer<typeof threatSourceListSchema>;

export const threatSubscriptionInputSchema = z.object({ subscribed: z.boolean() });
export const threatSourceEnabledInputSchema = z.object({ enabled: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Indicators
// ---------------------------------------------------------------------------------------------

export const THREAT_INDICATOR_TYPES = ['IP', 'DOMAIN', 'URL', 'HASH', 'EMAIL'] as const;
export type ThreatIndicatorType = (typeof THREAT_INDICATOR_TYPES)[number];
export const THREAT_INDICATOR_RATINGS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export const THREAT_INDICATOR_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export const THREAT_INDICATOR_VALUE_MAX_LENGTH = 2048;
export const THREAT_INDICATOR_REASON_MAX_LENGTH = 1000;
/** Indicators one source holds at most. */
export const THREAT_INDICATORS_PER_SOURCE_MAX = 100_000;
export const THREAT_UPLOAD_MAX_FILE_BYTES = 32 * 1024 * 1024;
export const THREAT_UPLOAD_COLUMNS = [
  'value',
  'rating',
  'severity',
  'reason',
  'validFrom',
  'expires',
] as const;
export type ThreatUploadColumn = (typeof THREAT_UPLOAD_COLUMNS)[number];
/** Line errors listed in an upload's answer. */
export const THREAT_UPLOAD_ERROR_LIST_LIMIT = 100;

const HASH_VALUE = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128})$/;
const DOMAIN_VALUE = /^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+[a-z][a-z0-9-]{0,62}(?<!-)$/;
const EMAIL_VALUE = /^[^\s@]{1,64}@[^\s@]+$/;

/** An IP address or a CIDR range in canonical form (the host bits of a range must be zero); null when invalid. */
function normaliseIpOrRange(value: string): string | null {
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || !address || !isIpAddress(address)) return null;
  const ip = normaliseIp(address.toLowerCase());
  if (prefix === undefined) return ip;
  const max = ip.includes(':') ? 128 : 32;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return null;
  return `${ip}/${Number(prefix)}`;
}

function normaliseDomain(value: string): string | null {
  const domain = value.toLowerCase().replace(/\.$/, '');
  return DOMAIN_VALUE.test(domain) ? domain : null;
}

/** http, https and ftp URLs; the scheme and host in lower case as the URL standard writes them. */
function normaliseUrl(value: string): string | null {
  if (!/^(?:https?|ftp):\/\/[^\s/]/i.test(value) || /\s/.test(value) || !URL.canParse(value)) return null;
  return new URL(value).href;
}

function normaliseEmail(value: string): string | null {
  if (!EMAIL_VALUE.test(value)) return null;
  const at = value.lastIndexOf('@');
  const domain = normaliseDomain(value.slice(at + 1));
  return domain === null ? null : `${value.slice(0, at).toLowerCase()}@${domain}`;
}

/**
 * The stored form of an indicator value of a type, or null when the value is not one: IPs canonical
 * (ranges as CIDR), domains, hashes and e-mail addresses in lower case, URLs as the URL standard
 * writes them. Events are matched against these forms.
 */
export function normaliseIndicatorValue(type: ThreatIndicatorType, raw: string): string | null {
  const value = raw.trim();
  if (value === '' || value.length > THREAT_INDICATOR_VALUE_MAX_LENGTH) return null;
  switch (type) {
    case 'IP':
      return normaliseIpOrRange(value);
    case 'DOMAIN':
      return normaliseDomain(value);
    case 'URL':
      return normaliseUrl(value);
    case 'HASH':
      return HASH_VALUE.test(value.toLowerCase()) ? value.toLowerCase() : null;
    case 'EMAIL':
      return normaliseEmail(value);
  }
}

const timestamp = z.iso.datetime({ offset: true });

/** POST /threat-source/:id/indicator and PUT …/indicator/:indicatorId. Values are checked by the service. */
export const threatIndicatorInputSchema = z.object({
  type: z.enum(THREAT_INDICATOR_TYPES),
  value: z.string().max(THREAT_INDICATOR_VALUE_MAX_LENGTH),
  rating: z.string(),
  severity: z.string().nullish(),
  reason: z.string().trim().max(THREAT_INDICATOR_REASON_MAX_LENGTH).default(''),
  validFrom: timestamp.nullish(),
  expiresAt: timestamp.nullish(),
});
export type ThreatIndicatorInput = z.input<typeof threatIndicatorInputSchema>;

export const threatIndicatorSchema = z.object({
  id: z.string(),
  sourceId: z.string(),
  type: z.enum(THREAT_INDICATOR_TYPES),
  value: z.string(),
  rating: z.string(),
  severity: z.string().nullable(),
  reason: z.string(),
  validFrom: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdOn: z.string(),
});
export type ThreatIndicator = z.infer<typeof threatIndicatorSchema>;

export const threatIndicatorListQuerySchema = z.object({
  type: z.enum(THREAT_INDICATOR_TYPES).optional(),
  /** Part of the value or the reason, any case. */
  search: z.string().trim().max(THREAT_INDICATOR_VALUE_MAX_LENGTH).optional(),
  ...pageParams,
});
export type ThreatIndicatorListQuery = z.input<typeof threatIndicatorListQuerySchema>;
export const threatIndicatorListSchema = z.object({
  items: z.array(threatIndicatorSchema),
  total: z.number(),
});
export type ThreatIndicatorList = z.infer<typeof threatIndicatorListSchema>;

/** POST /threat-source/:id/indicators/upload: the one indicator type of the file. */
export const threatUploadQuerySchema = z.object({ type: z.string() });

export const THREAT_UPLOAD_LINE_ERRORS = [
  'THREAT_INDICATOR_INVALID_IP',
  'THREAT_INDICATOR_INVALID_DOMAIN',
  'THREAT_INDICATOR_INVALID_URL',
  'THREAT_INDICATOR_INVALID_HEX',
  'THREAT_INDICATOR_INVALID_EMAIL',
  'THREAT_INDICATOR_INVALID_RATING',
  'THREAT_INDICATOR_INVALID_SEVERITY',
  'THREAT_INDICATOR_INVALID_TIME',
  'THREAT_INDICATOR_TIMES_REQUIRED',
  'THREAT_INDICATOR_DUPLICATE',
  'THREAT_INDICATOR_REASON_TOO_LONG',
] as const;
export type ThreatUploadLineError = (typeof THREAT_UPLOAD_LINE_ERRORS)[number];

/** The error key of a value that is not an indicator of its type. */
export const THREAT_INDICATOR_INVALID_KEYS = {
  IP: 'THREAT_INDICATOR_INVALID_IP',
  DOMAIN: 'THREAT_INDICATOR_INVALID_DOMAIN',
  URL: 'THREAT_INDICATOR_INVALID_URL',
  HASH: 'THREAT_INDICATOR_INVALID_HEX',
  EMAIL: 'THREAT_INDICATOR_INVALID_EMAIL',
} as const satisfies Record<ThreatIndicatorType, ThreatUploadLineError>;

export const threatUploadLineErrorSchema = z.object({
  /** 1 is the header line. */
  line: z.number(),
  field: z.enum(THREAT_UPLOAD_COLUMNS),
  key: z.enum(THREAT_UPLOAD_LINE_ERRORS),
  value: z.string(),
  /** For ratings and severities: the values allowed. */
  validValues: z.array(z.string()).optional(),
});
export type ThreatUploadLineErrorEntry = z.infer<typeof threatUploadLineErrorSchema>;

export const threatUploadResultSchema = z.object({
  /** Indicators stored: none unless every line is valid. */
  stored: z.number(),
  /** The first THREAT_UPLOAD_ERROR_LIST_LIMIT line errors, in line order. */
  errors: z.array(threatUploadLineErrorSchema),
  totalErrors: z.number(),
});
export type ThreatUploadResult = z.infer<typeof threatUploadResultSchema>;
