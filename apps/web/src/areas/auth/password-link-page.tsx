import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { passwordResetRequestSchema } from '@vigil/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { AuthCard } from './auth-card';
import { NewPasswordFields, useNewPassword } from './new-password';

/** Spec 1 section 9: after a successful reset the login page opens this much later. */
const LOGIN_REDIRECT_DELAY_MS = 3_000;

export interface PasswordLinkPageProps {
  /** The new-user page welcomes the user; the reset page does not. */
  variant: 'reset' | 'newUser';
  /** From the e-mailed link; the route makes sure both are present. */
  id: string;
  confirmation: string;
}

/** /reset-password and /new-user: choose a password through the e-mailed link. */
export function PasswordLinkPage({ variant, id, confirmation }: PasswordLinkPageProps) {
  const { t } = useTranslation();
  const router = useRouter();
  const newPassword = useNewPassword();
  const reset = useMutation({
    mutationFn: (password: string) =>
      apiFetch('/api/user/password-reset', {
        method: 'POST',
        body: passwordResetRequestSchema.parse({ id, confirmation, newPassword: password }),
      }),
    meta: { errorKey: 'PASSWORD_CHANGE_FAILED' },
    onSuccess: () => notifyMessage('PASSWORD_BEEN_RESET'),
  });

  const done = reset.isSuccess;
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void router.navigate({ to: '/login' }), LOGIN_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done, router]);

  const copy = variant === 'newUser' ? 'auth.newUser' : 'auth.resetPassword';
  return (
    <AuthCard title={t(`${copy}.title`)}>
      <Text>{t(`${copy}.legend`)}</Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (newPassword.valid && !reset.isPending && !done) reset.mutate(newPassword.password);
        }}
      >
        <Stack gap="md">
          <NewPasswordFields state={newPassword} />
          <Button
            type="submit"
            disabled={!newPassword.valid || reset.isPending || done}
            loading={reset.isPending}
          >
            {t(`${copy}.submit`)}
          </Button>
          {done && (
            <Text size="sm" role="status">
              {t('auth.resetPassword.openingLogin')}
            </Text>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
