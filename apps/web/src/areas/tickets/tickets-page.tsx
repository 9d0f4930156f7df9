import {
  Badge,
  Button,
  EmptyState,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconPlus, IconSearch, IconTicket } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  DEFAULT_PAGE_SIZE,
  TICKET_FILTERS,
  type TicketFilter,
  type TicketKind,
  type TicketSortField,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { SortableHeader } from '../../shell/sortable-header';
import { orgPath } from '../assets/queries';
import { CreateTicketDialog } from './create-ticket-dialog';
import { TicketLink, TicketStateBadge } from './ticket-badges';
import { TICKET_LIST_PATH, ticketSearchParams, ticketsQuery } from './tickets';

export const VIEW_PERMISSION = { incident: 'INCIDENT_VIEW', task: 'TASK_VIEW' } as const;
export const EDIT_PERMISSION = { incident: 'INCIDENT_EDIT', task: 'TASK_EDIT' } as const;

/** Incidents (/tickets/incident, INCIDENT_VIEW) or tasks (/tickets/task, TASK_VIEW). */
export function TicketsPage({ kind }: { kind: TicketKind }) {
  const { t } = useTranslation();
  const allowed = useHasPermission(VIEW_PERMISSION[kind]);
  return (
    <GatedPage title={t(`tickets.${kind}.title`)} allowed={allowed} maw={1400}>
      <TicketList kind={kind} />
    </GatedPage>
  );
}

function TicketList({ kind }: { kind: TicketKind }) {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const navigate = useNavigate();
  const canEdit = useHasPermission(EDIT_PERMISSION[kind]);
  const canSeeOther = useHasPermission(VIEW_PERMISSION[kind === 'incident' ? 'task' : 'incident']);
  const [filter, setFilter] = useState<TicketFilter>('open');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<{ sortBy: TicketSortField; desc: boolean }>({
    sortBy: 'number',
    desc: true,
  });
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = useQuery(
    ticketsQuery(orgId, kind, { filter, q, ...sort, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const download = useMutation({
    mutationFn: async () => {
      const search = ticketSearchParams({ filter, q, ...sort });
      const blob = await apiFetchFile(`${orgPath(orgId)}/${TICKET_LIST_PATH[kind]}-csv?${search.toString()}`);
      saveBlob(blob, `${TICKET_LIST_PATH[kind]}.csv`);
    },
    meta: { errorKey: 'tickets.downloadFailed' },
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const date = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '—');
  const header = (field: TicketSortField, label: string) => (
    <SortableHeader
      sorted={sort.sortBy === field}
      desc={sort.desc}
      onSort={() => {
        setSort((current) => ({ sortBy: field, desc: current.sortBy === field ? !current.desc : false }));
        setPageNumber(1);
      }}
    >
      {label}
    </SortableHeader>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          {canSeeOther && (
            <SegmentedControl
              aria-label={t('tickets.kind')}
              value={kind}
              onChange={(value) =>
                void navigate({ to: value === 'incident' ? '/tickets/incident' : '/tickets/task' })
              }
              data={(['incident', 'task'] as const).map((value) => ({
                value,
                label: t(`tickets.${value}.title`),
              }))}
            />
          )}
          <TextInput
            label={t('tickets.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPageNumber(1);
            }}
            w={280}
          />
        </Group>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('tickets.download')}
          </Button>
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t(`tickets.${kind}.new`)}
            </Button>
          )}
        </Group>
      </Group>
      <Tabs
        value={filter}
        onChange={(value) => {
          if (!value) return;
          setFilter(value as TicketFilter);
          setPageNumber(1);
        }}
      >
        <Tabs.List aria-label={t('tickets.filter')}>
          {TICKET_FILTERS.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`tickets.filters.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <ListStates
        query={list}
        loadingLabel={t('tickets.loading')}
        failedTitle={t('tickets.loadFailed')}
        empty={
          <EmptyState
            icon={<IconTicket size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t(`tickets.${kind}.emptyTitle`)}
            description={q || filter !== 'all' ? t('tickets.noMatch') : t(`tickets.${kind}.emptyMessage`)}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    {header('number', t('tickets.slug'))}
                    {header('title', t('tickets.titleField'))}
                    {header('state', t('tickets.state'))}
                    <Table.Th>{t('tickets.owner')}</Table.Th>
                    {header('dueDate', t('tickets.dueDate'))}
                    {header('slaDate', t('tickets.slaDate'))}
                    {header('modifiedOn', t('tickets.modifiedOn'))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((ticket) => (
                    <Table.Tr key={ticket.id}>
                      <Table.Td>
                        <TicketLink ticket={ticket} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{ticket.title}</Text>
                        {ticket.externalId && (
                          <Badge size="xs" variant="outline">
                            {ticket.externalId}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <TicketStateBadge state={ticket.state} />
                      </Table.Td>
                      <Table.Td>{ticket.ownerName ?? t('tickets.unowned')}</Table.Td>
                      <Table.Td>{date(ticket.dueDate)}</Table.Td>
                      <Table.Td>{date(ticket.slaDate)}</Table.Td>
                      <Table.Td>{date(ticket.modifiedOn)}</Table.Td>
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
      {creating && <CreateTicketDialog orgId={orgId} kind={kind} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
