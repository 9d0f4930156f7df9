import { Alert, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { checkPasswordRules, passwordCheckResponseSchema } from '@vigil/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { RequiredPasswordInput } from './fields';

/** Typing pauses this long before the password is checked against the common-password list. */
const COMMON_CHECK_DELAY_MS = 400;

/** Whether the server knows `password` as a common one; false while unknown or for null. */
function useCommonPassword(password: string | null): boolean {
  const [settled] = useDebouncedValue(password, COMMON_CHECK_DELAY_MS);
  const { mutate, reset, data, variables } = useMutation({
    mutationFn: (candidate: string) =>
      apiFetch('/api/user/password-check', {
        method: 'POST',
        body: { password: candidate },
        schema: passwordCheckResponseSchema,
      }),
    // Only advice: when the check fails the user can still choose the password.
    meta: { notifyError: false },
  });
  useEffect(() => {
    if (settled) mutate(settled);
    else reset();
  }, [settled, mutate, reset]);
  return password !== null && variables === password && data?.common === true;
}

/** Name, e-mail and so on, which a password must not contain. */
export interface PasswordOwner {
  email?: string;
  firstName?: string;
  lastName?: string;
}

/**
 * State of a new password and its confirmation (spec 1 section 5): the rule messages appear only once
 * a field has been edited; `valid` says whether the pair may be sent.
 */
export function useNewPassword(owner: PasswordOwner = {}) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [edited, setEdited] = useState({ password: false, confirmation: false });
  const passwordRule = checkPasswordRules(password, owner);
  const confirmationRule =
    confirmation === '' ? 'ERROR_REQUIRED' : confirmation !== password ? 'PASSWORDS_MUST_MATCH' : null;
  const common = useCommonPassword(passwordRule === null ? password : null);
  return {
    password,
    confirmation,
    passwordError: edited.password ? passwordRule : null,
    confirmationError: edited.confirmation ? confirmationRule : null,
    common,
    valid: passwordRule === null && confirmationRule === null,
    setPassword: (value: string) => {
      setPassword(value);
      setEdited((current) => ({ ...current, password: true }));
    },
    setConfirmation: (value: string) => {
      setConfirmation(value);
      setEdited((current) => ({ ...current, confirmation: true }));
    },
    clear: () => {
      setPassword('');
      setConfirmation('');
      setEdited({ password: false, confirmation: false });
    },
  };
}

export type NewPasswordState = ReturnType<typeof useNewPassword>;

/** The two fields of a new password, their messages and the common-password warning. */
export function NewPasswordFields({ state }: { state: NewPasswordState }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <RequiredPasswordInput
        label={t('auth.newPassword.password')}
        description={t('auth.newPassword.rules')}
        autoComplete="new-password"
        value={state.password}
        error={state.passwordError && t(state.passwordError)}
        onChange={(event) => state.setPassword(event.currentTarget.value)}
      />
      {state.common && (
        <Alert color="yellow" variant="light">
          {t('auth.newPassword.common')}
        </Alert>
      )}
      <RequiredPasswordInput
        label={t('auth.newPassword.confirmation')}
        autoComplete="new-password"
        value={state.confirmation}
        error={state.confirmationError && t(state.confirmationError)}
        onChange={(event) => state.setConfirmation(event.currentTarget.value)}
      />
    </Stack>
  );
}
