import {
  Badge,
  Button,
  EmptyState,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconShieldSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  threatSourceSchema,
  type ThreatDomain,
  type ThreatSource,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useHasSku } from '../../lib/org-context';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { IndicatorsDrawer } from './indicators-drawer';
import { SourceDialog } from './source-dialog';
import { threatSourcePath, threatSourcesKey, threatSourcesQuery } from './threat';
import { EditDeleteButtons } from '../../shell/row-actions';

/**
 * Threat match of the security domain (/threat) or the fraud domain (/fraud/threat, with the fraud
 * product): THREATMATCH_VIEW to see the sources and indicators, THREATMATCH_EDIT to change them.
 */
export function ThreatPage({ domain }: { domain: ThreatDomain }) {
  const { t } = useTranslation();
  const canView = useHasPermission('THREATMATCH_VIEW');
  const hasFraud = useHasSku('fraud');
  return (
    <GatedPage
      title={domain === 'fraud' ? t('threat.fraudTitle') : t('threat.title')}
      allowed={canView && (domain === 'security' || hasFraud)}
      maw={1200}
    >
      <SourceList domain={domain} />
    </GatedPage>
  );
}

function SourceList({ domain }: { domain: ThreatDomain }) {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('THREATMATCH_EDIT');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ThreatSource | null>(null);
  const [opened, setOpened] = useState<ThreatSource | null>(null);
  const [deleting, setDeleting] = useState<ThreatSource | null>(null);
  const list = useQuery(
    threatSourcesQuery(orgId, domain, { search: debouncedSearch, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: threatSourcesKey(orgId) });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(threatSourcePath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('threat.sources.deleted');
      await refresh();
    },
    meta: { errorKey: 'threat.sources.deleteFailed' },
  });
  const toggle = useMutation({
    mutationFn: ({
      source,
      what,
      on,
    }: {
      source: ThreatSource;
      what: 'subscription' | 'enabled';
      on: boolean;
    }) =>
      apiFetch(`${threatSourcePath(orgId, source.id)}/${what}`, {
        method: 'PUT',
        body: what === 'subscription' ? { subscribed: on } : { enabled: on },
        schema: threatSourceSchema,
      }),
    onSuccess: refresh,
    meta: { errorKey: 'threat.sources.toggleFailed' },
  });
  const busy = (source: ThreatSource, what: 'subscription' | 'enabled') =>
    toggle.isPending && toggle.variables.source.id === source.id && toggle.variables.what === what;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('threat.sources.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPageNumber(1);
          }}
          w={320}
        />
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('threat.sources.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('threat.sources.loading')}
        failedTitle={t('threat.sources.loadFailed')}
        empty={
          <EmptyState
            icon={<IconShieldSearch size={32} stroke={1.5} />}
            withIndicatorBackground
            title={debouncedSearch ? t('threat.sources.noMatchTitle') : t('threat.sources.emptyTitle')}
            description={
              debouncedSearch ? t('threat.sources.noMatchMessage') : t('threat.sources.emptyMessage')
            }
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('threat.sources.name')}</Table.Th>
                    <Table.Th>{t('threat.sources.type')}</Table.Th>
                    <Table.Th>{t('threat.sources.indicators')}</Table.Th>
                    <Table.Th>{t('threat.sources.subscribed')}</Table.Th>
                    <Table.Th>{t('threat.sources.enabled')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((source) => (
                    <Table.Tr key={source.id}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text size="sm" fw={500}>
                            {source.name}
                          </Text>
                          {source.provider && (
                            <Badge size="xs" variant="light">
                              {t('threat.sources.provider')}
                            </Badge>
                          )}
                        </Group>
                        {source.description && (
                          <Text size="xs" c="dimmed" lineClamp={1}>
                            {source.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{t(`threat.sources.types.${source.type}`)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{source.indicatorCount.toLocaleString(i18n.language)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Switch
                          aria-label={t('threat.sources.subscribedNamed', { name: source.name })}
                          checked={source.subscribed}
                          disabled={!canEdit || !source.provider || busy(source, 'subscription')}
                          onChange={(event) =>
                            toggle.mutate({ source, what: 'subscription', on: event.currentTarget.checked })
                          }
                        />
                      </Table.Td>
                      <Table.Td>
                        <Switch
                          aria-label={t('threat.sources.enabledNamed', { name: source.name })}
                          checked={source.enabled}
                          disabled={!canEdit || !source.editable || busy(source, 'enabled')}
                          onChange={(event) =>
                            toggle.mutate({ source, what: 'enabled', on: event.currentTarget.checked })
                          }
                        />
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            aria-label={t('threat.sources.openNamed', { name: source.name })}
                            onClick={() => setOpened(source)}
                          >
                            {t('threat.sources.open')}
                          </Button>
                          {canEdit && source.editable && (
                            <>
                              <EditDeleteButtons
                                editLabel={t('threat.sources.editNamed', { name: source.name })}
                                deleteLabel={t('threat.sources.deleteNamed', { name: source.name })}
                                deleteText={t('threat.sources.delete')}
                                onEdit={() => setEditing(source)}
                                onDelete={() => setDeleting(source)}
                              />
                            </>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {(creating || editing) && (
        <SourceDialog
          orgId={orgId}
          domain={domain}
          source={editing}
          onClose={() => {
            setCreating(false);
            setEditing(null);
          }}
        />
      )}
      {opened && (
        <IndicatorsDrawer
          orgId={orgId}
          source={opened}
          canEdit={canEdit && opened.editable}
          onClose={() => setOpened(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('threat.sources.deleteTitle')}
        message={t('threat.sources.deleteMessage', {
          name: deleting?.name ?? '',
          count: deleting?.indicatorCount ?? 0,
        })}
        confirmLabel={t('threat.sources.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
