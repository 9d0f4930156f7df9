import {
  Alert,
  Button,
  EmptyState,
  Group,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconDownload,
  IconFileUpload,
  IconFilterOff,
  IconPlus,
  IconSearch,
  IconServer,
  IconTrash,
  IconArrowRight,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import {
  ASSET_IMPORTANCE_FILTERS,
  ASSET_LAST_SEEN_WINDOW_DAYS,
  ASSET_TRACKED_FILTERS,
  assetDeleteSearchResponseSchema,
  type Asset,
  type AssetSortField,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { notifyMessage } from '../../lib/notify';
import { usePreferences } from '../../lib/preferences';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ActionIconLink, AnchorLink, ButtonLink } from '../../shell/links';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { SortableHeader } from '../../shell/sortable-header';
import { ImportanceDots, LabelBadges, TrackedBadge } from './asset-badges';
import { AssetDialog, useDateTime } from './asset-dialog';
import {
  assetLabelsQuery,
  assetListQuery,
  assetsDownQuery,
  assetsKey,
  orgPath,
  softwareNamesQuery,
} from './queries';
import {
  ANY_TIME,
  ASSET_STATUS_FILTERS,
  assetFilters,
  assetSearchParams,
  defaultLastSeenAfter,
  isFiltered,
  type AssetListSearch,
  type AssetStatusFilter,
} from './search';

export const Route = createLazyRoute('/assets')({
  component: AssetsPage,
});

/** Spec 2 section 2: the asset list. ASSET_VIEW to see it, ASSET_EDIT to change assets. */
function AssetsPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.entries.assets')} allowed={useHasPermission('ASSET_VIEW')}>
      <AssetList />
    </GatedPage>
  );
}

/** The list's columns; `minWidth` keeps badges whole when the table is narrow. */
const COLUMNS: { field: AssetSortField | null; label: string; minWidth?: number }[] = [
  { field: 'name', label: 'assets.fields.name', minWidth: 160 },
  { field: 'importance', label: 'assets.fields.importance' },
  { field: null, label: 'assets.fields.tracked', minWidth: 130 },
  { field: null, label: 'assets.fields.labels', minWidth: 170 },
  { field: 'tag', label: 'assets.fields.tag' },
  { field: 'owner', label: 'assets.fields.owner' },
  { field: null, label: 'assets.fields.addresses', minWidth: 150 },
  { field: 'lastSeen', label: 'assets.fields.lastSeen' },
  { field: 'dataLastSent', label: 'assets.fields.dataLastSent' },
  { field: 'modifiedOn', label: 'assets.fields.modifiedOn' },
  { field: 'createdOn', label: 'assets.fields.createdOn' },
];

/** Addresses shown in a list row before "+n more". */
const ROW_ADDRESSES = 2;

type Dialog = { asset: Asset | null } | null;

function AssetList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ASSET_EDIT');
  const { pageSize } = usePreferences();
  const queryClient = useQueryClient();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: '/assets' });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [confirmingDeleteAll, setConfirmingDeleteAll] = useState(false);

  /** Changes filters in the address; any change but paging starts again at the first page. */
  const update = (patch: Partial<AssetListSearch>, options: { replace?: boolean } = {}) =>
    void navigate({
      search: (previous) => ({ ...previous, page: undefined, ...patch }),
      replace: options.replace,
    });

  // The query box shows what is typed at once and writes it to the address once typing pauses.
  const [typed, setTyped] = useState(search.query ?? '');
  const [addressQuery, setAddressQuery] = useState(search.query);
  if (addressQuery !== search.query) {
    setAddressQuery(search.query);
    if ((search.query ?? '') !== typed.trim()) setTyped(search.query ?? '');
  }
  const writeQuery = useDebouncedCallback(
    (value: string) => update({ query: value.trim() || undefined }, { replace: true }),
    300,
  );

  const filters = assetFilters(search);
  const sortBy = search.sortBy ?? 'name';
  const desc = search.desc === true;
  const page = search.page ?? 1;
  const assets = useQuery({
    ...assetListQuery(orgId, { filters, sortBy, desc, pageSize, pageId: page - 1 }),
    placeholderData: keepPreviousData,
  });
  const labels = useQuery(assetLabelsQuery(orgId));
  const software = useQuery(softwareNamesQuery(orgId));
  const total = assets.data?.total ?? 0;

  const exportCsv = useMutation({
    mutationFn: async () => {
      const blob = await apiFetchFile(`${orgPath(orgId)}/assets/search`, {
        method: 'POST',
        body: { ...filters, sortBy, desc },
      });
      saveBlob(blob, 'assets.csv');
    },
    meta: { errorKey: 'assets.list.exportFailed' },
  });
  const deleteAll = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/assets/search?${assetSearchParams(filters)}`, {
        method: 'DELETE',
        schema: assetDeleteSearchResponseSchema,
      }),
    meta: { errorKey: 'assets.list.deleteAllFailed' },
    onSuccess: ({ deleted }) => {
      setConfirmingDeleteAll(false);
      notifyMessage('assets.list.deletedAll', 'green', { count: deleted });
      update({});
      void queryClient.invalidateQueries({ queryKey: assetsKey(orgId) });
    },
  });

  const toggleSort = (field: AssetSortField) => {
    const nextDesc = sortBy === field ? !desc : false;
    update({ sortBy: field === 'name' ? undefined : field, desc: nextDesc ? true : undefined });
  };
  const status = search.status ?? 'active';
  const labelOptions = [
    ...new Set([...(labels.data?.labels ?? []), ...(search.labels ? [search.labels] : [])]),
  ];
  const softwareOptions = [...new Set([...(software.data?.names ?? []), ...(search.softwareNames ?? [])])];
  const after = search.lastSeenAfter === ANY_TIME ? '' : (search.lastSeenAfter ?? defaultLastSeenAfter());
  const filtered = isFiltered(search);
  const format = useDateTime();

  return (
    <Stack gap="md">
      <AssetsDownNotice orgId={orgId} />

      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('assets.list.search')}
          placeholder={t('assets.list.searchPlaceholder')}
          leftSection={<IconSearch size={16} stroke={1.5} />}
          value={typed}
          onChange={(event) => {
            setTyped(event.currentTarget.value);
            writeQuery(event.currentTarget.value);
          }}
          w={320}
        />
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={exportCsv.isPending}
            onClick={() => exportCsv.mutate()}
          >
            {t('assets.list.export')}
          </Button>
          {canEdit && (
            <>
              {status === 'active' && (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  disabled={total === 0}
                  onClick={() => setConfirmingDeleteAll(true)}
                >
                  {t('assets.list.deleteAll')}
                </Button>
              )}
              <ButtonLink to="/asset-upload" variant="default" leftSection={<IconFileUpload size={16} />}>
                {t('assets.list.upload')}
              </ButtonLink>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ asset: null })}>
                {t('assets.list.add')}
              </Button>
            </>
          )}
        </Group>
      </Group>

      <Group align="flex-end" gap="sm">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="asset-status-filter">
            {t('assets.filters.status')}
          </Text>
          <SegmentedControl
            aria-labelledby="asset-status-filter"
            data={ASSET_STATUS_FILTERS.map((value) => ({
              value,
              label: t(`assets.filters.statuses.${value}`),
            }))}
            value={status}
            onChange={(value) =>
              update({ status: value === 'active' ? undefined : (value as AssetStatusFilter) })
            }
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="asset-tracked-filter">
            {t('assets.filters.tracked')}
          </Text>
          <SegmentedControl
            aria-labelledby="asset-tracked-filter"
            data={ASSET_TRACKED_FILTERS.map((value) => ({
              value,
              label: t(`assets.filters.trackedValues.${value}`),
            }))}
            value={search.tracked ?? 'both'}
            onChange={(value) =>
              update({ tracked: value === 'both' ? undefined : (value as AssetListSearch['tracked']) })
            }
          />
        </Stack>
        <Select
          label={t('assets.filters.importance')}
          data={ASSET_IMPORTANCE_FILTERS.map((value) => ({
            value,
            label: value === 'all' ? t('assets.filters.allImportances') : t(`assets.importance.${value}`),
          }))}
          value={search.importance ?? 'all'}
          allowDeselect={false}
          w={150}
          onChange={(value) =>
            update({
              importance:
                value === 'all' || value === null ? undefined : (value as AssetListSearch['importance']),
            })
          }
        />
        <Select
          label={t('assets.filters.label')}
          placeholder={t('assets.filters.anyLabel')}
          data={labelOptions}
          value={search.labels ?? null}
          searchable
          clearable
          nothingFoundMessage={t('assets.filters.noLabels')}
          w={190}
          onChange={(value) => update({ labels: value ?? undefined })}
        />
        <MultiSelect
          label={t('assets.filters.software')}
          placeholder={search.softwareNames?.length ? undefined : t('assets.filters.anySoftware')}
          data={softwareOptions}
          value={search.softwareNames ?? []}
          searchable
          clearable
          nothingFoundMessage={t('assets.filters.noSoftware')}
          miw={200}
          maw={360}
          onChange={(value) => update({ softwareNames: value.length > 0 ? value : undefined })}
        />
        <TextInput
          type="date"
          label={t('assets.filters.lastSeenAfter')}
          value={after}
          max={search.lastSeenBefore}
          w={170}
          onChange={(event) => {
            const value = event.currentTarget.value;
            update({ lastSeenAfter: value === '' ? ANY_TIME : value });
          }}
        />
        <TextInput
          type="date"
          label={t('assets.filters.lastSeenBefore')}
          value={search.lastSeenBefore ?? ''}
          min={after || undefined}
          w={170}
          onChange={(event) => update({ lastSeenBefore: event.currentTarget.value || undefined })}
        />
        {(filtered || search.lastSeenAfter === ANY_TIME) && (
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            onClick={() => {
              setTyped('');
              void navigate({ search: { sortBy: search.sortBy, desc: search.desc } });
            }}
          >
            {t('assets.filters.reset')}
          </Button>
        )}
      </Group>

      <ListStates
        query={assets}
        loadingLabel={t('assets.list.loading')}
        failedTitle={t('assets.list.loadFailed')}
        empty={
          <EmptyState
            icon={<IconServer size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t(
              filtered
                ? 'assets.list.emptyFilteredTitle'
                : search.lastSeenAfter === ANY_TIME
                  ? 'assets.list.emptyTitle'
                  : 'assets.list.emptyRecentTitle',
            )}
            description={t(
              filtered
                ? 'assets.list.emptyFiltered'
                : search.lastSeenAfter === ANY_TIME
                  ? 'assets.list.emptyMessage'
                  : 'assets.list.emptyRecent',
              { days: ASSET_LAST_SEEN_WINDOW_DAYS },
            )}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={1400}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {COLUMNS.map(({ field, label, minWidth }) =>
                      field === null ? (
                        <Table.Th key={label} style={{ minWidth }}>
                          {t(label)}
                        </Table.Th>
                      ) : (
                        <SortableHeader
                          key={field}
                          style={{ minWidth }}
                          sorted={sortBy === field}
                          desc={desc}
                          onSort={() => toggleSort(field)}
                        >
                          {t(label)}
                        </SortableHeader>
                      ),
                    )}
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((asset) => {
                    const addresses = asset.ipMacPairs
                      .flatMap((pair) => [pair.ip ?? pair.mac ?? ''])
                      .filter(Boolean);
                    return (
                      <Table.Tr
                        key={asset.id}
                        style={{ cursor: 'pointer' }}
                        onClick={() => setDialog({ asset })}
                      >
                        <Table.Td>
                          <UnstyledButton
                            onClick={(event) => {
                              event.stopPropagation();
                              setDialog({ asset });
                            }}
                            aria-label={t('assets.list.openNamed', { name: asset.name })}
                          >
                            <Text size="sm" fw={500} c="blue">
                              {asset.name}
                            </Text>
                          </UnstyledButton>
                          {asset.hostnames[0] && (
                            <Text size="xs" c="dimmed">
                              {asset.hostnames[0]}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <ImportanceDots importance={asset.importance} />
                        </Table.Td>
                        <Table.Td>
                          <TrackedBadge tracked={asset.tracked} />
                        </Table.Td>
                        <Table.Td>
                          <LabelBadges labels={asset.labels} />
                        </Table.Td>
                        <Table.Td>{asset.tag ?? '—'}</Table.Td>
                        <Table.Td>{asset.owner ?? '—'}</Table.Td>
                        <Table.Td>
                          <Text size="sm" ff="monospace">
                            {addresses.slice(0, ROW_ADDRESSES).join(', ') || '—'}
                          </Text>
                          {addresses.length > ROW_ADDRESSES && (
                            <Text size="xs" c="dimmed">
                              {t('assets.list.moreAddresses', { count: addresses.length - ROW_ADDRESSES })}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{format(asset.lastSeen)}</Table.Td>
                        <Table.Td>{format(asset.dataLastSent)}</Table.Td>
                        <Table.Td>{format(asset.modifiedOn)}</Table.Td>
                        <Table.Td>{format(asset.createdOn)}</Table.Td>
                        <Table.Td>
                          <Tooltip label={t('assets.list.detailsNamed', { name: asset.name })}>
                            <ActionIconLink
                              to="/assets/$assetId"
                              params={{ assetId: asset.id }}
                              variant="subtle"
                              aria-label={t('assets.list.detailsNamed', { name: asset.name })}
                              onClick={(event) => event.stopPropagation()}
                            >
                              <IconArrowRight size={16} />
                            </ActionIconLink>
                          </Tooltip>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              page={page}
              pageSize={pageSize}
              total={total}
              onChange={(next) => update({ page: next > 1 ? next : undefined })}
            />
          </>
        )}
      </ListStates>

      <AssetDialog opened={dialog !== null} asset={dialog?.asset ?? null} onClose={() => setDialog(null)} />
      <ConfirmDialog
        opened={confirmingDeleteAll}
        title={t('assets.list.deleteAllTitle', { count: total })}
        message={t('assets.list.deleteAllMessage', { count: total })}
        confirmLabel={t('assets.list.deleteAllConfirm')}
        loading={deleteAll.isPending}
        onCancel={() => setConfirmingDeleteAll(false)}
        onConfirm={() => deleteAll.mutate()}
      />
    </Stack>
  );
}

/** Names shown in the assets-down notice before "and n more". */
const DOWN_NAMES = 3;

/**
 * Spec 2 section 9: high-importance assets that sent no data for five minutes, named (the first few,
 * each a link to its details) with their count.
 */
function AssetsDownNotice({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const down = useQuery(assetsDownQuery(orgId));
  if (!down.data || down.data.items.length === 0) return null;
  const { items } = down.data;
  const total = Math.max(down.data.total, items.length);
  const shown = items.slice(0, DOWN_NAMES);
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title={t('assets.down.title', { count: total })}
    >
      <Text size="sm">
        {t('assets.down.message', { count: total })}{' '}
        {shown.map((asset, index) => (
          <span key={asset.id}>
            {index > 0 && ', '}
            <AnchorLink to="/assets/$assetId" params={{ assetId: asset.id }} size="sm">
              {asset.name}
            </AnchorLink>
          </span>
        ))}
        {total > shown.length && ` ${t('assets.down.more', { count: total - shown.length })}`}
      </Text>
    </Alert>
  );
}
