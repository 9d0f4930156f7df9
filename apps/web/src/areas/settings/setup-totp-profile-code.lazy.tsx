import { Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { apiFetch } from '../../lib/api';
import { describeError, notifyMessage } from '../../lib/notify';
import { refreshCurrentUser } from '../../lib/session';
import { AnchorLink } from '../../shell/links';
import { CodeForm } from '../auth/code-form';
import { TotpSetupPanel } from '../auth/totp-setup-panel';
import { totpSetupQuery } from './queries';

export const Route = createLazyRoute('/settings/setup-totp-profile/input-code')({
  component: SetupTotpProfileCodePage,
});

/** Second step of setting up an authenticator app from the profile: scan, then confirm with a code. */
function SetupTotpProfileCodePage() {
  const { t } = useTranslation();
  usePageTitle(t('settings.totpSetup.title'));
  const queryClient = useQueryClient();
  const router = useRouter();
  const setup = useQuery(totpSetupQuery).data;
  const [error, setError] = useState<string | null>(null);
  const confirm = useMutation({
    mutationFn: (code: string) => apiFetch('/api/user/google2fa/confirm', { method: 'POST', text: code }),
    meta: { notifyError: false },
    onSuccess: async () => {
      notifyMessage('TOTP_SUCCESSFUL_SETUP');
      queryClient.removeQueries({ queryKey: totpSetupQuery.queryKey });
      await refreshCurrentUser(queryClient).catch(() => {
        // The change is made; the status shown catches up when the user is next loaded.
      });
      await router.navigate({ to: '/settings/profile' });
    },
    onError: (err) => setError(describeError(err, t)),
  });

  return (
    <Stack gap="lg" maw={560}>
      <Title order={1}>{t('settings.totpSetup.title')}</Title>
      {setup ? <TotpSetupPanel uri={setup.google2faUri} /> : <Text>{t('settings.totpSetup.noSecret')}</Text>}
      <Text>{t('auth.totpSetup.enterCode')}</Text>
      <CodeForm
        submitLabel={t('auth.totpSetup.submit')}
        validating={confirm.isPending}
        error={error}
        onSubmit={(code) => {
          setError(null);
          confirm.mutate(code);
        }}
        onEdit={() => setError(null)}
        autoFocus={!setup}
      />
      <Group>
        <AnchorLink to="/settings/profile">{t('settings.totpSetup.backToProfile')}</AnchorLink>
      </Group>
    </Stack>
  );
}
