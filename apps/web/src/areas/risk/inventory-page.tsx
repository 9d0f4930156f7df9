import {
  ActionIcon,
  Anchor,
  Button,
  Fieldset,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconServer, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  INVENTORY_KINDS,
  inventoryKindsOf,
  INVENTORY_QUESTIONS,
  inventoryDetailSchema,
  inventoryListSchema,
  inventoryScores,
  libraryInventoryListSchema,
  questionSetsOf,
  SYSTEM_TYPES,
  type InventoryAnswer,
  type InventoryDetail,
  type InventoryKind,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { QueryStates } from '../../shell/query-status';
import { useTicketPeople } from '../tickets/ticket-badges';
import { riskKey, riskListsQuery } from './api';
import { LevelBadge, useRiskModules } from './module-badges';
import { RegisterList, useRegisterList } from './register-list';

export const inventoryItemPath = (orgId: string, ref: string, library = false) =>
  library
    ? `${orgPath(orgId)}/inventory/library/${encodeURIComponent(ref)}`
    : `${orgPath(orgId)}/inventory-item/${encodeURIComponent(ref)}`;

interface InventoryListParams {
  kind?: InventoryKind;
  q: string;
  sortBy: string;
  desc: boolean;
  pageSize: number;
  pageNumber: number;
}

/** GET /inventory or /inventory/library (whose items say whether the register holds a copy). */
export const inventoryQuery = (orgId: string, library: boolean, params: InventoryListParams) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'inventory', library, params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) {
        if (value !== undefined && value !== '') search.set(key, String(value));
      }
      return apiFetch(`${orgPath(orgId)}/inventory${library ? '/library' : ''}?${search}`, {
        schema: library ? libraryInventoryListSchema : inventoryListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

export const inventoryItemQuery = (orgId: string, ref: string, library: boolean) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'inventoryItem', library, ref.toUpperCase()] as const,
    queryFn: ({ signal }) =>
      apiFetch(inventoryItemPath(orgId, ref, library), { schema: inventoryDetailSchema, signal }),
  });

/** The inventory register (/risk/inventory/register) or library (/risk/inventory/library). */
export function InventoryPage({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const allowed = useHasPermission('RISK_VIEW');
  const held = useRiskModules();
  return (
    <GatedPage
      title={t(library ? 'nav.tabs.inventoryLibrary' : 'nav.tabs.inventoryRegister')}
      allowed={allowed && (library || held.length > 0)}
      maw={1400}
    >
      <InventoryList library={library} />
    </GatedPage>
  );
}

function InventoryList({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const list = useRegisterList('inventory', library);
  const [kind, setKind] = useState<InventoryKind | undefined>();
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery(inventoryQuery(list.orgId, library, { kind, ...list.params }));
  return (
    <>
      <RegisterList
        list={list}
        query={query}
        filters={
          <Select
            label={t('risk.inventory.kind')}
            data={INVENTORY_KINDS.map((value) => ({ value, label: t(`risk.inventory.kinds.${value}`) }))}
            value={kind ?? null}
            onChange={(value) => list.filter(setKind)((value as InventoryKind | null) ?? undefined)}
            clearable
            placeholder={t('risk.inventory.allKinds')}
          />
        }
        actions={
          list.mayWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen('new')}>
              {t('risk.inventory.new')}
            </Button>
          )
        }
        failedTitle={t('risk.inventory.loadFailed')}
        empty={{
          icon: <IconServer size={32} stroke={1.5} />,
          title: t(library ? 'risk.library.emptyTitle' : 'risk.inventory.emptyTitle'),
          message: t('risk.inventory.emptyMessage'),
        }}
        filtered={kind !== undefined}
        head={(sortable) => (
          <>
            {sortable('number', t('risk.publicId'))}
            {sortable('name', t('risk.name'))}
            <Table.Th>{t('risk.inventory.kind')}</Table.Th>
            <Table.Th>{t('risk.inventory.systemType')}</Table.Th>
            {sortable('dataSensitivity', t('risk.inventory.dataSensitivity'))}
            {sortable('businessCriticality', t('risk.inventory.businessCriticality'))}
            <Table.Th>{t('risk.inventory.residualRisk')}</Table.Th>
            <Table.Th>{t('risk.inventory.unanswered')}</Table.Th>
            {!library && <Table.Th>{t('risk.control.riskCount')}</Table.Th>}
          </>
        )}
        row={(item) => (
          <>
            <Table.Td>
              <Anchor component="button" type="button" onClick={() => setOpen(item.publicId)}>
                {item.publicId}
              </Anchor>
            </Table.Td>
            <Table.Td>{item.name}</Table.Td>
            <Table.Td>{t(`risk.inventory.kinds.${item.kind}`)}</Table.Td>
            <Table.Td>{item.systemType ? t(`risk.inventory.systemTypes.${item.systemType}`) : '—'}</Table.Td>
            <Table.Td>
              <LevelBadge level={item.dataSensitivity} />
            </Table.Td>
            <Table.Td>
              <LevelBadge level={item.businessCriticality} />
            </Table.Td>
            <Table.Td>
              <LevelBadge level={item.residualRisk} />
            </Table.Td>
            <Table.Td>{item.unanswered}</Table.Td>
            {!library && <Table.Td>{item.riskCount}</Table.Td>}
          </>
        )}
      />
      {open && (
        <InventoryDialog
          orgId={list.orgId}
          refId={open}
          library={library}
          readOnly={library && !list.mayWrite}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}

function InventoryDialog({
  orgId,
  refId,
  library,
  readOnly,
  onClose,
}: {
  orgId: string;
  refId: string;
  library: boolean;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const creating = refId === 'new';
  const item = useQuery({ ...inventoryItemQuery(orgId, refId, library), enabled: !creating });
  return (
    <Modal opened onClose={onClose} title={creating ? t('risk.inventory.new') : refId} size="xl" centered>
      {creating ? (
        <InventoryForm orgId={orgId} item={null} library={library} readOnly={false} onClose={onClose} />
      ) : (
        <QueryStates
          query={item}
          loadingLabel={t('risk.loading')}
          failedTitle={t('risk.inventory.loadFailed')}
        >
          {(data) => (
            <InventoryForm
              orgId={orgId}
              item={data}
              library={library}
              readOnly={readOnly}
              onClose={onClose}
            />
          )}
        </QueryStates>
      )}
    </Modal>
  );
}

/** An item of the inventory or, written by provider administrators, of its library (no lists or people). */
function InventoryForm({
  orgId,
  item,
  library,
  readOnly,
  onClose,
}: {
  orgId: string;
  item: InventoryDetail | null;
  library: boolean;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('RISK_EDIT') && !readOnly;
  const people = useTicketPeople(orgId);
  // The organisation's lists and people are offered in its register only.
  const named = !readOnly && !library;
  const lists = useQuery({ ...riskListsQuery(orgId), enabled: named });
  const listOf = (kind: string) =>
    (lists.data ?? [])
      .filter((entry) => entry.kind === kind)
      .map((entry) => ({ value: entry.id, label: entry.name }));
  // A register adds only the kinds of the modules the organisation holds; the library keeps every kind.
  const held = useRiskModules();
  const kinds = library ? INVENTORY_KINDS : inventoryKindsOf(held);
  const [kind, setKind] = useState<InventoryKind>(item?.kind ?? kinds[0] ?? 'SYSTEM');
  const [name, setName] = useState(item?.name ?? '');
  const [definition, setDefinition] = useState(item?.definition ?? '');
  const [vendorId, setVendorId] = useState<string | null>(item?.vendor?.id ?? null);
  const [goLiveDate, setGoLiveDate] = useState(item?.goLiveDate ?? '');
  const [versionNumber, setVersionNumber] = useState(item?.versionNumber ?? '');
  const [dataLocation, setDataLocation] = useState(item?.dataLocation ?? '');
  const [systemType, setSystemType] = useState<string | null>(item?.systemType ?? null);
  const [businessOwnerId, setBusinessOwnerId] = useState<string | null>(item?.businessOwner?.id ?? null);
  const [systemAdminId, setSystemAdminId] = useState<string | null>(item?.systemAdmin?.id ?? null);
  const [assetTypeId, setAssetTypeId] = useState<string | null>(item?.assetType?.id ?? null);
  const [authorizedPeopleIds, setAuthorizedPeopleIds] = useState(
    item?.authorizedPeople.map((p) => p.id) ?? [],
  );
  const [userAdministratorIds, setUserAdministratorIds] = useState(
    item?.userAdministrators.map((p) => p.id) ?? [],
  );
  const [answers, setAnswers] = useState<Record<string, InventoryAnswer>>(item?.answers ?? {});
  const [lineItems, setLineItems] = useState<{ id?: string; name: string }[]>(item?.lineItems ?? []);
  const [checked, setChecked] = useState(false);
  const scores = inventoryScores(kind, answers);
  const save = useMutation({
    mutationFn: () => {
      const asked = new Set(questionSetsOf(kind).flatMap((set) => INVENTORY_QUESTIONS[set]));
      const sent: Record<string, InventoryAnswer | null> = Object.fromEntries(
        Object.entries(answers).filter(([question]) => asked.has(question)),
      );
      for (const question of Object.keys(item?.answers ?? {})) {
        if (!(question in sent)) sent[question] = null;
      }
      const path = item
        ? inventoryItemPath(orgId, item.id, library)
        : `${orgPath(orgId)}/${library ? 'inventory/library' : 'inventory-item'}`;
      return apiFetch(path, {
        method: item ? 'PATCH' : 'POST',
        body: {
          ...(item ? { version: item.version } : { kind }),
          name: name.trim(),
          definition,
          vendorId,
          goLiveDate: goLiveDate || null,
          versionNumber,
          dataLocation,
          systemType,
          businessOwnerId,
          systemAdminId,
          assetTypeId,
          authorizedPeopleIds,
          userAdministratorIds,
          answers: sent,
          lineItems: lineItems.filter((line) => line.name.trim()),
        },
        schema: inventoryDetailSchema,
      });
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      notifications.show({ color: 'green', message: t('risk.saved', { id: saved.publicId }) });
      onClose();
    },
    meta: { errorKey: 'risk.inventory.saveFailed' },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (name.trim()) save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput
              label={t('risk.name')}
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={checked && !name.trim() ? t('risk.nameRequired') : undefined}
            />
            <Select
              label={t('risk.inventory.kind')}
              data={(item ? [item.kind] : kinds).map((value) => ({
                value,
                label: t(`risk.inventory.kinds.${value}`),
              }))}
              value={kind}
              onChange={(value) => value && setKind(value as InventoryKind)}
              disabled={item !== null}
              allowDeselect={false}
            />
          </Group>
          <Textarea
            label={t('risk.definition')}
            autosize
            minRows={2}
            value={definition}
            onChange={(event) => setDefinition(event.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('risk.inventory.systemType')}
              data={SYSTEM_TYPES.map((value) => ({ value, label: t(`risk.inventory.systemTypes.${value}`) }))}
              value={systemType}
              onChange={setSystemType}
              clearable
            />
            <TextInput
              label={t('risk.inventory.goLiveDate')}
              type="date"
              value={goLiveDate}
              onChange={(event) => setGoLiveDate(event.currentTarget.value)}
            />
            <TextInput
              label={t('risk.inventory.versionNumber')}
              value={versionNumber}
              onChange={(event) => setVersionNumber(event.currentTarget.value)}
            />
            <TextInput
              label={t('risk.inventory.dataLocation')}
              value={dataLocation}
              onChange={(event) => setDataLocation(event.currentTarget.value)}
            />
            {named && (
              <>
                <Select
                  label={t('risk.inventory.vendor')}
                  data={listOf('VENDOR')}
                  value={vendorId}
                  onChange={setVendorId}
                  clearable
                  searchable
                />
                <Select
                  label={t('risk.inventory.assetType')}
                  data={listOf('ASSET_TYPE')}
                  value={assetTypeId}
                  onChange={setAssetTypeId}
                  clearable
                  searchable
                />
                <Select
                  label={t('risk.inventory.businessOwner')}
                  data={people}
                  value={businessOwnerId}
                  onChange={setBusinessOwnerId}
                  clearable
                  searchable
                />
                <Select
                  label={t('risk.inventory.systemAdmin')}
                  data={people}
                  value={systemAdminId}
                  onChange={setSystemAdminId}
                  clearable
                  searchable
                />
              </>
            )}
          </SimpleGrid>
          {named && (
            <Group grow align="flex-start">
              <MultiSelect
                label={t('risk.inventory.authorizedPeople')}
                data={people}
                value={authorizedPeopleIds}
                onChange={setAuthorizedPeopleIds}
                searchable
              />
              <MultiSelect
                label={t('risk.inventory.userAdministrators')}
                data={people}
                value={userAdministratorIds}
                onChange={setUserAdministratorIds}
                searchable
              />
            </Group>
          )}
          <Group gap="lg">
            <ScoreLine label={t('risk.inventory.dataSensitivity')} level={scores.dataSensitivity} />
            <ScoreLine label={t('risk.inventory.businessCriticality')} level={scores.businessCriticality} />
            <ScoreLine label={t('risk.inventory.inherentRisk')} level={scores.inherentRisk} />
            {kind === 'VENDOR' && (
              <>
                <Text size="sm">
                  {t('risk.inventory.dueDiligenceStrength')}:{' '}
                  {scores.dueDiligenceStrength ? t(`risk.strengths.${scores.dueDiligenceStrength}`) : '—'}
                </Text>
                <ScoreLine label={t('risk.inventory.residualRisk')} level={scores.residualRisk} />
              </>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('risk.inventory.scoring')}
          </Text>
          {questionSetsOf(kind).map((set) => (
            <Fieldset key={set} legend={t(`risk.inventory.sets.${set}`)}>
              <Stack gap={6}>
                {INVENTORY_QUESTIONS[set].map((question) => (
                  <Group key={question} justify="space-between" wrap="nowrap">
                    <Text size="sm" id={`question-${question}`}>
                      {t(`risk.inventory.questions.${question}`)}
                    </Text>
                    <SegmentedControl
                      size="xs"
                      aria-labelledby={`question-${question}`}
                      disabled={!canEdit}
                      value={answers[question] ?? ''}
                      onChange={(value) =>
                        setAnswers((current) => {
                          const next = { ...current };
                          if (value) next[question] = value as InventoryAnswer;
                          else delete next[question];
                          return next;
                        })
                      }
                      data={[
                        { value: 'YES', label: t('risk.inventory.yes') },
                        { value: 'NO', label: t('risk.inventory.no') },
                        { value: '', label: t('risk.inventory.unset') },
                      ]}
                    />
                  </Group>
                ))}
              </Stack>
            </Fieldset>
          ))}
          <Fieldset legend={t('risk.inventory.lineItems')}>
            <Stack gap={6}>
              {lineItems.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('risk.inventory.noLineItems')}
                </Text>
              )}
              {lineItems.map((line, index) => (
                <Group key={line.id ?? `new-${index}`} wrap="nowrap">
                  <TextInput
                    flex={1}
                    aria-label={t('risk.inventory.lineItemName', { index: index + 1 })}
                    value={line.name}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setLineItems((current) =>
                        current.map((entry, at) => (at === index ? { ...entry, name: value } : entry)),
                      );
                    }}
                  />
                  {canEdit && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('risk.inventory.removeLineItem', { name: line.name })}
                      onClick={() => setLineItems((current) => current.filter((_, at) => at !== index))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              ))}
              {canEdit && (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => setLineItems((current) => [...current, { name: '' }])}
                  w="fit-content"
                >
                  {t('risk.inventory.addLineItem')}
                </Button>
              )}
            </Stack>
          </Fieldset>
          {item && !item.library && (
            <Stack gap={4}>
              <Text fw={600}>{t('risk.inventory.risks')}</Text>
              {item.risks.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('risk.inventory.noRisks')}
                </Text>
              ) : (
                item.risks.map((risk) => (
                  <Text key={risk.id} size="sm">
                    {risk.publicId} {risk.name}
                  </Text>
                ))
              )}
            </Stack>
          )}
          {canEdit && (
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t(item ? 'common.save' : 'risk.create')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}

function ScoreLine({ label, level }: { label: string; level: Parameters<typeof LevelBadge>[0]['level'] }) {
  return (
    <Group gap={6}>
      <Text size="sm">{label}:</Text>
      <LevelBadge level={level} />
    </Group>
  );
}
