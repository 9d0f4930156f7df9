import { notifications } from '@mantine/notifications';
import { NOTIFICATION_DURATION_MS, type ApiError } from '@vigil/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from './api';
import { i18n } from './i18n';

const DEFAULT_ERROR_KEY = 'GENERIC_SERVER_ERROR';

function invalidFieldMessage(error: ApiError, t: TFunction): string {
  const field = error.field ?? '';
  const value = error.params?.value;
  const sentence =
    value === undefined || value === null
      ? t('errors.invalidField', { field })
      : t('GENERIC_INVALID_FIELD_VALUE', { field, value: String(value) });
  if (!error.validValues?.length) return sentence;
  return `${sentence} ${t('errors.validValues', { values: error.validValues.join(', ') })}`;
}

/**
 * The catalogue text for a server error, with its params. A key the catalogue does not know falls back
 * to `fallbackKey` (the action's own message) or GENERIC_SERVER_ERROR. A rule failure
 * (ValidatorException) raised by an action that names `fallbackKey` shows the action text first.
 */
export function errorMessage(error: ApiError, t: TFunction, fallbackKey?: string): string {
  if (!i18n.exists(error.key)) return t(fallbackKey ?? DEFAULT_ERROR_KEY);
  const detail =
    error.key === 'GENERIC_INVALID_FIELD_VALUE'
      ? invalidFieldMessage(error, t)
      : t(error.key, { ...error.params, ...(error.field === undefined ? {} : { field: error.field }) });
  return error.type === 'ValidatorException' && fallbackKey ? `${t(fallbackKey)} ${detail}` : detail;
}

/** Like `errorMessage`, for anything thrown: errors that did not come from the API get the fallback text. */
export function describeError(err: unknown, t: TFunction, fallbackKey?: string): string {
  if (err instanceof ApiRequestError) return errorMessage(err.error, t, fallbackKey);
  return t(fallbackKey ?? DEFAULT_ERROR_KEY);
}

/**
 * Shows a failure as a red notification for NOTIFICATION_DURATION_MS. With `fallbackKey` (the action's
 * own message, such as ERROR_LOADING_INFO_NOTES) that message heads the server's reason.
 */
export function notifyError(err: unknown, fallbackKey?: string): void {
  const message = describeError(err, i18n.t, fallbackKey);
  const action = fallbackKey ? i18n.t(fallbackKey) : undefined;
  notifications.show({
    color: 'red',
    title: action && !message.startsWith(action) ? action : i18n.t('errors.title'),
    message,
    autoClose: NOTIFICATION_DURATION_MS,
  });
}

/**
 * Shows a catalogue message that is not a failure: green for success, yellow for a warning; `params`
 * fill the text's placeholders.
 */
export function notifyMessage(
  key: string,
  color: 'green' | 'yellow' | 'blue' = 'green',
  params?: Record<string, unknown>,
): void {
  notifications.show({ color, message: i18n.t(key, params), autoClose: NOTIFICATION_DURATION_MS });
}
