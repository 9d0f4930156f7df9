import { Badge, Button, Card, Group, Modal, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { totpSetupResponseSchema, type CurrentUser } from '@vigil/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { refreshCurrentUser } from '../../lib/session';
import { isCeremonyCancelled, webauthnCreationOptionsSchema } from '../../lib/webauthn';
import { totpSetupQuery } from './queries';

async function registerSecurityKey() {
  const { options } = await apiFetch('/api/user/webauthn/register/begin', {
    method: 'POST',
    schema: webauthnCreationOptionsSchema,
  });
  const response = await startRegistration({ optionsJSON: options });
  await apiFetch('/api/user/webauthn/register/finish', { method: 'POST', body: response });
}

function SetUpBadge({ on, label }: { on: boolean; label: { on: string; off: string } }) {
  return (
    <Badge color={on ? 'green' : 'gray'} variant="light">
      {on ? label.on : label.off}
    </Badge>
  );
}

type SecondFactor = 'google2fa' | 'u2f';

/** Asks for the current password before a second factor is removed. */
function RemoveSecondFactorDialog({ kind, onClose }: { kind: SecondFactor | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const remove = useMutation({
    mutationFn: () =>
      apiFetch(`/api/user/${kind}/remove`, { method: 'POST', body: { requiredPassword: password } }),
    onSuccess: async () => {
      notifyMessage(
        kind === 'google2fa'
          ? 'settings.profile.twoFactor.authenticatorRemoved'
          : 'settings.profile.twoFactor.keysRemoved',
      );
      setPassword('');
      onClose();
      await refreshCurrentUser(queryClient).catch(() => {
        // The change is made; the status shown catches up when the user is next loaded.
      });
    },
  });
  return (
    <Modal opened={kind !== null} onClose={onClose} title={t('settings.profile.twoFactor.removeTitle')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (password) remove.mutate();
        }}
      >
        <Stack>
          <Text size="sm">
            {t(
              kind === 'google2fa'
                ? 'settings.profile.twoFactor.removeAuthenticatorMessage'
                : 'settings.profile.twoFactor.removeKeysMessage',
            )}
          </Text>
          <PasswordInput
            label={t('settings.profile.password.current')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={!password} loading={remove.isPending}>
              {t('settings.profile.twoFactor.remove')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Which second factors the user has, and buttons to add or remove an authenticator app or a security key. */
export function TwoFactorCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const headingId = useId();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [removing, setRemoving] = useState<SecondFactor | null>(null);

  const setUpTotp = useMutation({
    mutationFn: () =>
      apiFetch('/api/user/google2fa/setup', { method: 'POST', schema: totpSetupResponseSchema }),
    meta: { errorKey: 'ERROR_SETTING_UP_TWO_FACTOR' },
    onSuccess: async (setup) => {
      queryClient.setQueryData(totpSetupQuery.queryKey, setup);
      await router.navigate({ to: '/settings/setup-totp-profile/input-code' });
    },
  });

  const registerKey = useMutation({
    mutationFn: registerSecurityKey,
    meta: { notifyError: false },
    onSuccess: async () => {
      notifyMessage('settings.profile.twoFactor.keyRegistered');
      await refreshCurrentUser(queryClient).catch(() => {
        // The change is made; the status shown catches up when the user is next loaded.
      });
    },
    onError: (err) => {
      // Spec 1 section 4.2: a dismissed prompt is the user's choice, not a failure.
      if (!isCeremonyCancelled(err)) notifyError(err, 'ERROR_SETTING_UP_TWO_FACTOR');
    },
  });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={2} size="h4" id={headingId}>
          {t('settings.profile.twoFactor.title')}
        </Title>
        <Table variant="vertical" layout="fixed" withTableBorder={false}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={200}>{t('settings.profile.twoFactor.authenticator')}</Table.Th>
              <Table.Td>
                <SetUpBadge
                  on={user.google2faEnabled}
                  label={{
                    on: t('settings.profile.twoFactor.setUp'),
                    off: t('settings.profile.twoFactor.notSetUp'),
                  }}
                />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('settings.profile.twoFactor.securityKey')}</Table.Th>
              <Table.Td>
                <SetUpBadge
                  on={user.u2fEnabled}
                  label={{
                    on: t('settings.profile.twoFactor.registered'),
                    off: t('settings.profile.twoFactor.notRegistered'),
                  }}
                />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Group gap="sm">
          <Button variant="default" loading={setUpTotp.isPending} onClick={() => setUpTotp.mutate()}>
            {t('settings.profile.twoFactor.setUpAuthenticator')}
          </Button>
          <Button variant="default" loading={registerKey.isPending} onClick={() => registerKey.mutate()}>
            {t('settings.profile.twoFactor.registerKey')}
          </Button>
          {user.google2faEnabled && (
            <Button variant="subtle" color="red" onClick={() => setRemoving('google2fa')}>
              {t('settings.profile.twoFactor.removeAuthenticator')}
            </Button>
          )}
          {user.u2fEnabled && (
            <Button variant="subtle" color="red" onClick={() => setRemoving('u2f')}>
              {t('settings.profile.twoFactor.removeKeys')}
            </Button>
          )}
        </Group>
        <RemoveSecondFactorDialog kind={removing} onClose={() => setRemoving(null)} />
      </Stack>
    </Card>
  );
}
