import {
  Alert as Notice,
  Button,
  Checkbox,
  EmptyState,
  Group,
  Pill,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconBellCheck, IconFilter } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ALERT_FILTERS_MAX,
  ALERT_STATES,
  DEFAULT_PAGE_SIZE,
  alertBulkResultSchema,
  alertSortsFor,
  type Alert,
  type AlertBulkResult,
  type AlertList,
  type AlertSort,
  type AlertState,
  type AlertStateChangeInput,
  type AlertView,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useHasSku } from '../../lib/org-context';
import { orgPath } from '../assets/queries';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { AlertDrawer } from './alert-drawer';
import { alertsKey, inboxQuery, useEscalateToNewIncident, type AlertDomain } from './alerts';
import { SeverityBadge, StateBadge } from './badges';
import { DismissDialog, EscalateDialog } from './state-dialogs';

/**
 * The alert inbox of the security domain (/alerts/inbox) or the fraud domain (/fraud/inbox, with the
 * fraud product): ALERT_INBOX_VIEW to see it, ALERT_INBOX_EDIT to change states.
 */
export function InboxPage({ domain }: { domain: AlertDomain }) {
  const { t } = useTranslation();
  const canView = useHasPermission('ALERT_INBOX_VIEW');
  const hasFraud = useHasSku('fraud');
  return (
    <GatedPage
      title={domain === 'fraud' ? t('alerts.fraudTitle') : t('alerts.title')}
      allowed={canView && (domain === 'security' || hasFraud)}
    >
      <Inbox domain={domain} />
    </GatedPage>
  );
}

/** Security alerts cannot be flagged as fraud: their inbox has no fraud-flagged tab. */
const statesOf = (domain: AlertDomain) =>
  ALERT_STATES.filter((state) => domain === 'fraud' || state !== 'FRAUD_FLAGGED');

function Inbox({ domain }: { domain: AlertDomain }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ALERT_INBOX_EDIT');
  const queryClient = useQueryClient();
  const [view, setView] = useState<AlertView>('alert');
  const [state, setState] = useState<AlertState>('NEW');
  const [sort, setSort] = useState<AlertSort>('newest');
  const [filters, setFilters] = useState<string[]>([]);
  const [filterText, setFilterText] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [opened, setOpened] = useState<string | null>(null);
  const [dismissing, setDismissing] = useState(false);
  const [escalating, setEscalating] = useState(false);
  const canCreateIncident = useHasPermission('INCIDENT_EDIT');
  const [bulkResult, setBulkResult] = useState<AlertBulkResult | null>(null);

  const list = useQuery(
    inboxQuery(orgId, { domain, view, state, sort, filters, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const sorts = alertSortsFor([state]);

  const reset = () => {
    setPageNumber(1);
    setSelected(new Set());
  };
  const chooseState = (next: AlertState) => {
    setState(next);
    // A sort by the time of another state is not offered with this tab.
    if (!alertSortsFor([next]).includes(sort)) setSort('newest');
    reset();
  };
  const addFilter = (event: FormEvent) => {
    event.preventDefault();
    const filter = filterText.trim();
    if (!filter || filters.includes(filter) || filters.length >= ALERT_FILTERS_MAX) return;
    setFilters([...filters, filter]);
    setFilterText('');
    reset();
  };
  const showAlertsOf = (filter: string) => {
    setFilters([...filters.filter((item) => !item.startsWith(`${filter.split(':')[0]}:`)), filter]);
    setView('alert');
    reset();
  };

  const bulk = useMutation({
    mutationFn: (input: AlertStateChangeInput) =>
      apiFetch(`${orgPath(orgId)}/alerts/bulk-state`, {
        method: 'POST',
        body: { ...input, ids: [...selected] },
        schema: alertBulkResultSchema,
      }),
    onSuccess: async (result) => {
      setDismissing(false);
      setEscalating(false);
      setBulkResult(result);
      setSelected(new Set());
      await queryClient.invalidateQueries({ queryKey: alertsKey(orgId) });
    },
    meta: { errorKey: 'alerts.changeFailed' },
  });
  const escalateNew = useEscalateToNewIncident(orgId, () => {
    setEscalating(false);
    setSelected(new Set());
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <SegmentedControl
          aria-label={t('alerts.view')}
          value={view}
          onChange={(value) => {
            setView(value as AlertView);
            reset();
          }}
          data={(['alert', 'trigger', 'story'] as const).map((value) => ({
            value,
            label: t(`alerts.views.${value}`),
          }))}
        />
        <Select
          label={t('alerts.sort')}
          data={sorts.map((value) => ({ value, label: t(`alerts.sorts.${value}`) }))}
          value={sort}
          onChange={(value) => {
            if (value) setSort(value as AlertSort);
            reset();
          }}
          allowDeselect={false}
          disabled={view === 'trigger'}
          w={220}
        />
      </Group>
      <Tabs value={state} onChange={(value) => value && chooseState(value as AlertState)}>
        <Tabs.List aria-label={t('alerts.stateTabs')}>
          {statesOf(domain).map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`alerts.states.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <form onSubmit={addFilter}>
        <Group gap="xs" align="flex-end">
          <TextInput
            label={t('alerts.addFilter')}
            description={t('alerts.filterHelp')}
            placeholder="severity:HIGH"
            leftSection={<IconFilter size={16} />}
            value={filterText}
            onChange={(event) => setFilterText(event.currentTarget.value)}
            w={320}
          />
          <Button type="submit" variant="default">
            {t('alerts.add')}
          </Button>
        </Group>
      </form>
      {filters.length > 0 && (
        <Group gap="xs" aria-label={t('alerts.activeFilters')} role="list">
          {filters.map((filter) => (
            <Pill
              key={filter}
              role="listitem"
              withRemoveButton
              // The remove button is hidden from keyboards by default; here it is the only way to remove.
              removeButtonProps={{
                'aria-label': t('alerts.removeFilter', { filter }),
                'aria-hidden': false,
                tabIndex: 0,
              }}
              onRemove={() => {
                setFilters(filters.filter((item) => item !== filter));
                reset();
              }}
            >
              {filter}
            </Pill>
          ))}
        </Group>
      )}
      {bulkResult && (
        <Notice
          color={bulkResult.failed > 0 ? 'yellow' : 'green'}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setBulkResult(null)}
          title={t('alerts.bulkDone', { succeeded: bulkResult.succeeded, failed: bulkResult.failed })}
        >
          {bulkResult.failed > 0 && <BulkFailures result={bulkResult} />}
        </Notice>
      )}
      {canEdit && view === 'alert' && selected.size > 0 && (
        <Group gap="sm">
          <Text size="sm">{t('alerts.selected', { count: selected.size })}</Text>
          {state !== 'ACKED' && state !== 'ESCALATED' && (
            <Button size="xs" loading={bulk.isPending} onClick={() => bulk.mutate({ state: 'ACKED' })}>
              {t('alerts.acknowledgeSelected')}
            </Button>
          )}
          {state !== 'DISMISSED' && state !== 'ESCALATED' && (
            <Button size="xs" variant="default" onClick={() => setDismissing(true)}>
              {t('alerts.dismissSelected')}
            </Button>
          )}
          {state !== 'ESCALATED' && (
            <Button size="xs" variant="default" onClick={() => setEscalating(true)}>
              {t('alerts.escalateSelected')}
            </Button>
          )}
        </Group>
      )}
      <ListStates
        query={list}
        loadingLabel={t('alerts.loading')}
        failedTitle={t('alerts.loadFailed')}
        empty={
          <EmptyState
            icon={<IconBellCheck size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('alerts.emptyTitle')}
            description={filters.length > 0 ? t('alerts.noMatchMessage') : t('alerts.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <InboxTable
              data={data}
              canSelect={canEdit}
              selected={selected}
              onSelect={setSelected}
              onOpen={setOpened}
              onShowAlerts={showAlertsOf}
            />
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {opened && (
        <AlertDrawer orgId={orgId} alertId={opened} canEdit={canEdit} onClose={() => setOpened(null)} />
      )}
      {dismissing && (
        <DismissDialog
          count={selected.size}
          loading={bulk.isPending}
          onClose={() => setDismissing(false)}
          onSubmit={(values) => bulk.mutate({ state: 'DISMISSED', ...values })}
        />
      )}
      {escalating && (
        <EscalateDialog
          count={selected.size}
          canCreate={canCreateIncident}
          loading={bulk.isPending || escalateNew.isPending}
          onClose={() => setEscalating(false)}
          onSubmit={(values) =>
            values.mode === 'new'
              ? escalateNew.mutate({ ids: [...selected], title: values.title })
              : bulk.mutate({ state: 'ESCALATED', ticketSlug: values.ticketSlug })
          }
        />
      )}
    </Stack>
  );
}

/** Failures of a bulk change, counted by reason. */
function BulkFailures({ result }: { result: AlertBulkResult }) {
  const { t, i18n } = useTranslation();
  const byKey = new Map<string, { count: number; params?: Record<string, unknown> }>();
  for (const failure of result.results) {
    if (failure.ok) continue;
    const key = failure.key ?? '';
    const known = byKey.get(key);
    byKey.set(key, { count: (known?.count ?? 0) + 1, params: known?.params ?? failure.params });
  }
  return (
    <Stack gap={2}>
      {[...byKey].map(([key, { count, params }]) => (
        <Text key={key} size="sm">
          {t('alerts.bulkFailure', {
            count,
            reason: i18n.exists(key) ? t(key, params) : t('errors.title'),
          })}
        </Text>
      ))}
    </Stack>
  );
}

function InboxTable({
  data,
  canSelect,
  selected,
  onSelect,
  onOpen,
  onShowAlerts,
}: {
  data: AlertList;
  canSelect: boolean;
  selected: Set<string>;
  onSelect: (ids: Set<string>) => void;
  onOpen: (id: string) => void;
  onShowAlerts: (filter: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const when = (iso: string) => dateFormat.format(new Date(iso));

  if (data.view === 'trigger') {
    return (
      <Table.ScrollContainer minWidth={800}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alerts.trigger')}</Table.Th>
              {ALERT_STATES.map((state) => (
                <Table.Th key={state}>{t(`alerts.states.${state}`)}</Table.Th>
              ))}
              <Table.Th>{t('alerts.total')}</Table.Th>
              <Table.Th>{t('alerts.latest')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((row) => (
              <Table.Tr key={`${row.triggerId ?? ''}-${row.kind}`}>
                <Table.Td>{row.name}</Table.Td>
                {ALERT_STATES.map((state) => (
                  <Table.Td key={state}>{row.counts[state]}</Table.Td>
                ))}
                <Table.Td>{row.total}</Table.Td>
                <Table.Td>{when(row.latestFiredAt)}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={t('alerts.showAlertsOf', { name: row.name })}
                    onClick={() =>
                      onShowAlerts(row.triggerId ? `trigger:${row.triggerId}` : `kind:${row.kind}`)
                    }
                  >
                    {t('alerts.showAlerts')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  if (data.view === 'story') {
    return (
      <Table.ScrollContainer minWidth={800}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alerts.severity')}</Table.Th>
              <Table.Th>{t('alerts.alertTitle')}</Table.Th>
              <Table.Th>{t('alerts.count')}</Table.Th>
              <Table.Th>{t('alerts.span')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((story) => (
              <Table.Tr key={story.groupKey}>
                <Table.Td>
                  <SeverityBadge severity={story.severity} />
                </Table.Td>
                <Table.Td>{story.title}</Table.Td>
                <Table.Td>{story.count}</Table.Td>
                <Table.Td>
                  {story.count === 1
                    ? when(story.lastFiredAt)
                    : t('alerts.spanValue', {
                        first: when(story.firstFiredAt),
                        last: when(story.lastFiredAt),
                      })}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={t('alerts.openLatestOf', { title: story.title })}
                      onClick={() => onOpen(story.latestAlertId)}
                    >
                      {t('alerts.openLatest')}
                    </Button>
                    {story.count > 1 && (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={t('alerts.showAlertsOf', { name: story.title })}
                        onClick={() => onShowAlerts(`group:${story.groupKey}`)}
                      >
                        {t('alerts.showAlerts')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const ids = data.items.map((item) => item.id);
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  const toggle = (alert: Alert) => {
    const next = new Set(selected);
    if (next.has(alert.id)) next.delete(alert.id);
    else next.add(alert.id);
    onSelect(next);
  };
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {canSelect && (
              <Table.Th w={40}>
                <Checkbox
                  aria-label={t('alerts.selectAll')}
                  checked={allSelected}
                  indeterminate={!allSelected && ids.some((id) => selected.has(id))}
                  onChange={() => onSelect(allSelected ? new Set() : new Set(ids))}
                />
              </Table.Th>
            )}
            <Table.Th>{t('alerts.severity')}</Table.Th>
            <Table.Th>{t('alerts.alertTitle')}</Table.Th>
            <Table.Th>{t('alerts.trigger')}</Table.Th>
            <Table.Th>{t('alerts.firedAt')}</Table.Th>
            <Table.Th>{t('alerts.state')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.items.map((alert) => (
            <Table.Tr key={alert.id} fw={alert.viewed ? undefined : 600}>
              {canSelect && (
                <Table.Td>
                  <Checkbox
                    aria-label={t('alerts.selectOne', { title: alert.title })}
                    checked={selected.has(alert.id)}
                    onChange={() => toggle(alert)}
                  />
                </Table.Td>
              )}
              <Table.Td>
                <SeverityBadge severity={alert.severity} />
              </Table.Td>
              <Table.Td>{alert.title}</Table.Td>
              <Table.Td>{alert.triggerName ?? t(`alerts.kinds.${alert.kind}`)}</Table.Td>
              <Table.Td>{when(alert.firedAt)}</Table.Td>
              <Table.Td>
                <StateBadge state={alert.state} />
              </Table.Td>
              <Table.Td>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  aria-label={t('alerts.openNamed', { title: alert.title })}
                  onClick={() => onOpen(alert.id)}
                >
                  {t('alerts.open')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
