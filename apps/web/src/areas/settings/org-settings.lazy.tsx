import { Button, Card, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { orgSettingsResponseSchema, TIMEZONES, type Timezone } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { orgContextKey } from '../../lib/org-context';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { NotPermitted } from '../../shell/not-permitted';
import { orgSettingsQuery } from './queries';
import { LoadFailed } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/org-settings')({
  component: OrgSettingsPage,
});

/** The current organisation's own settings: GLOBAL_SETTINGS_VIEW to see them, GLOBAL_SETTINGS_EDIT to change. */
function OrgSettingsPage() {
  const { t } = useTranslation();
  usePageTitle(t('nav.tabs.orgSettings'));
  const orgId = useCurrentOrgId();
  const canView = useHasPermission('GLOBAL_SETTINGS_VIEW');
  const settings = useQuery({ ...orgSettingsQuery(orgId ?? ''), enabled: Boolean(orgId) && canView });

  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>{t('nav.tabs.orgSettings')}</Title>
      {!canView ? (
        <NotPermitted />
      ) : settings.isPending ? (
        <Loader aria-label={t('app.loading')} />
      ) : settings.isError ? (
        <LoadFailed
          title={t('ORG_SETTINGS_LOAD_FAILED')}
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <OrgSettingsForm
          key={settings.data.emailTimezone}
          orgId={orgId ?? ''}
          emailTimezone={settings.data.emailTimezone}
          requireTwoFactor={settings.data.requireTwoFactor}
        />
      )}
    </Stack>
  );
}

function OrgSettingsForm({
  orgId,
  emailTimezone,
  requireTwoFactor,
}: {
  orgId: string;
  emailTimezone: Timezone;
  requireTwoFactor: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('GLOBAL_SETTINGS_EDIT');
  const [timezone, setTimezone] = useState<Timezone>(emailTimezone);
  const save = useMutation({
    mutationFn: (value: Timezone) =>
      apiFetch(`/api/org/${encodeURIComponent(orgId)}/global-settings`, {
        method: 'PUT',
        body: { emailTimezone: value },
        schema: orgSettingsResponseSchema,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(orgSettingsQuery(orgId).queryKey, saved);
      // The info panel's clock runs in this timezone.
      void queryClient.invalidateQueries({ queryKey: orgContextKey(orgId) });
      notifyMessage('settings.orgSettings.saved');
    },
  });

  return (
    <Card withBorder padding="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (timezone !== emailTimezone) save.mutate(timezone);
        }}
      >
        <Stack gap="md">
          <Select
            label={t('settings.orgSettings.emailTimezone')}
            description={t('settings.orgSettings.emailTimezoneHint')}
            data={TIMEZONES.map((zone) => ({ value: zone, label: t(`timezones.${zone}`) }))}
            value={timezone}
            allowDeselect={false}
            readOnly={!canEdit}
            onChange={(value) => {
              if (value) setTimezone(value as Timezone);
            }}
          />
          <Table variant="vertical" layout="fixed" withTableBorder={false}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={260}>{t('settings.orgSettings.requireTwoFactor')}</Table.Th>
                <Table.Td>{requireTwoFactor ? t('common.yes') : t('common.no')}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {canEdit ? (
            <Group>
              <Button type="submit" disabled={timezone === emailTimezone} loading={save.isPending}>
                {t('common.save')}
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('settings.orgSettings.readOnly')}
            </Text>
          )}
        </Stack>
      </form>
    </Card>
  );
}
