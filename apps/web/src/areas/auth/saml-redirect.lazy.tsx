import { Alert, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '../../shell/links';
import { AuthCard } from './auth-card';
import { samlEnabledQuery } from './queries';
import { samlRedirectUrl } from './saml';

const routeApi = getRouteApi('/saml-redirect');

export const Route = createLazyRoute('/saml-redirect')({
  component: SamlRedirectPage,
});

/** Spec 1 section 9. */
const SAML_REDIRECT_DELAY_MS = 2_000;

/** Session-storage flags that bring the user back to the support desk or the admin console after SSO. */
const RETURN_FLAG_STORAGE_KEYS = {
  freshdesk: 'vigil-freshdesk',
  adminConsole: 'vigil-admin-console',
} as const;

function storeReturnFlags(flags: { freshdesk?: true; adminConsole?: true }) {
  for (const [flag, key] of Object.entries(RETURN_FLAG_STORAGE_KEYS)) {
    if (flags[flag as keyof typeof flags]) sessionStorage.setItem(key, 'true');
    else sessionStorage.removeItem(key);
  }
}

/**
 * Hands the user to their organisation's identity provider. The provider's address and SAML request are
 * taken from the server's answer for the e-mail (the one the login page just received), never from the
 * query string, so that a crafted link cannot send users, or a forged request, elsewhere.
 */
function SamlRedirectPage() {
  const { t } = useTranslation();
  const { email = '', freshdesk, adminConsole } = routeApi.useSearch();
  const sso = useQuery({ ...samlEnabledQuery(email), enabled: email !== '', staleTime: Infinity });

  useEffect(() => storeReturnFlags({ freshdesk, adminConsole }), [freshdesk, adminConsole]);

  const answer = sso.data;
  const ssoName = answer?.ssoName ?? '';
  const address =
    answer?.ssoEnabled && answer.ssoUrl && answer.samlRequest
      ? samlRedirectUrl({ ssoName, ssoUrl: answer.ssoUrl, samlRequest: answer.samlRequest, email })
      : null;

  useEffect(() => {
    if (address === null) return;
    const timer = setTimeout(() => window.location.assign(address), SAML_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [address]);

  const unavailable = email === '' || sso.isError || (answer !== undefined && address === null);
  return (
    <AuthCard title={t('auth.saml.title')}>
      {unavailable ? (
        <Alert color="red">
          {t('auth.saml.unavailable')} <AnchorLink to="/login">{t('auth.backToLogin')}</AnchorLink>
        </Alert>
      ) : (
        <Group gap="sm" wrap="nowrap" role="status">
          <Loader size="sm" />
          <Text>{address ? t('auth.saml.redirecting', { name: ssoName }) : t('auth.saml.checking')}</Text>
        </Group>
      )}
    </AuthCard>
  );
}
