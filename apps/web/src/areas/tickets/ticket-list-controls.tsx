import { Badge, SegmentedControl, Table, Tabs, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import {
  TICKET_FILTERS,
  type Ticket,
  type TicketFilter,
  type TicketKind,
  type TicketSortField,
} from '@vigil/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SortableHeader } from '../../shell/sortable-header';
import { useHasPermission } from '../../lib/session';
import { TicketLink, TicketStateBadge } from './ticket-badges';

/**
 * The filter, search, sort and page of a ticket list (an organisation's or the universal inbox):
 * changing any of the first three goes back to the first page.
 */
export function useTicketListControls() {
  const [filter, setFilterState] = useState<TicketFilter>('open');
  const [search, setSearchState] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<{ sortBy: TicketSortField; desc: boolean }>({
    sortBy: 'number',
    desc: true,
  });
  const [pageNumber, setPageNumber] = useState(1);
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
  return {
    filter,
    setFilter: (value: TicketFilter) => {
      setFilterState(value);
      setPageNumber(1);
    },
    search,
    setSearch: (value: string) => {
      setSearchState(value);
      setPageNumber(1);
    },
    q,
    sort,
    header,
    pageNumber,
    setPageNumber,
  };
}

export type TicketListControls = ReturnType<typeof useTicketListControls>;

export function TicketSearchInput({ controls }: { controls: TicketListControls }) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('tickets.search')}
      leftSection={<IconSearch size={16} />}
      value={controls.search}
      onChange={(event) => controls.setSearch(event.currentTarget.value)}
      w={280}
    />
  );
}

export function TicketFilterTabs({ controls }: { controls: TicketListControls }) {
  const { t } = useTranslation();
  return (
    <Tabs value={controls.filter} onChange={(value) => value && controls.setFilter(value as TicketFilter)}>
      <Tabs.List aria-label={t('tickets.filter')}>
        {TICKET_FILTERS.map((value) => (
          <Tabs.Tab key={value} value={value}>
            {t(`tickets.filters.${value}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

interface LeadingColumn<T> {
  key: string;
  header: ReactNode;
  cell: (ticket: T) => ReactNode;
}

/** The tickets of a list page with sortable headers; `leading` columns come before the slug. */
export function TicketTable<T extends Ticket>({
  items,
  controls,
  leading = [],
  linkOrg,
}: {
  items: T[];
  controls: TicketListControls;
  leading?: LeadingColumn<T>[];
  /** The organisation a ticket's link opens it in, when not the current one. */
  linkOrg?: (ticket: T) => string;
}) {
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const date = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '—');
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            {leading.map((column) => (
              <Table.Th key={column.key}>{column.header}</Table.Th>
            ))}
            {controls.header('number', t('tickets.slug'))}
            {controls.header('title', t('tickets.titleField'))}
            {controls.header('state', t('tickets.state'))}
            <Table.Th>{t('tickets.owner')}</Table.Th>
            {controls.header('dueDate', t('tickets.dueDate'))}
            {controls.header('slaDate', t('tickets.slaDate'))}
            {controls.header('modifiedOn', t('tickets.modifiedOn'))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((ticket) => (
            <Table.Tr key={ticket.id}>
              {leading.map((column) => (
                <Table.Td key={column.key}>{column.cell(ticket)}</Table.Td>
              ))}
              <Table.Td>
                <TicketLink ticket={ticket} orgId={linkOrg?.(ticket)} />
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
  );
}

const PATHS = {
  own: { incident: '/tickets/incident', task: '/tickets/task' },
  universal: { incident: '/universal-ticket-inbox/incident', task: '/universal-ticket-inbox/task' },
} as const;

/** Switches between the incident and task lists (own or universal) for those who may read both. */
export function TicketKindSwitch({ kind, universal = false }: { kind: TicketKind; universal?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canSeeOther = useHasPermission(kind === 'incident' ? 'TASK_VIEW' : 'INCIDENT_VIEW');
  if (!canSeeOther) return null;
  return (
    <SegmentedControl
      aria-label={t('tickets.kind')}
      value={kind}
      onChange={(value) => void navigate({ to: PATHS[universal ? 'universal' : 'own'][value as TicketKind] })}
      data={(['incident', 'task'] as const).map((value) => ({ value, label: t(`tickets.${value}.title`) }))}
    />
  );
}
