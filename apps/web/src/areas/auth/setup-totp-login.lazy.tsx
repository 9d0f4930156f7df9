import { Alert, Text } from '@mantine/core';
import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '../../shell/links';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { useTotpLogin } from './second-factor';
import { TotpSetupPanel } from './totp-setup-panel';

const routeApi = getRouteApi('/setup-totp-login');

export const Route = createLazyRoute('/setup-totp-login')({
  component: SetupTotpLoginPage,
});

/** The organisation requires a second factor and the user has none yet: set up the app, then sign in. */
function SetupTotpLoginPage() {
  const { t } = useTranslation();
  const { secondFactor } = routeApi.useRouteContext();
  const totp = useTotpLogin(secondFactor, 'TOTP_SUCCESSFUL_SETUP');
  const uri = secondFactor.login.google2faUri;
  return (
    <AuthCard title={t('auth.totpSetup.title')}>
      {uri ? (
        <>
          <Text>{t('auth.totpSetup.required')}</Text>
          <TotpSetupPanel uri={uri} />
          <Text>{t('auth.totpSetup.enterCode')}</Text>
          <CodeForm
            submitLabel={t('auth.totpSetup.submit')}
            validating={totp.validating}
            error={totp.error}
            onSubmit={totp.submit}
            onEdit={totp.clearError}
            autoFocus={false}
          />
        </>
      ) : (
        <Alert color="red">
          {t('ERROR_SETTING_UP_TWO_FACTOR')} <AnchorLink to="/login">{t('auth.backToLogin')}</AnchorLink>
        </Alert>
      )}
    </AuthCard>
  );
}
