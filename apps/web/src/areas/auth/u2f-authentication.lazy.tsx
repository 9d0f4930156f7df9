import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { currentUserSchema } from '@vigil/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { isCeremonyCancelled, webauthnRequestOptionsSchema } from '../../lib/webauthn';
import { AnchorLink } from '../../shell/links';
import { AuthCard } from './auth-card';
import { LostDevice } from './lost-device';
import { isSecondFactorExpired, useSecondFactorOutcome } from './second-factor';

const routeApi = getRouteApi('/u2f-authentication');

export const Route = createLazyRoute('/u2f-authentication')({
  component: U2fAuthenticationPage,
});

async function authenticateWithSecurityKey() {
  const { options } = await apiFetch('/api/user/login/webauthn/begin', {
    method: 'POST',
    schema: webauthnRequestOptionsSchema,
  });
  const response = await startAuthentication({ optionsJSON: options });
  return apiFetch('/api/user/login/webauthn/finish', {
    method: 'POST',
    body: response,
    schema: currentUserSchema,
  });
}

function U2fAuthenticationPage() {
  const { t } = useTranslation();
  const { secondFactor } = routeApi.useRouteContext();
  const outcome = useSecondFactorOutcome(secondFactor);
  const [failed, setFailed] = useState(false);
  const { mutate: authenticate, isPending } = useMutation({
    mutationFn: authenticateWithSecurityKey,
    meta: { notifyError: false },
    onMutate: () => setFailed(false),
    onSuccess: outcome.succeeded,
    onError: async (err) => {
      if (isSecondFactorExpired(err)) await outcome.expired();
      // Spec 1 section 4.2: a dismissed or timed-out prompt is not an error; Retry asks again.
      else if (!isCeremonyCancelled(err)) setFailed(true);
    },
  });

  // The browser prompt opens as the page does; the ref keeps a remount from asking twice.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    authenticate();
  }, [authenticate]);

  return (
    <AuthCard title={t('auth.u2f.title')}>
      {failed && <Alert color="red">{t('LOGIN_FAILED')}</Alert>}
      <Group gap="sm" wrap="nowrap">
        {isPending && <Loader size="sm" aria-label={t('auth.u2f.waiting')} />}
        <Text>{t('auth.u2f.instructions')}</Text>
      </Group>
      <Button onClick={() => authenticate()} disabled={isPending}>
        {t('auth.u2f.retry')}
      </Button>
      <Stack gap="xs" align="flex-end">
        {secondFactor.login.google2faInitialized && (
          <AnchorLink
            to="/totp-authentication"
            size="sm"
            onClick={() => WebAuthnAbortService.cancelCeremony()}
          >
            {t('auth.u2f.useTotp')}
          </AnchorLink>
        )}
        <LostDevice />
      </Stack>
    </AuthCard>
  );
}
