import type { ApiError } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from './api';
import { i18n } from './i18n';
import { describeError, errorMessage } from './notify';

const t = i18n.t;

function apiError(fields: Partial<ApiError>): ApiError {
  return { type: 'ValidatorException', key: 'GENERIC_SERVER_ERROR', message: '', errorId: 'e1', ...fields };
}

describe('errorMessage', () => {
  it('shows the field, the value and the valid values of GENERIC_INVALID_FIELD_VALUE', () => {
    const error = apiError({
      key: 'GENERIC_INVALID_FIELD_VALUE',
      field: 'severity',
      params: { value: 'URGENT' },
      validValues: ['HIGH', 'MEDIUM', 'LOW'],
    });

    expect(errorMessage(error, t)).toBe(
      'URGENT is not a valid value for severity. Valid values: HIGH, MEDIUM, LOW.',
    );
  });

  it('shows GENERIC_INVALID_FIELD_VALUE without a valid-values list when there is none', () => {
    const error = apiError({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'port', params: { value: 70000 } });

    expect(errorMessage(error, t)).toBe('70000 is not a valid value for port.');
  });

  it('fills the params of other keys', () => {
    const error = apiError({ key: 'GENERIC_REQUIRED_FIELD', field: 'name' });

    expect(errorMessage(error, t)).toBe('The field name is required.');
  });

  it('fills positional params such as {{0}}', () => {
    const notFound = apiError({ type: 'NotFoundException', key: 'ASSET_NOT_FOUND', params: { 0: 'a-17' } });
    const malformed = apiError({ key: 'ASSET_UPLOAD_MALFORMED', params: { '0': 'hosts.csv' } });

    expect(errorMessage(notFound, t)).toBe('No asset currently exists with an ID: a-17');
    expect(errorMessage(malformed, t)).toBe(
      'Error with uploaded file. Please confirm that hosts.csv is not malformed and try again.',
    );
  });

  it('puts the action text before the detail of a rule failure', () => {
    const error = apiError({ key: 'GENERIC_REQUIRED_FIELD', field: 'noteText' });

    expect(errorMessage(error, t, 'ERROR_ADDING_INFO_NOTE')).toBe(
      'The note could not be added. The field noteText is required.',
    );
  });

  it('falls back to the given key, or to GENERIC_SERVER_ERROR, for a key the catalogue lacks', () => {
    const error = apiError({ type: 'ConflictException', key: 'SOMETHING_NEW_ON_THE_SERVER' });

    expect(errorMessage(error, t, 'ERROR_EDITING_INFO_NOTE')).toBe('The note could not be saved.');
    expect(errorMessage(error, t)).toBe(
      'Something went wrong. Try again, and contact support if the problem persists.',
    );
  });
});

describe('describeError', () => {
  it('uses the server key of an API failure and the fallback for anything else', () => {
    const denied = new ApiRequestError(
      403,
      apiError({ type: 'AccessDeniedException', key: 'PERMISSION_DENIED' }),
    );

    expect(describeError(denied, t)).toBe('You do not have permission to do this.');
    expect(describeError(new Error('boom'), t, 'ERROR_LOADING_INFO_NOTES')).toBe(
      'The notes could not be loaded.',
    );
  });
});
