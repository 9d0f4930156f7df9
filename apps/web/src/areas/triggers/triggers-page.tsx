import {
  Badge,
  Button,
  EmptyState,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBell, IconDots, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import {
  DEFAULT_PAGE_SIZE,
  TRIGGER_STATES,
  TRIGGER_TYPES,
  triggerSchema,
  type Trigger,
  type TriggerDomain,
  type TriggerSortField,
  type TriggerState,
  type TriggerType,
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
import { SortableHeader } from '../../shell/sortable-header';
import { TriggerDialog } from './trigger-dialog';
import { triggerPath, triggersKey, triggersQuery } from './triggers';

type Action = 'pause' | 'resume' | 'enable' | 'delete' | 'restore';

/** The actions offered in each state (the server refuses the others). */
const ACTIONS: Record<TriggerState, (Action | 'disable')[]> = {
  ACTIVE: ['pause', 'disable', 'delete'],
  PAUSED: ['resume', 'disable', 'delete'],
  DISABLED: ['enable', 'delete'],
  DELETED: ['restore'],
  ARCHIVED: [],
};

const STATE_COLORS: Record<TriggerState, string> = {
  ACTIVE: 'green',
  PAUSED: 'yellow',
  DISABLED: 'gray',
  DELETED: 'red',
  ARCHIVED: 'dark',
};

/**
 * Triggers of the security domain (/triggers) or the fraud domain (/fraud/triggers, with the fraud
 * product): TRIGGER_VIEW to see them, TRIGGER_EDIT to change them.
 */
export function TriggersPage({ domain }: { domain: TriggerDomain }) {
  const { t } = useTranslation();
  const canView = useHasPermission('TRIGGER_VIEW');
  const hasFraud = useHasSku('fraud');
  return (
    <GatedPage
      title={domain === 'fraud' ? t('triggers.fraudTitle') : t('triggers.title')}
      allowed={canView && (domain === 'security' || hasFraud)}
      maw={1400}
    >
      <TriggerList domain={domain} />
    </GatedPage>
  );
}

function TriggerList({ domain }: { domain: TriggerDomain }) {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('TRIGGER_EDIT');
  // Provider staff change ops-managed triggers (the server checks that their home is the provider).
  const providerStaff = useHasPermission('TRAC_USER');
  const queryClient = useQueryClient();
  // A link to one trigger (a framework control's watcher) names it in `search`.
  const linked = useSearch({ strict: false });
  const [search, setSearch] = useState(linked.search ?? '');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [label, setLabel] = useState('');
  const [debouncedLabel] = useDebouncedValue(label.trim(), 300);
  const [state, setState] = useState<TriggerState | undefined>();
  const [type, setType] = useState<TriggerType | undefined>();
  const [sort, setSort] = useState<{ field: TriggerSortField; desc: boolean }>({
    field: 'name',
    desc: false,
  });
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Trigger | 'new' | null>(null);
  const [pending, setPending] = useState<{ trigger: Trigger; action: Action } | null>(null);
  const [disabling, setDisabling] = useState<Trigger | null>(null);
  const [until, setUntil] = useState('');
  const list = useQuery(
    triggersQuery(orgId, domain, {
      search: debouncedSearch,
      state,
      type,
      label: debouncedLabel,
      sortField: sort.field,
      sortOrder: sort.desc ? 'DESC' : 'ASC',
      pageNumber,
      pageSize: DEFAULT_PAGE_SIZE,
    }),
  );
  const change = useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: Action | 'disable'; body?: object }) =>
      apiFetch(`${triggerPath(orgId, id)}/${action}`, { method: 'POST', body, schema: triggerSchema }),
    onSuccess: async (_trigger, { action }) => {
      setPending(null);
      setDisabling(null);
      notifyMessage(`triggers.done.${action}`);
      await queryClient.invalidateQueries({ queryKey: triggersKey(orgId) });
    },
    meta: { errorKey: 'triggers.actionFailed' },
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const sortBy = (field: TriggerSortField) => () => {
    setSort((current) => ({ field, desc: current.field === field ? !current.desc : false }));
    setPageNumber(1);
  };
  const header = (field: TriggerSortField, label: string) => (
    <SortableHeader sorted={sort.field === field} desc={sort.desc} onSort={sortBy(field)}>
      {label}
    </SortableHeader>
  );
  const filtered = Boolean(debouncedSearch || state || type || debouncedLabel);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('triggers.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPageNumber(1);
            }}
            w={260}
          />
          <Select
            label={t('triggers.stateFilter')}
            placeholder={t('triggers.anyLiveState')}
            clearable
            data={TRIGGER_STATES.map((value) => ({ value, label: t(`triggers.states.${value}`) }))}
            value={state ?? null}
            onChange={(next) => {
              setState((next ?? undefined) as TriggerState | undefined);
              setPageNumber(1);
            }}
            w={180}
          />
          <Select
            label={t('triggers.typeFilter')}
            placeholder={t('triggers.anyType')}
            clearable
            data={TRIGGER_TYPES.map((value) => ({ value, label: t(`triggers.types.${value}`) }))}
            value={type ?? null}
            onChange={(next) => {
              setType((next ?? undefined) as TriggerType | undefined);
              setPageNumber(1);
            }}
            w={200}
          />
          <TextInput
            label={t('triggers.labelFilter')}
            value={label}
            onChange={(event) => {
              setLabel(event.currentTarget.value);
              setPageNumber(1);
            }}
            w={160}
          />
        </Group>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('triggers.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('triggers.loading')}
        failedTitle={t('triggers.loadFailed')}
        empty={
          <EmptyState
            icon={<IconBell size={32} stroke={1.5} />}
            withIndicatorBackground
            title={filtered ? t('triggers.noMatchTitle') : t('triggers.emptyTitle')}
            description={filtered ? t('triggers.noMatchMessage') : t('triggers.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={1000}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    {header('name', t('triggers.name'))}
                    {header('type', t('triggers.type'))}
                    {header('severity', t('triggers.severity'))}
                    {header('state', t('triggers.state'))}
                    <Table.Th>{t('triggers.savedQuery')}</Table.Th>
                    <Table.Th>{t('triggers.interval')}</Table.Th>
                    <Table.Th>{t('triggers.lastRun')}</Table.Th>
                    <Table.Th>{t('triggers.labels')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((trigger) => {
                    const mayChange = trigger.managedBy !== 'OPS' || providerStaff;
                    const actions = mayChange ? ACTIONS[trigger.state] : [];
                    const editable = canEdit && mayChange && !['DELETED', 'ARCHIVED'].includes(trigger.state);
                    return (
                      <Table.Tr key={trigger.id}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {trigger.name}
                          </Text>
                          {trigger.managedBy === 'OPS' && (
                            <Text size="xs" c="dimmed">
                              {t('triggers.managedByOps')}
                            </Text>
                          )}
                          {trigger.source === 'LIBRARY' && (
                            <Text size="xs" c="dimmed">
                              {t('triggers.fromLibrary', { version: trigger.libraryVersion })}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{t(`triggers.types.${trigger.type}`)}</Table.Td>
                        <Table.Td>{t(`triggers.severities.${trigger.severity}`)}</Table.Td>
                        <Table.Td>
                          <Badge color={STATE_COLORS[trigger.state]} variant="light">
                            {t(`triggers.states.${trigger.state}`)}
                          </Badge>
                          {trigger.disabledUntil && (
                            <Text size="xs" c="dimmed">
                              {t('triggers.until', {
                                time: dateFormat.format(new Date(trigger.disabledUntil)),
                              })}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{trigger.savedQueryName ?? '—'}</Table.Td>
                        <Table.Td>{t('triggers.seconds', { count: trigger.intervalSeconds })}</Table.Td>
                        <Table.Td>
                          {trigger.lastRunAt
                            ? dateFormat.format(new Date(trigger.lastRunAt))
                            : t('triggers.never')}
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            {trigger.labels.map((label) => (
                              <Badge key={label} variant="outline" size="sm">
                                {label}
                              </Badge>
                            ))}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          {canEdit && (editable || actions.length > 0) && (
                            <Group gap="xs" justify="flex-end" wrap="nowrap">
                              {editable && (
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  aria-label={t('triggers.editNamed', { name: trigger.name })}
                                  onClick={() => setEditing(trigger)}
                                >
                                  {t('common.edit')}
                                </Button>
                              )}
                              {actions.length > 0 && (
                                <Menu position="bottom-end">
                                  <Menu.Target>
                                    <Button
                                      size="compact-sm"
                                      variant="subtle"
                                      aria-label={t('triggers.actionsNamed', { name: trigger.name })}
                                    >
                                      <IconDots size={16} />
                                    </Button>
                                  </Menu.Target>
                                  <Menu.Dropdown>
                                    {actions.map((action) => (
                                      <Menu.Item
                                        key={action}
                                        color={action === 'delete' ? 'red' : undefined}
                                        onClick={() => {
                                          if (action === 'disable') {
                                            setUntil('');
                                            setDisabling(trigger);
                                          } else setPending({ trigger, action });
                                        }}
                                      >
                                        {t(`triggers.actions.${action}`)}
                                      </Menu.Item>
                                    ))}
                                  </Menu.Dropdown>
                                </Menu>
                              )}
                            </Group>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
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
      {editing && (
        <TriggerDialog
          orgId={orgId}
          domain={domain}
          trigger={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={pending !== null}
        title={pending ? t(`triggers.confirm.${pending.action}Title`) : ''}
        message={
          pending ? t(`triggers.confirm.${pending.action}Message`, { name: pending.trigger.name }) : ''
        }
        confirmLabel={pending ? t(`triggers.actions.${pending.action}`) : ''}
        loading={change.isPending}
        onConfirm={() => {
          if (pending) change.mutate({ id: pending.trigger.id, action: pending.action });
        }}
        onCancel={() => setPending(null)}
      />
      <Modal
        opened={disabling !== null}
        onClose={() => setDisabling(null)}
        title={t('triggers.confirm.disableTitle')}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (disabling) {
              change.mutate({
                id: disabling.id,
                action: 'disable',
                body: { until: until ? new Date(until).toISOString() : null },
              });
            }
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('triggers.confirm.disableMessage', { name: disabling?.name ?? '' })}</Text>
            <TextInput
              type="datetime-local"
              label={t('triggers.disableUntil')}
              description={t('triggers.disableUntilHint')}
              value={until}
              onChange={(event) => setUntil(event.currentTarget.value)}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setDisabling(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" color="red" loading={change.isPending}>
                {t('triggers.actions.disable')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
