import { z } from 'zod';

/**
 * Error types of the API (DESIGN section 4). `ValidatorException` is a broken rule or bad input;
 * the others name the HTTP family they travel with.
 */
export const ERROR_TYPES = [
  'ValidatorException',
  'AuthenticationException',
  'AccessDeniedException',
  'NotFoundException',
  'ConflictException',
  'PayloadTooLargeException',
  'RateLimitException',
  'ServerException',
  /** The database did not answer in time (a search's statement timeout); retrying may succeed. */
  'ServiceUnavailableException',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * Server error keys. Each one has an English text in the web message catalogue
 * (apps/web/src/messages/en.json); a test keeps the two in step.
 */
export const ERROR_KEYS = [
  'GENERIC_INVALID_FIELD_VALUE',
  'GENERIC_REQUIRED_FIELD',
  'GENERIC_NOT_FOUND',
  'GENERIC_CONFLICT',
  'GENERIC_SERVER_ERROR',
  'GENERIC_PAYLOAD_TOO_LARGE',
  'GENERIC_RATE_LIMITED',
  'NOT_AUTHENTICATED',
  'NOT_AUTHORISED',
  'ORG_NOT_AUTHORISED',
  'PERMISSION_DENIED',
  'FEATURE_NOT_ENABLED',
  'PRODUCT_NOT_ENTITLED',
  'CSRF_HEADER_MISSING',
  'CSRF_ORIGIN_REFUSED',
  'LOGIN_FAILED',
  'LOGIN_RATE_LIMITED',
  'SECOND_FACTOR_EXPIRED',
  'INVALID_TOTP',
  'ERROR_SETTING_UP_TWO_FACTOR',
  'ERROR_REQUIRED',
  'PASSWORDS_MUST_MATCH',
  'PASSWORDS_MUST_VALIDATE_LENGTH',
  'PASSWORD_NOT_PRINTABLE',
  'PASSWORD_CONTAINS_USER_DATA',
  'PASSWORD_REPEATED_CHARACTERS',
  'PASSWORD_SEQUENTIAL_CHARACTERS',
  'PASSWORD_CHANGE_FAILED',
  'PASSWORD_CURRENT_INVALID',
  'PASSWORD_LINK_INVALID',
  'ERROR_LOGGING_IN_TO_KNOWLEDGE_BASE',
  'SAML_LOGIN_FAILED',
  'SAML_DOMAIN_IN_USE',
  'DATA_RESTRICTION_QUERY_REQUIRED',
  'DATA_RESTRICTION_INVALID_QUERY',
  'DATA_RESTRICTION_UNKNOWN_USER',
  'DATA_RESTRICTION_UNKNOWN_ORG',
  'DATA_RESTRICTION_DELETED',
  'TAG_NAME_TAKEN',
  'USER_EMAIL_TAKEN',
  'USER_EMAIL_NOT_PROVIDER_DOMAIN',
  'USERNAME_TAKEN',
  'USER_SELF_CHANGE_REFUSED',
  'USER_ORGS_NOT_AUTHORISED',
  'ROLE_INVALID',
  'ROLE_IN_USE',
  'ROLE_NOT_EDITABLE',
  'ROLE_NAME_TAKEN',
  'ROLE_PERMISSION_NOT_HELD',
  'ROLE_MARKER_NOT_ALLOWED',
  'ROLE_REQUIRES_PERMISSION',
  'INVALID_JOB_DESCRIPTORS',
  'JOB_DESCRIPTOR_NAME_TAKEN',
  'ASSET_IP_OR_MAC_IN_USE',
  'ASSET_NOT_FOUND',
  'ASSET_DELETED',
  'ASSET_MERGE_NOT_UNTRACKED',
  'ASSET_MERGE_NOT_TRACKED',
  'ASSET_MERGE_SAME_ASSET',
  'ASSET_UPLOAD_MALFORMED',
  'ASSET_UPLOAD_FAILED',
  'ASSET_UPLOAD_NO_FILES',
  'ASSET_UPLOAD_TOO_MANY_FILES',
  'ASSET_UPLOAD_FILE_TOO_LARGE',
  'ASSET_UPLOAD_MISSING_COLUMNS',
  'SEARCH_INVALID_QUERY',
  'SEARCH_INVALID_RANGE',
  'SEARCH_RANGE_TOO_LONG',
  'SEARCH_INVALID_SORT_FIELD',
  'SEARCH_INVALID_SORT_ORDER',
  'SEARCH_INVALID_FIELD',
  'SEARCH_RESPONSE_TOO_LARGE',
  'SEARCH_TOO_MANY_TERMS',
  'SEARCH_AGGREGATION_FIELD_REQUIRED',
  'SEARCH_AGGREGATION_TEXT_FIELD',
  'SEARCH_AGGREGATION_NOT_NUMERIC',
  'SEARCH_TIMEOUT',
  'EVENT_INVALID',
  'TOKEN_NOT_FOUND',
  'TOKEN_ALREADY_REVOKED',
  'TOKEN_EXPIRY_IN_PAST',
] as const;
export type ErrorKey = (typeof ERROR_KEYS)[number];

/** The JSON body of every error answer. */
export const apiErrorSchema = z.object({
  type: z.enum(ERROR_TYPES),
  key: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  field: z.string().optional(),
  validValues: z.array(z.string()).optional(),
  errorId: z.string(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Status codes used with each error type. */
export const ERROR_TYPE_STATUS: Record<ErrorType, number> = {
  ValidatorException: 400,
  AuthenticationException: 401,
  AccessDeniedException: 403,
  NotFoundException: 404,
  ConflictException: 409,
  PayloadTooLargeException: 413,
  RateLimitException: 429,
  ServerException: 500,
  ServiceUnavailableException: 503,
};
