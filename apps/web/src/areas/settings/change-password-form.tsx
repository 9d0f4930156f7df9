import { Button, Card, Stack, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { CurrentUser } from '@vigil/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { RequiredPasswordInput } from '../auth/fields';
import { NewPasswordFields, useNewPassword } from '../auth/new-password';

/** Changing one's own password: the current one, then the new one twice. */
export function ChangePasswordForm({ user, orgId }: { user: CurrentUser; orgId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [currentPassword, setCurrentPassword] = useState('');
  const newPassword = useNewPassword({
    email: user.emails[0]?.email,
    firstName: user.firstName,
    lastName: user.lastName,
  });
  const change = useMutation({
    mutationFn: (body: { requiredPassword: string; newPassword: string }) =>
      apiFetch(`/api/org/${encodeURIComponent(orgId)}/user/${encodeURIComponent(user.id)}/password`, {
        method: 'POST',
        body,
      }),
    meta: { errorKey: 'PASSWORD_CHANGE_FAILED' },
    onSuccess: () => {
      notifyMessage('settings.profile.password.changed');
      setCurrentPassword('');
      newPassword.clear();
    },
  });
  const valid = currentPassword !== '' && newPassword.valid;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (valid && !change.isPending) {
            change.mutate({ requiredPassword: currentPassword, newPassword: newPassword.password });
          }
        }}
      >
        <Stack gap="md">
          <Title order={2} size="h4" id={headingId}>
            {t('settings.profile.password.title')}
          </Title>
          <RequiredPasswordInput
            label={t('settings.profile.password.current')}
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.currentTarget.value)}
          />
          <NewPasswordFields state={newPassword} />
          <Button type="submit" disabled={!valid || change.isPending} loading={change.isPending}>
            {t('settings.profile.password.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
