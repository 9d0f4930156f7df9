import {
  Badge,
  Button,
  EmptyState,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconBuildingPlus, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { isProviderAdmin, type ManagedOrg } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavContext, useOrgContextQuery } from '../../lib/org-context';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId } from '../../lib/session';
import { NotPermitted } from '../../shell/not-permitted';
import { ManagedOrgForm } from './managed-org-form';
import { managedOrgsQuery } from './queries';
import { LoadFailed, LoadingLine } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/organisations')({
  component: OrganisationsPage,
});

/** Provider administrators: every organisation, with its products, mode, flags and contact. */
function OrganisationsPage() {
  const { t } = useTranslation();
  usePageTitle(t('nav.tabs.organisations'));
  const context = useOrgContextQuery();
  const allowed = isProviderAdmin(useNavContext());

  return (
    <Stack gap="lg">
      <Title order={1}>{t('nav.tabs.organisations')}</Title>
      {context.isPending ? (
        <Loader aria-label={t('app.loading')} />
      ) : allowed ? (
        <ManagedOrgs />
      ) : (
        <NotPermitted />
      )}
    </Stack>
  );
}

type Editing = { org: ManagedOrg | null } | null;

function ManagedOrgs() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const orgs = useQuery(managedOrgsQuery(orgId));
  const [editing, setEditing] = useState<Editing>(null);
  const createButton = (
    <Button leftSection={<IconPlus size={16} stroke={1.5} />} onClick={() => setEditing({ org: null })}>
      {t('settings.organisations.create')}
    </Button>
  );

  return (
    <>
      {orgs.isPending ? (
        <LoadingLine label={t('settings.organisations.loading')} />
      ) : orgs.isError ? (
        <LoadFailed
          title={t('settings.organisations.loadFailed')}
          error={orgs.error}
          onRetry={() => void orgs.refetch()}
        />
      ) : orgs.data.items.length === 0 ? (
        <EmptyState
          icon={<IconBuildingPlus size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('settings.organisations.emptyTitle')}
          description={t('settings.organisations.emptyMessage')}
        >
          <EmptyState.Actions>{createButton}</EmptyState.Actions>
        </EmptyState>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('settings.organisations.count', { count: orgs.data.total })}
            </Text>
            {createButton}
          </Group>
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settings.organisations.name')}</Table.Th>
                  <Table.Th>{t('settings.organisations.products')}</Table.Th>
                  <Table.Th>{t('settings.organisations.managementMode')}</Table.Th>
                  <Table.Th>{t('settings.organisations.twoFactor')}</Table.Th>
                  <Table.Th>{t('settings.organisations.csm')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {orgs.data.items.map((org) => (
                  <Table.Tr key={org.id}>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm" fw={500}>
                          {org.name}
                        </Text>
                        {org.isProvider && (
                          <Badge size="xs" variant="light">
                            {t('settings.organisations.provider')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {org.productSkus.length === 0 ? (
                          <Text size="sm" c="dimmed">
                            {t('settings.organisations.noProducts')}
                          </Text>
                        ) : (
                          org.productSkus.map((sku) => (
                            <Badge key={sku} size="sm" variant="outline">
                              {t(`productSkus.${sku}`)}
                            </Badge>
                          ))
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{t(`managementModes.${org.managementMode}`)}</Table.Td>
                    <Table.Td>{org.requireTwoFactor ? t('common.required') : t('common.optional')}</Table.Td>
                    <Table.Td>
                      {org.csmName || org.csmEmailAddress ? (
                        <Stack gap={0}>
                          {org.csmName && <Text size="sm">{org.csmName}</Text>}
                          {org.csmEmailAddress && (
                            <Text size="xs" c="dimmed">
                              {org.csmEmailAddress}
                            </Text>
                          )}
                        </Stack>
                      ) : (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={t('settings.organisations.editNamed', { name: org.name })}
                        onClick={() => setEditing({ org })}
                      >
                        {t('common.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing?.org
            ? t('settings.organisations.editTitle', { name: editing.org.name })
            : t('settings.organisations.createTitle')
        }
        size="xl"
      >
        {editing && (
          <ManagedOrgForm
            key={editing.org?.id ?? 'new'}
            orgId={orgId}
            org={editing.org}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}
