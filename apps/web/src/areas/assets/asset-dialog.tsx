import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Tabs,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconGitMerge, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ASSET_DESCRIPTION_MAX_LENGTH,
  ASSET_HOSTNAME_MAX_LENGTH,
  ASSET_IMPORTANCES,
  ASSET_LABEL_MAX_LENGTH,
  ASSET_LIST_MAX_ITEMS,
  ASSET_NAME_MAX_LENGTH,
  ASSET_TEXT_MAX_LENGTH,
  assetListResponseSchema,
  assetSchema,
  ipMacPairErrors,
  isIpAddress,
  isPrivateAddress,
  SUGGESTED_ASSET_LABELS,
  type Asset,
  type AssetImportance,
  type AssetInput,
  type IpMacPairError,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { LoadingLine } from '../../shell/query-status';
import { assetLabelsQuery, assetPath, assetSoftwareQuery, assetsKey, orgPath } from './queries';
import { assetSearchParams } from './search';

export interface AssetDialogProps {
  opened: boolean;
  /** The saved asset to show, or null to add one. */
  asset: Asset | null;
  onClose: () => void;
  /** After the asset was deleted or merged away, for pages that show only this asset. */
  onGone?: () => void;
}

/**
 * The asset add/edit dialog (spec 2 sections 2, 4 and 5): tabs Info, IP/MAC and, for a saved asset,
 * Software. Editing is on at once for a new or untracked asset; a saved tracked asset has an edit
 * toggle, shown only with ASSET_EDIT. Without ASSET_EDIT everything is read-only.
 */
export function AssetDialog({ opened, asset, onClose, onGone }: AssetDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      title={asset ? asset.name : t('assets.dialog.addTitle')}
    >
      {opened && <AssetForm key={asset?.id ?? 'new'} asset={asset} onClose={onClose} onGone={onGone} />}
    </Modal>
  );
}

type Tab = 'info' | 'addresses' | 'software';

interface PairRow {
  key: number;
  ip: string;
  mac: string;
}

interface HostnameRow {
  key: number;
  value: string;
}

interface FormValues {
  name: string;
  importance: AssetImportance | null;
  tag: string;
  owner: string;
  description: string;
  labels: string[];
  hostnames: HostnameRow[];
  pairs: PairRow[];
}

let lastRowKey = 0;
const rowKey = () => ++lastRowKey;

function formValues(asset: Asset | null): FormValues {
  return {
    name: asset?.name ?? '',
    importance: asset?.importance ?? null,
    tag: asset?.tag ?? '',
    owner: asset?.owner ?? '',
    description: asset?.description ?? '',
    labels: asset?.labels ?? [],
    hostnames: (asset?.hostnames ?? []).map((value) => ({ key: rowKey(), value })),
    pairs: (asset?.ipMacPairs ?? []).map((pair) => ({
      key: rowKey(),
      ip: pair.ip ?? '',
      mac: pair.mac ?? '',
    })),
  };
}

/** Spec 2 section 5: labels are trimmed; empty ones and repeats are dropped. */
export function normaliseLabels(labels: string[]): string[] {
  return [...new Set(labels.map((label) => label.trim()).filter((label) => label !== ''))];
}

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

function assetInput(values: FormValues): AssetInput {
  return {
    name: values.name.trim(),
    importance: values.importance ?? 'none',
    tag: blankToNull(values.tag),
    owner: blankToNull(values.owner),
    description: blankToNull(values.description),
    labels: normaliseLabels(values.labels),
    hostnames: values.hostnames.map((row) => row.value.trim()),
    ipMacPairs: values.pairs.map((pair) => ({ ip: blankToNull(pair.ip), mac: blankToNull(pair.mac) })),
  };
}

/** Where a server error's `field` shows: a field of the Info tab, or an address of the IP/MAC tab. */
function fieldTab(field: string): Tab | null {
  if (/^ipMacPairs\.\d+\.(ip|mac)$/.test(field)) return 'addresses';
  if (/^hostnames\.\d+$/.test(field)) return 'info';
  return ['name', 'importance', 'tag', 'owner', 'description', 'labels'].includes(field) ? 'info' : null;
}

function AssetForm({ asset, onClose, onGone }: Omit<AssetDialogProps, 'opened'>) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('ASSET_EDIT');
  const labels = useQuery({ ...assetLabelsQuery(orgId), enabled: orgId !== '' });
  const [tab, setTab] = useState<Tab>('info');
  // Spec 2 section 4: editing starts on for a new or untracked asset; a tracked one is toggled.
  const [editing, setEditing] = useState(asset === null || !asset.tracked);
  const [values, setValues] = useState(() => formValues(asset));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<'delete' | null>(null);
  const [merging, setMerging] = useState(false);
  const readOnly = !canEdit || !editing || asset?.active === false;

  const touch = (field: string) => () =>
    setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));
  const change = (patch: Partial<FormValues>, ...fields: string[]) => {
    setValues((current) => ({ ...current, ...patch }));
    if (fields.some((field) => field in serverErrors)) {
      setServerErrors((current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => !fields.includes(field))),
      );
    }
  };
  // Adding or removing a row renumbers the pairs and hostnames, and so the fields the server named.
  const changeRows = (patch: Partial<FormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setServerErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([field]) => fieldTab(field) !== 'addresses')),
    );
  };

  const nameProblem = values.name.trim() === '';
  const importanceProblem = values.importance === null;
  const hostnameProblems = values.hostnames.map((row) => row.value.trim() === '');
  const pairProblems = values.pairs.map((pair) => ipMacPairErrors(pair));
  const valid =
    !nameProblem &&
    !importanceProblem &&
    !hostnameProblems.some(Boolean) &&
    pairProblems.every((problems) => problems.length === 0);
  const shown = (field: string, problem: boolean, key: string) =>
    serverErrors[field] ?? (problem && touched.has(field) ? t(key) : undefined);
  const pairError = (index: number, key: number, part: 'ip' | 'mac') => {
    const server = serverErrors[`ipMacPairs.${index}.${part}`];
    if (server) return server;
    const problems = pairProblems[index] ?? [];
    const own: IpMacPairError[] = part === 'ip' ? ['ipOrMacRequired', 'badIp'] : ['badMac'];
    const problem = problems.find((code) => own.includes(code));
    return problem && touched.has(`pair.${key}`) ? t(`assets.errors.${problem}`) : undefined;
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: assetsKey(orgId) });

  const save = useMutation({
    mutationFn: (input: AssetInput) =>
      apiFetch(asset ? assetPath(orgId, asset.id) : `${orgPath(orgId)}/asset`, {
        method: asset ? 'PUT' : 'POST',
        body: input,
        schema: assetSchema,
      }),
    meta: { notifyError: false },
    onSuccess: () => {
      notifyMessage(asset ? 'assets.dialog.saved' : 'assets.dialog.created');
      void invalidate();
      onClose();
    },
    // DESIGN section 4: an error naming a field shows beside it (an address in use on the IP/MAC tab);
    // any other failure is a notification.
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.error.field : undefined;
      const fieldsTab = field === undefined ? null : fieldTab(field);
      if (error instanceof ApiRequestError && field !== undefined && fieldsTab !== null) {
        setServerErrors({ [field]: errorMessage(error.error, t) });
        setTab(fieldsTab);
      } else {
        notifyError(error, 'ERROR_SAVING_ASSET');
      }
    },
  });

  const remove = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${orgPath(orgId)}/assets?assetId=${encodeURIComponent(id)}`, { method: 'DELETE' }),
    meta: { errorKey: 'assets.dialog.deleteFailed' },
    onSuccess: () => {
      notifyMessage('assets.dialog.deleted');
      setConfirming(null);
      void invalidate();
      onClose();
      onGone?.();
    },
  });

  const labelOptions = [
    ...new Set([...(labels.data?.suggested ?? SUGGESTED_ASSET_LABELS), ...(labels.data?.labels ?? [])]),
  ];
  const stopEditing = () => {
    setEditing(false);
    setValues(formValues(asset));
    setTouched(new Set());
    setServerErrors({});
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!readOnly && valid) save.mutate(assetInput(values));
      }}
    >
      <Stack gap="md">
        {asset?.active === false && (
          <Alert color="gray" title={t('assets.dialog.deletedTitle')}>
            {t('ASSET_DELETED')}
          </Alert>
        )}
        <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'info')}>
          <Group justify="space-between" wrap="nowrap" align="flex-end">
            <Tabs.List style={{ flex: 1 }}>
              <Tabs.Tab value="info">{t('assets.dialog.tabs.info')}</Tabs.Tab>
              <Tabs.Tab value="addresses">{t('assets.dialog.tabs.addresses')}</Tabs.Tab>
              {asset && <Tabs.Tab value="software">{t('assets.dialog.tabs.software')}</Tabs.Tab>}
            </Tabs.List>
            {asset?.tracked && asset.active && canEdit && (
              <Tooltip label={editing ? t('assets.dialog.stopEditing') : t('assets.dialog.edit')}>
                <ActionIcon
                  variant={editing ? 'light' : 'subtle'}
                  aria-label={editing ? t('assets.dialog.stopEditing') : t('assets.dialog.edit')}
                  aria-pressed={editing}
                  onClick={() => (editing ? stopEditing() : setEditing(true))}
                >
                  {editing ? <IconX size={18} /> : <IconPencil size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </Group>

          <Tabs.Panel value="info" pt="md">
            <Stack gap="sm">
              <TextInput
                label={t('assets.fields.name')}
                required
                readOnly={readOnly}
                maxLength={ASSET_NAME_MAX_LENGTH}
                data-autofocus
                value={values.name}
                error={shown('name', nameProblem, 'ERROR_REQUIRED')}
                onBlur={touch('name')}
                onChange={(event) => change({ name: event.currentTarget.value }, 'name')}
              />
              <Select
                label={t('assets.fields.importance')}
                required
                readOnly={readOnly}
                data={ASSET_IMPORTANCES.map((value) => ({ value, label: t(`assets.importance.${value}`) }))}
                value={values.importance}
                allowDeselect={false}
                placeholder={t('assets.dialog.chooseImportance')}
                error={shown('importance', importanceProblem, 'ERROR_REQUIRED')}
                onBlur={touch('importance')}
                onChange={(value) =>
                  change({ importance: (value as AssetImportance | null) ?? null }, 'importance')
                }
              />
              <Group grow align="flex-start">
                <TextInput
                  label={t('assets.fields.tag')}
                  readOnly={readOnly}
                  maxLength={ASSET_TEXT_MAX_LENGTH}
                  value={values.tag}
                  error={serverErrors.tag}
                  onChange={(event) => change({ tag: event.currentTarget.value }, 'tag')}
                />
                <TextInput
                  label={t('assets.fields.owner')}
                  readOnly={readOnly}
                  maxLength={ASSET_TEXT_MAX_LENGTH}
                  value={values.owner}
                  error={serverErrors.owner}
                  onChange={(event) => change({ owner: event.currentTarget.value }, 'owner')}
                />
              </Group>
              <Textarea
                label={t('assets.fields.description')}
                readOnly={readOnly}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={ASSET_DESCRIPTION_MAX_LENGTH}
                value={values.description}
                error={serverErrors.description}
                onChange={(event) => change({ description: event.currentTarget.value }, 'description')}
              />
              <TagsInput
                label={t('assets.fields.labels')}
                description={readOnly ? undefined : t('assets.dialog.labelsHint')}
                readOnly={readOnly}
                data={labelOptions}
                value={values.labels}
                maxTags={ASSET_LIST_MAX_ITEMS}
                maxLength={ASSET_LABEL_MAX_LENGTH}
                placeholder={readOnly ? undefined : t('assets.dialog.addLabel')}
                error={serverErrors.labels}
                onChange={(labelValues) => change({ labels: normaliseLabels(labelValues) }, 'labels')}
                // Enter adds a label; on a blank label it must not save the whole form instead.
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && event.currentTarget.value.trim() === '')
                    event.preventDefault();
                }}
              />
              <Stack gap={6}>
                <Text size="sm" fw={500}>
                  {t('assets.fields.hostnames')}
                </Text>
                {values.hostnames.length === 0 && (
                  <Text size="sm" c="dimmed">
                    {t('assets.dialog.noHostnames')}
                  </Text>
                )}
                {values.hostnames.map((row, index) => (
                  <Group key={row.key} gap="xs" align="flex-start" wrap="nowrap">
                    <TextInput
                      style={{ flex: 1 }}
                      aria-label={t('assets.dialog.hostnameNumbered', { number: index + 1 })}
                      readOnly={readOnly}
                      maxLength={ASSET_HOSTNAME_MAX_LENGTH}
                      value={row.value}
                      error={
                        serverErrors[`hostnames.${index}`] ??
                        (hostnameProblems[index] && touched.has(`hostname.${row.key}`)
                          ? t('assets.errors.hostnameRequired')
                          : undefined)
                      }
                      onBlur={touch(`hostname.${row.key}`)}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        change(
                          {
                            hostnames: values.hostnames.map((item) =>
                              item.key === row.key ? { ...item, value } : item,
                            ),
                          },
                          `hostnames.${index}`,
                        );
                      }}
                    />
                    {!readOnly && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        mt={6}
                        aria-label={t('assets.dialog.removeHostname', { number: index + 1 })}
                        onClick={() =>
                          changeRows({ hostnames: values.hostnames.filter((item) => item.key !== row.key) })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                ))}
                {!readOnly && values.hostnames.length < ASSET_LIST_MAX_ITEMS && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    leftSection={<IconPlus size={14} />}
                    style={{ alignSelf: 'flex-start' }}
                    onClick={() =>
                      changeRows({ hostnames: [...values.hostnames, { key: rowKey(), value: '' }] })
                    }
                  >
                    {t('assets.dialog.addHostname')}
                  </Button>
                )}
              </Stack>
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="addresses" pt="md">
            <Stack gap={6}>
              {values.pairs.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('assets.dialog.noPairs')}
                </Text>
              )}
              {values.pairs.map((pair, index) => {
                const ip = pair.ip.trim();
                return (
                  <Group key={pair.key} gap="xs" align="flex-start" wrap="nowrap">
                    <TextInput
                      style={{ flex: 1 }}
                      label={index === 0 ? t('assets.fields.ip') : undefined}
                      aria-label={t('assets.dialog.ipNumbered', { number: index + 1 })}
                      readOnly={readOnly}
                      maxLength={64}
                      value={pair.ip}
                      error={pairError(index, pair.key, 'ip')}
                      onBlur={touch(`pair.${pair.key}`)}
                      rightSectionWidth={70}
                      rightSection={
                        isIpAddress(ip) && isPrivateAddress(ip) ? (
                          <Badge size="xs" variant="light" color="gray">
                            {t('assets.private')}
                          </Badge>
                        ) : undefined
                      }
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        change(
                          {
                            pairs: values.pairs.map((item) =>
                              item.key === pair.key ? { ...item, ip: value } : item,
                            ),
                          },
                          `ipMacPairs.${index}.ip`,
                        );
                      }}
                    />
                    <TextInput
                      style={{ flex: 1 }}
                      label={index === 0 ? t('assets.fields.mac') : undefined}
                      aria-label={t('assets.dialog.macNumbered', { number: index + 1 })}
                      readOnly={readOnly}
                      maxLength={32}
                      value={pair.mac}
                      error={pairError(index, pair.key, 'mac')}
                      onBlur={touch(`pair.${pair.key}`)}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        change(
                          {
                            pairs: values.pairs.map((item) =>
                              item.key === pair.key ? { ...item, mac: value } : item,
                            ),
                          },
                          `ipMacPairs.${index}.mac`,
                        );
                      }}
                    />
                    {!readOnly && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        mt={index === 0 ? 30 : 6}
                        aria-label={t('assets.dialog.removePair', { number: index + 1 })}
                        onClick={() =>
                          changeRows({ pairs: values.pairs.filter((item) => item.key !== pair.key) })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                );
              })}
              {!readOnly && values.pairs.length < ASSET_LIST_MAX_ITEMS && (
                <Button
                  variant="subtle"
                  size="compact-sm"
                  leftSection={<IconPlus size={14} />}
                  style={{ alignSelf: 'flex-start' }}
                  onClick={() => changeRows({ pairs: [...values.pairs, { key: rowKey(), ip: '', mac: '' }] })}
                >
                  {t('assets.dialog.addPair')}
                </Button>
              )}
            </Stack>
          </Tabs.Panel>

          {asset && (
            <Tabs.Panel value="software" pt="md">
              {tab === 'software' && <AssetSoftwareTable orgId={orgId} assetId={asset.id} />}
            </Tabs.Panel>
          )}
        </Tabs>

        {merging && asset && (
          <MergePanel
            orgId={orgId}
            asset={asset}
            onCancel={() => setMerging(false)}
            onMerged={onGone}
            onClose={onClose}
          />
        )}

        <Group justify="space-between">
          <Group gap="xs">
            {asset && asset.active && canEdit && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setConfirming('delete')}
              >
                {t('assets.dialog.delete')}
              </Button>
            )}
            {asset && asset.active && !asset.tracked && canEdit && !merging && (
              <Button
                variant="subtle"
                leftSection={<IconGitMerge size={16} />}
                onClick={() => setMerging(true)}
              >
                {t('assets.merge.open')}
              </Button>
            )}
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {readOnly ? t('assets.dialog.close') : t('common.cancel')}
            </Button>
            {!readOnly && (
              <Button type="submit" disabled={!valid} loading={save.isPending}>
                {asset ? t('common.save') : t('assets.dialog.add')}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming === 'delete'}
        title={t('assets.dialog.deleteTitle', { name: asset?.name ?? '' })}
        message={t('assets.dialog.deleteMessage')}
        confirmLabel={t('assets.dialog.delete')}
        loading={remove.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (asset) remove.mutate(asset.id);
        }}
      />
    </form>
  );
}

/** An asset's software, read-only; a failure to load says ERROR_LOADING_SOFTWARE (as a notification). */
export function AssetSoftwareTable({ orgId, assetId }: { orgId: string; assetId: string }) {
  const { t } = useTranslation();
  const software = useQuery(assetSoftwareQuery(orgId, assetId));
  const format = useDateTime();
  if (software.isPending) return <LoadingLine label={t('assets.software.loading')} />;
  if (software.isError) {
    return (
      <Text size="sm" c="red">
        {t('ERROR_LOADING_SOFTWARE')}
      </Text>
    );
  }
  if (software.data.items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('assets.software.empty')}
      </Text>
    );
  }
  return <SoftwareList items={software.data.items} format={format} />;
}

/** Software rows: name, version and when each was last seen. */
function SoftwareList({
  items,
  format,
}: {
  items: { name: string; version: string | null; lastSeen: string | null }[];
  format: (value: string | null) => string;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('assets.software.name')}</Table.Th>
            <Table.Th>{t('assets.software.version')}</Table.Th>
            <Table.Th>{t('assets.software.lastSeen')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={`${item.name}\u0000${item.version ?? ''}`}>
              <Table.Td>{item.name}</Table.Td>
              <Table.Td>{item.version ?? '—'}</Table.Td>
              <Table.Td>{format(item.lastSeen)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Formats an API time for people: medium date and short time; "Never" for none. */
export function useDateTime(): (value: string | null) => string {
  const { t, i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (value) => (value ? format.format(new Date(value)) : t('assets.never'));
}

const MERGE_CHOICES = 20;

/** Spec 2 section 4: an untracked asset is merged into a tracked one, chosen by a search. */
function MergePanel({
  orgId,
  asset,
  onCancel,
  onMerged,
  onClose,
}: {
  orgId: string;
  asset: Asset;
  onCancel: () => void;
  onMerged?: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const candidates = useQuery({
    queryKey: [...assetsKey(orgId), 'merge-candidates', debounced] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${orgPath(orgId)}/assets/search?${assetSearchParams(
          { tracked: 'tracked', active: true, importance: 'all', ...(debounced && { query: debounced }) },
          { sortBy: 'name', desc: false },
          { pageSize: MERGE_CHOICES, pageId: 0 },
        )}`,
        { schema: assetListResponseSchema, signal },
      ),
  });
  const merge = useMutation({
    mutationFn: (trackedAsset: string) =>
      apiFetch(`${orgPath(orgId)}/assets/merge`, {
        method: 'POST',
        body: { trackedAsset, untrackedAsset: asset.id },
      }),
    meta: { errorKey: 'assets.merge.failed' },
    onSuccess: () => {
      notifyMessage('assets.merge.done', 'green', { name: asset.name, target: target?.name ?? '' });
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: assetsKey(orgId) });
      onClose();
      onMerged?.();
    },
  });
  const options = (candidates.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }));
  if (target && !options.some((option) => option.value === target.id)) {
    options.unshift({ value: target.id, label: target.name });
  }

  return (
    <Stack
      gap="xs"
      p="sm"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
    >
      <Text size="sm">{t('assets.merge.explain', { name: asset.name })}</Text>
      <Group align="flex-end" gap="xs">
        <Select
          style={{ flex: 1 }}
          label={t('assets.merge.target')}
          placeholder={t('assets.merge.searchPlaceholder')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          // The server searches names, tags and addresses; its answer is not filtered again here.
          filter={({ options: all }) => all}
          nothingFoundMessage={candidates.isPending ? t('app.loading') : t('assets.merge.noMatch')}
          data={options}
          value={target?.id ?? null}
          onChange={(value, option) => setTarget(value ? { id: value, name: option?.label ?? value } : null)}
        />
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button disabled={target === null} onClick={() => setConfirming(true)}>
          {t('assets.merge.submit')}
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title={t('assets.merge.confirmTitle', { name: asset.name, target: target?.name ?? '' })}
        message={t('assets.merge.confirmMessage', { name: asset.name, target: target?.name ?? '' })}
        confirmLabel={t('assets.merge.submit')}
        loading={merge.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          if (target) merge.mutate(target.id);
        }}
      />
    </Stack>
  );
}
