import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { AnchorLink } from '../../shell/links';
import { AuthCard } from './auth-card';
import { isValidEmail } from './credentials';
import { RequiredTextInput } from './fields';

export const Route = createLazyRoute('/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const send = useMutation({
    mutationFn: (address: string) =>
      apiFetch('/api/user/forgot', { method: 'POST', body: { email: address } }),
    meta: { errorKey: 'ERROR_SENDING_FORGOT_PASSWORD_EMAIL' },
    onSuccess: () => notifyMessage('FORGOT_EMAIL_SENT'),
  });

  const address = email.trim();
  const emailError = !touched
    ? null
    : address === ''
      ? t('ERROR_REQUIRED')
      : isValidEmail(address)
        ? null
        : t('auth.invalidEmail');

  return (
    <AuthCard title={t('auth.forgot.title')}>
      <Text>{t('auth.forgot.instructions')}</Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (isValidEmail(address)) send.mutate(address);
        }}
      >
        <Stack gap="md">
          <RequiredTextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            error={emailError}
            onChange={(event) => setEmail(event.currentTarget.value)}
            onBlur={() => {
              if (address !== '') setTouched(true);
            }}
          />
          <Button type="submit" loading={send.isPending}>
            {t('auth.forgot.submit')}
          </Button>
          {send.isSuccess && <Text size="sm">{t('auth.forgot.sentHint')}</Text>}
          <Group justify="flex-end">
            <AnchorLink to="/login" size="sm">
              {t('auth.backToLogin')}
            </AnchorLink>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
