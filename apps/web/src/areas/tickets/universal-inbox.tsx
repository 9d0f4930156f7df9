import {
  Alert as Notice,
  Button,
  Checkbox,
  EmptyState,
  Group,
  List,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  TICKET_BULK_CLOSE_MAX,
  ticketBulkCloseResultSchema,
  type TicketBulkCloseResult,
  type TicketKind,
  type UniversalTicket,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useFeature } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { orgPath } from '../assets/queries';
import {
  TicketFilterTabs,
  TicketKindSwitch,
  TicketSearchInput,
  TicketTable,
  useTicketListControls,
} from './ticket-list-controls';
import { TICKET_LIST_PATH, ticketsKey, universalTicketsQuery } from './tickets';
import { VIEW_PERMISSION } from './tickets-page';

/**
 * The universal ticket inbox (/universal-ticket-inbox/incident and /task; feature
 * universalTicketInbox): the tickets of every organisation the user may read them in, each row
 * naming its organisation, with bulk close.
 */
export function UniversalInboxPage({ kind }: { kind: TicketKind }) {
  const { t } = useTranslation();
  const canView = useHasPermission(VIEW_PERMISSION[kind]);
  const inboxOn = useFeature('universalTicketInbox');
  const allowed = canView && inboxOn;
  return (
    <GatedPage title={t(`tickets.universal.${kind}`)} allowed={allowed} maw={1500}>
      <UniversalList kind={kind} />
    </GatedPage>
  );
}

const keyOf = (ticket: Pick<UniversalTicket, 'orgId' | 'id'>) => `${ticket.orgId}/${ticket.id}`;

function UniversalList({ kind }: { kind: TicketKind }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const controls = useTicketListControls();
  const { filter, q, sort, pageNumber, setPageNumber } = controls;
  const [selected, setSelected] = useState<Map<string, UniversalTicket>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{
    result: TicketBulkCloseResult;
    tickets: UniversalTicket[];
  } | null>(null);
  const list = useQuery(
    universalTicketsQuery(orgId, kind, { filter, q, ...sort, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const close = useMutation({
    mutationFn: (tickets: UniversalTicket[]) =>
      apiFetch(`${orgPath(orgId)}/universal-inbox/${TICKET_LIST_PATH[kind]}/close`, {
        method: 'POST',
        body: { tickets: tickets.map(({ orgId, id, version }) => ({ orgId, id, version })) },
        schema: ticketBulkCloseResultSchema,
      }),
    onSuccess: async (result, tickets) => {
      setConfirming(false);
      setSelected(new Map());
      setOutcome({ result, tickets });
      await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
    },
    meta: { errorKey: 'tickets.universal.closeFailed' },
  });
  const toggle = (ticket: UniversalTicket) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(keyOf(ticket))) next.delete(keyOf(ticket));
      else next.set(keyOf(ticket), ticket);
      return next;
    });
  const chosen = [...selected.values()];
  const failures = outcome?.result.results.filter((result) => result.outcome !== 'closed') ?? [];
  const nameOf = (result: TicketBulkCloseResult['results'][number]) => {
    const ticket = outcome?.tickets.find((entry) => keyOf(entry) === keyOf(result));
    return `${ticket?.orgName ?? ''} ${result.slug ?? ticket?.slug ?? ''}`.trim();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TicketKindSwitch kind={kind} universal />
          <TicketSearchInput controls={controls} />
        </Group>
        <Button
          disabled={chosen.length === 0 || chosen.length > TICKET_BULK_CLOSE_MAX}
          onClick={() => setConfirming(true)}
        >
          {t('tickets.universal.closeSelected', { count: chosen.length })}
        </Button>
      </Group>
      {outcome && (
        <Notice
          color={failures.length > 0 ? 'yellow' : 'green'}
          title={t('tickets.universal.closedSome', {
            closed: outcome.result.closed,
            failed: outcome.result.failed,
          })}
          withCloseButton
          onClose={() => setOutcome(null)}
        >
          {failures.length > 0 && (
            <List size="sm" aria-label={t('tickets.universal.notClosed')}>
              {failures.map((result) => (
                <List.Item key={keyOf(result)}>
                  {nameOf(result)}:{' '}
                  {t(`tickets.universal.reasons.${result.outcome}`, { defaultValue: t(result.outcome) })}
                </List.Item>
              ))}
            </List>
          )}
        </Notice>
      )}
      <TicketFilterTabs controls={controls} />
      <ListStates
        query={list}
        loadingLabel={t('tickets.loading')}
        failedTitle={t('tickets.loadFailed')}
        empty={
          <EmptyState
            icon={<IconInbox size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t(`tickets.${kind}.emptyTitle`)}
            description={q || filter !== 'all' ? t('tickets.noMatch') : t('tickets.universal.empty')}
          />
        }
      >
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {t('tickets.universal.orgs', { names: data.orgs.map((org) => org.name).join(', ') })}
            </Text>
            <TicketTable
              items={data.items}
              controls={controls}
              linkOrg={(ticket) => ticket.orgId}
              leading={[
                {
                  key: 'select',
                  header: <VisuallyHidden>{t('tickets.universal.select')}</VisuallyHidden>,
                  cell: (ticket) => (
                    <Checkbox
                      aria-label={t('tickets.universal.selectNamed', {
                        slug: ticket.slug,
                        org: ticket.orgName,
                      })}
                      checked={selected.has(keyOf(ticket))}
                      onChange={() => toggle(ticket)}
                    />
                  ),
                },
                { key: 'org', header: t('tickets.universal.org'), cell: (ticket) => ticket.orgName },
              ]}
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
      <ConfirmDialog
        opened={confirming}
        title={t('tickets.universal.closeTitle')}
        message={t('tickets.universal.closeMessage', {
          count: chosen.length,
          names: chosen.map((ticket) => `${ticket.orgName} ${ticket.slug}`).join(', '),
        })}
        confirmLabel={t('tickets.universal.close')}
        loading={close.isPending}
        onConfirm={() => close.mutate(chosen)}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
