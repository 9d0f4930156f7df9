import { Card, Stack, Table, Title } from '@mantine/core';
import { createLazyRoute } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId, useCurrentUser } from '../../lib/session';
import { ChangePasswordForm } from './change-password-form';
import { PreferencesCard } from './preferences-card';
import { ProfileDetailsCard } from './profile-details-card';
import { TwoFactorCard } from './two-factor-card';

export const Route = createLazyRoute('/settings/profile')({
  component: ProfilePage,
});

function ProfilePage() {
  const { t } = useTranslation();
  usePageTitle(t('settings.profile.title'));
  const headingId = useId();
  const user = useCurrentUser();
  const orgId = useCurrentOrgId();
  // The route lets only signed-in users in; this covers the moment of signing out.
  if (!user || !orgId) return null;
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>{t('settings.profile.title')}</Title>
      <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
        <Stack gap="sm">
          <Title order={2} size="h4" id={headingId}>
            {t('settings.profile.account.title')}
          </Title>
          <Table variant="vertical" layout="fixed" withTableBorder={false}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={200}>{t('settings.profile.account.name')}</Table.Th>
                <Table.Td>{user.fullName}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('settings.profile.account.email')}</Table.Th>
                <Table.Td>{user.emails.map((entry) => entry.email).join(', ')}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Stack>
      </Card>
      <ProfileDetailsCard orgId={orgId} />
      <PreferencesCard />
      <TwoFactorCard user={user} />
      <ChangePasswordForm user={user} orgId={orgId} />
    </Stack>
  );
}
