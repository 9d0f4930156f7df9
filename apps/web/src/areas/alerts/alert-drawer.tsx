import { Alert as Notice, Badge, Button, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ALERT_VIEWED_AFTER_MS,
  alertDetailSchema,
  type AlertDetail,
  type AlertStateChangeInput,
} from '@vigil/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useFeature } from '../../lib/org-context';
import { useHasPermission } from '../../lib/session';
import { PendingActions } from '../settings/pending-actions';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { TicketLink } from '../tickets/ticket-badges';
import {
  alertEventsQuery,
  alertPath,
  alertQuery,
  alertsKey,
  similarAlertsQuery,
  useEscalateToNewIncident,
} from './alerts';
import { SeverityBadge, StateBadge } from './badges';
import { DismissDialog, EscalateDialog, FraudDialog } from './state-dialogs';

/** One alert: details, state changes for editors, history, viewers, matched events and similar alerts. */
export function AlertDrawer({
  orgId,
  alertId,
  canEdit,
  onClose,
}: {
  orgId: string;
  alertId: string;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const alert = useQuery(alertQuery(orgId, alertId));
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={t('alerts.detailTitle')}>
      {alert.isPending ? (
        <LoadingLine label={t('alerts.loadingOne')} />
      ) : alert.isError ? (
        <LoadFailed
          title={t('alerts.loadOneFailed')}
          error={alert.error}
          onRetry={() => void alert.refetch()}
        />
      ) : (
        <AlertDetails orgId={orgId} alert={alert.data} canEdit={canEdit} />
      )}
    </Drawer>
  );
}

function AlertDetails({ orgId, alert, canEdit }: { orgId: string; alert: AlertDetail; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'dismiss' | 'fraud' | 'escalate' | null>(null);
  const canCreateIncident = useHasPermission('INCIDENT_EDIT');
  const actionsEnabled = useFeature('automatedIntervention');
  const showsActions = useHasPermission('ACTION_VIEW') && actionsEnabled;
  const escalateNew = useEscalateToNewIncident(orgId, () => setDialog(null));
  const [showEvents, setShowEvents] = useState(false);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });

  // Spec 3 section 9: an alert counts as viewed after 10 seconds on screen.
  const viewed = alert.viewed;
  useEffect(() => {
    if (viewed) return undefined;
    const timer = window.setTimeout(() => {
      void apiFetch(`${alertPath(orgId, alert.id)}/viewed`, { method: 'POST' }).then(() =>
        queryClient.invalidateQueries({ queryKey: alertsKey(orgId) }),
      );
    }, ALERT_VIEWED_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [orgId, alert.id, viewed, queryClient]);

  const change = useMutation({
    mutationFn: (input: AlertStateChangeInput) =>
      apiFetch(`${alertPath(orgId, alert.id)}/state`, {
        method: 'PUT',
        body: input,
        schema: alertDetailSchema,
      }),
    onSuccess: async (updated) => {
      setDialog(null);
      notifyMessage('alerts.stateChanged', 'green', { state: t(`alerts.states.${updated.state}`) });
      await queryClient.invalidateQueries({ queryKey: alertsKey(orgId) });
    },
    meta: { errorKey: 'alerts.changeFailed' },
  });

  const open = alert.state !== 'ESCALATED';
  const detail = alert.details as { field?: string; value?: string };
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {alert.title}
        </Title>
        <Group gap="xs">
          <SeverityBadge severity={alert.severity} />
          <StateBadge state={alert.state} />
          <Badge variant="outline">{t(`alerts.kinds.${alert.kind}`)}</Badge>
        </Group>
      </Stack>
      <Table variant="vertical" withTableBorder>
        <Table.Tbody>
          <Row label={t('alerts.firedAt')} value={dateFormat.format(new Date(alert.firedAt))} />
          {alert.triggerName && <Row label={t('alerts.trigger')} value={alert.triggerName} />}
          {detail.value && (
            <Row label={t('alerts.indicator')} value={`${detail.value} (${detail.field ?? ''})`} />
          )}
          <Row label={t('alerts.matchCount')} value={String(alert.matchCount)} />
          {alert.ticketSlug && (
            <Table.Tr>
              <Table.Th w={180}>{t('alerts.incident')}</Table.Th>
              <Table.Td>
                <TicketLink ticket={{ kind: 'incident', slug: alert.ticketSlug }} />
              </Table.Td>
            </Table.Tr>
          )}
          {alert.dismissalReason && (
            <Row
              label={t('alerts.reason')}
              value={[t(`alerts.reasons.${alert.dismissalReason}`), alert.dismissalNotes]
                .filter(Boolean)
                .join(': ')}
            />
          )}
          {alert.fraudType && (
            <Row
              label={t('alerts.fraudType')}
              value={`${t(`alerts.fraudTypes.${alert.fraudType}`)} (${t(`alerts.certainties.${alert.fraudCertainty ?? 'SUSPECTED'}`)})`}
            />
          )}
        </Table.Tbody>
      </Table>
      {canEdit && open && (
        <Group gap="sm">
          {alert.state !== 'ACKED' && (
            <Button
              loading={change.isPending && dialog === null}
              onClick={() => change.mutate({ state: 'ACKED' })}
            >
              {t('alerts.acknowledge')}
            </Button>
          )}
          {alert.state !== 'DISMISSED' && (
            <Button variant="default" onClick={() => setDialog('dismiss')}>
              {t('alerts.dismiss')}
            </Button>
          )}
          <Button variant="default" onClick={() => setDialog('escalate')}>
            {t('alerts.escalate')}
          </Button>
          {alert.domain === 'fraud' && !alert.ticketId && alert.state !== 'FRAUD_FLAGGED' && (
            <Button variant="default" color="red" onClick={() => setDialog('fraud')}>
              {t('alerts.flag')}
            </Button>
          )}
        </Group>
      )}
      {!open && <Notice color="blue">{t('alerts.escalatedFrozen')}</Notice>}

      <Group justify="space-between">
        <Title order={3} size="h5">
          {t('alerts.events')}
        </Title>
        <Button size="compact-sm" variant="subtle" onClick={() => setShowEvents((shown) => !shown)}>
          {showEvents ? t('alerts.hideEvents') : t('alerts.showEvents')}
        </Button>
      </Group>
      {showEvents && <AlertEvents orgId={orgId} alertId={alert.id} />}

      <Title order={3} size="h5">
        {t('alerts.history')}
      </Title>
      {alert.history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('alerts.noHistory')}
        </Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alerts.changedAt')}</Table.Th>
              <Table.Th>{t('alerts.change')}</Table.Th>
              <Table.Th>{t('alerts.changedBy')}</Table.Th>
              <Table.Th>{t('alerts.reason')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {alert.history.map((entry) => (
              <Table.Tr key={`${entry.changedAt}-${entry.toState}`}>
                <Table.Td>{dateFormat.format(new Date(entry.changedAt))}</Table.Td>
                <Table.Td>
                  {t(`alerts.states.${entry.fromState}`)} → {t(`alerts.states.${entry.toState}`)}
                </Table.Td>
                <Table.Td>{entry.changedByName ?? '—'}</Table.Td>
                <Table.Td>{[entry.reason, entry.notes].filter(Boolean).join(': ') || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm" c="dimmed">
        {alert.viewers.length === 0
          ? t('alerts.noViewers')
          : t('alerts.viewedBy', { names: alert.viewers.map((viewer) => viewer.name ?? '—').join(', ') })}
      </Text>
      <SimilarAlerts orgId={orgId} alertId={alert.id} />
      {showsActions && alert.kind === 'TRIGGER' && <PendingActions alertId={alert.id} />}

      {dialog === 'dismiss' && (
        <DismissDialog
          count={1}
          loading={change.isPending}
          onClose={() => setDialog(null)}
          onSubmit={(values) => change.mutate({ state: 'DISMISSED', ...values })}
        />
      )}
      {dialog === 'escalate' && (
        <EscalateDialog
          count={1}
          canCreate={canCreateIncident}
          loading={change.isPending || escalateNew.isPending}
          onClose={() => setDialog(null)}
          onSubmit={(values) =>
            values.mode === 'new'
              ? escalateNew.mutate({ ids: [alert.id], title: values.title })
              : change.mutate({ state: 'ESCALATED', ticketSlug: values.ticketSlug })
          }
        />
      )}
      {dialog === 'fraud' && (
        <FraudDialog
          loading={change.isPending}
          onClose={() => setDialog(null)}
          onSubmit={(values) => change.mutate({ state: 'FRAUD_FLAGGED', ...values })}
        />
      )}
    </Stack>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Th w={180}>{label}</Table.Th>
      <Table.Td>{value}</Table.Td>
    </Table.Tr>
  );
}

function AlertEvents({ orgId, alertId }: { orgId: string; alertId: string }) {
  const { t, i18n } = useTranslation();
  const events = useQuery(alertEventsQuery(orgId, alertId));
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  if (events.isPending) return <LoadingLine label={t('alerts.loadingEvents')} />;
  if (events.isError) {
    return (
      <LoadFailed
        title={t('alerts.eventsFailed')}
        error={events.error}
        onRetry={() => void events.refetch()}
      />
    );
  }
  const { items, stored } = events.data;
  return (
    <Stack gap="xs">
      {items.length < stored && (
        <Text size="sm" c="dimmed">
          {t('alerts.eventsRestricted', { count: stored - items.length })}
        </Text>
      )}
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('alerts.noEvents')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('alerts.eventTime')}</Table.Th>
                <Table.Th>{t('alerts.eventHost')}</Table.Th>
                <Table.Th>{t('alerts.eventSource')}</Table.Th>
                <Table.Th>{t('alerts.eventMessage')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{dateFormat.format(new Date(event.timestamp))}</Table.Td>
                  <Table.Td>{event.host ?? event.srcIp ?? '—'}</Table.Td>
                  <Table.Td>{event.dataSource ?? '—'}</Table.Td>
                  <Table.Td>{event.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function SimilarAlerts({ orgId, alertId }: { orgId: string; alertId: string }) {
  const { t, i18n } = useTranslation();
  const similar = useQuery(similarAlertsQuery(orgId, alertId));
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  if (similar.isPending) return <LoadingLine label={t('alerts.loadingSimilar')} />;
  if (similar.isError) {
    return (
      <LoadFailed
        title={t('alerts.similarFailed')}
        error={similar.error}
        onRetry={() => void similar.refetch()}
      />
    );
  }
  if (similar.data.total === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('alerts.similar', { count: similar.data.total })}
      </Title>
      {similar.data.items.map((item) => (
        <Group key={item.id} gap="xs">
          <StateBadge state={item.state} />
          <Text size="sm">{item.title}</Text>
          <Text size="xs" c="dimmed">
            {dateFormat.format(new Date(item.firedAt))}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
