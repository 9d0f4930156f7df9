import { Group, Text } from '@mantine/core';
import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { LostDevice } from './lost-device';
import { useTotpLogin } from './second-factor';

const routeApi = getRouteApi('/totp-authentication');

export const Route = createLazyRoute('/totp-authentication')({
  component: TotpAuthenticationPage,
});

function TotpAuthenticationPage() {
  const { t } = useTranslation();
  const { secondFactor } = routeApi.useRouteContext();
  const totp = useTotpLogin(secondFactor);
  return (
    <AuthCard title={t('auth.totp.title')}>
      <Text>{t('auth.totp.instructions')}</Text>
      <CodeForm
        submitLabel={t('auth.totp.submit')}
        validating={totp.validating}
        error={totp.error}
        onSubmit={totp.submit}
        onEdit={totp.clearError}
      />
      <Group justify="flex-end">
        <LostDevice />
      </Group>
    </AuthCard>
  );
}
