import { ERROR_TYPE_STATUS, type ErrorKey, type ErrorType } from '@vigil/contracts';

export type ErrorParams = Record<string, string | number | boolean | null>;

export interface AppErrorOptions {
  params?: ErrorParams;
  field?: string;
  validValues?: string[];
  cause?: unknown;
}

/**
 * The one error class of the API. `key` is a message-catalogue key shown to the user; `message` is
 * for developers and logs.
 */
export class AppError extends Error {
  readonly status: number;
  readonly params?: ErrorParams;
  readonly field?: string;
  readonly validValues?: string[];

  constructor(
    readonly type: ErrorType,
    readonly key: ErrorKey | (string & {}),
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = ERROR_TYPE_STATUS[type];
    this.params = options.params;
    this.field = options.field;
    this.validValues = options.validValues;
  }
}

export const invalidField = (field: string, value: unknown, validValues?: string[], message?: string) =>
  new AppError('ValidatorException', 'GENERIC_INVALID_FIELD_VALUE', message ?? `Invalid value for ${field}`, {
    field,
    params: { field, value: value === undefined ? null : String(value) },
    validValues,
  });

export const validationFailed = (key: ErrorKey | (string & {}), message: string, options?: AppErrorOptions) =>
  new AppError('ValidatorException', key, message, options);

export const notAuthenticated = () =>
  new AppError('AuthenticationException', 'NOT_AUTHENTICATED', 'Sign in to continue');

export const accessDenied = (key: ErrorKey, message: string) =>
  new AppError('AccessDeniedException', key, message);

/** Objects of another organisation answer the same as missing ones: their existence is not revealed. */
export const notFound = (what: string) =>
  new AppError('NotFoundException', 'GENERIC_NOT_FOUND', `${what} not found`, { params: { what } });

export const conflict = (key: ErrorKey | (string & {}), message: string, options?: AppErrorOptions) =>
  new AppError('ConflictException', key, message, options);
