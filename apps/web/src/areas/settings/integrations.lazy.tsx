import { Button, Code, EmptyState, Group, Stack, Table, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  INTEGRATION_KINDS,
  integrationSchema,
  type Integration,
  type IntegrationKind,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListStates } from '../../shell/query-status';
import { IntegrationForm } from './integration-form';
import { integrationPath, integrationsKey, integrationsQuery } from './integration-queries';
import { IntegrationStatusBadge, useDateTime } from './integration-status';
import { LogSourcesDrawer } from './log-sources';

// Spec 2 section 2: /settings/integrations with variants for the cloud accounts and the
// customer-relationship platform; each variant opens on its own tab.
export const Route = createLazyRoute('/settings/integrations')({
  component: () => <IntegrationsPage initial="AWS" />,
});
export const AzureRoute = createLazyRoute('/settings/integrations/azure')({
  component: () => <IntegrationsPage initial="AZURE" />,
});
export const SalesforceRoute = createLazyRoute('/settings/integrations/salesforce')({
  component: () => <IntegrationsPage initial="CRM" />,
});

/** Integrations (spec 2): INTEGRATION_VIEW to see them, INTEGRATION_EDIT to add, change and delete. */
function IntegrationsPage({ initial }: { initial: IntegrationKind }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<IntegrationKind>(initial);
  return (
    <GatedPage
      title={t('settings.integrations.title')}
      allowed={useHasPermission('INTEGRATION_VIEW')}
      maw={1200}
    >
      <Tabs value={kind} onChange={(value) => value && setKind(value as IntegrationKind)} keepMounted={false}>
        <Tabs.List aria-label={t('settings.integrations.tabsLabel')}>
          {INTEGRATION_KINDS.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`settings.integrations.kinds.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {INTEGRATION_KINDS.map((tab) => (
          <Tabs.Panel key={tab} value={tab} pt="md">
            <IntegrationList kind={tab} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </GatedPage>
  );
}

/** The settings a row shows of each kind (never a secret). */
function details(integration: Integration): string {
  const settings = integration.settings as Record<string, string | undefined>;
  switch (integration.kind) {
    case 'AWS':
      return settings.accountId ?? '';
    case 'AZURE':
      return `${settings.subscriptionId ?? ''} · ${settings.storageAccount ?? ''}`;
    case 'CRM':
      return settings.instanceUrl ?? '';
    case 'APITURE':
    case 'FINXACT':
      return settings.url ?? '';
    case 'ENTRA_ID':
      return settings.tenantId ?? '';
  }
}

function IntegrationList({ kind }: { kind: IntegrationKind }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('INTEGRATION_EDIT');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const list = useQuery(integrationsQuery(orgId, kind));
  const [editing, setEditing] = useState<Integration | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [sourcesOf, setSourcesOf] = useState<Integration | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: integrationsKey(orgId) });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(integrationPath(orgId, id), { method: 'DELETE' }),
    meta: { errorKey: 'settings.integrations.deleteFailed' },
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('settings.integrations.deleted');
      await invalidate();
    },
  });
  const validate = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${integrationPath(orgId, id)}/validate`, { method: 'POST', schema: integrationSchema }),
    onSuccess: () => notifyMessage('settings.integrations.validated'),
    onSettled: invalidate,
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t(`settings.integrations.intro.${kind}`)}
        </Text>
        {canEdit && (
          <Button leftSection={<IconPlugConnected size={16} />} onClick={() => setEditing('new')}>
            {t('settings.integrations.add')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('settings.integrations.loading')}
        failedTitle={t('settings.integrations.loadFailed')}
        empty={
          <EmptyState
            icon={<IconPlugConnected size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('settings.integrations.emptyTitle')}
            description={t('settings.integrations.emptyMessage')}
          />
        }
      >
        {(data) => (
          <Table.ScrollContainer minWidth={760}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settings.integrations.columns.name')}</Table.Th>
                  <Table.Th>{t('settings.integrations.columns.details')}</Table.Th>
                  <Table.Th>{t('settings.integrations.columns.status')}</Table.Th>
                  <Table.Th>{t('settings.integrations.columns.lastData')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((integration) => (
                  <Table.Tr key={integration.id}>
                    <Table.Td>{integration.name}</Table.Td>
                    <Table.Td>
                      <Code>{details(integration)}</Code>
                      {integration.kind === 'AWS' && (
                        <Text size="xs" c="dimmed">
                          {t(
                            `settings.integrations.integrationTypes.${String(integration.settings.integrationType)}`,
                          )}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <IntegrationStatusBadge status={integration.status} />
                      {integration.lastError && (
                        <Text size="xs" c="red">
                          {integration.lastError}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {dateTime(integration.lastDataAt) ?? t('settings.integrations.never')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        {kind === 'AWS' && (
                          <Button
                            size="compact-sm"
                            variant="light"
                            aria-label={t('settings.integrations.logSources.openNamed', {
                              name: integration.name,
                            })}
                            onClick={() => setSourcesOf(integration)}
                          >
                            {t('settings.integrations.logSources.open')}
                          </Button>
                        )}
                        {canEdit && kind === 'ENTRA_ID' && (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            loading={validate.isPending && validate.variables === integration.id}
                            aria-label={t('settings.integrations.validateNamed', { name: integration.name })}
                            onClick={() => validate.mutate(integration.id)}
                          >
                            {t('settings.integrations.validate')}
                          </Button>
                        )}
                        {canEdit && (
                          <>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('settings.integrations.editNamed', { name: integration.name })}
                              onClick={() => setEditing(integration)}
                            >
                              {t('settings.integrations.edit')}
                            </Button>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('settings.integrations.deleteNamed', { name: integration.name })}
                              onClick={() => setDeleting(integration)}
                            >
                              {t('settings.integrations.delete')}
                            </Button>
                          </>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ListStates>
      {editing && (
        <IntegrationForm
          orgId={orgId}
          kind={kind}
          integration={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {sourcesOf && <LogSourcesDrawer orgId={orgId} account={sourcesOf} onClose={() => setSourcesOf(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.integrations.deleteTitle')}
        message={t('settings.integrations.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('settings.integrations.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
