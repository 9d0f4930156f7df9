import { Badge, Button, Checkbox, EmptyState, Group, Stack, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconSearch } from '@tabler/icons-react';
import { useMutation, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE, riskCopyResultSchema } from '@vigil/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { SortableHeader } from '../../shell/sortable-header';
import { useProviderAdmin } from '../reports/library-view';
import { riskKey } from './api';
import { useRiskModules } from './module-badges';

/** The registers with a provider library: their path under the organisation. */
export type RegisterKind = 'risks' | 'controls' | 'inventory';

/** Whether the caller writes the provider's risk libraries: provider administrators with RISK_EDIT. */
export function useLibraryEditor(): boolean {
  const canEdit = useHasPermission('RISK_EDIT');
  return useProviderAdmin() && canEdit;
}

/**
 * Copies library items into the register, then says how many were copied and which the register held
 * already (skipped).
 */
export function useLibraryCopy(kind: RegisterKind, onCopied?: () => void) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      apiFetch(`${orgPath(orgId)}/${kind}/library/copy`, {
        method: 'POST',
        body: { ids },
        schema: riskCopyResultSchema,
      }),
    onSuccess: async (result) => {
      onCopied?.();
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      notifications.show({
        color: 'green',
        message: t('risk.library.copied', { count: result.copied.length }),
      });
      if (result.alreadyInRegister.length > 0) {
        notifications.show({
          color: 'yellow',
          message: t('RISK_COPY_ALREADY_IN_REGISTER', {
            0: result.alreadyInRegister.map((item) => item.name).join(', '),
          }),
        });
      }
    },
    meta: { errorKey: 'risk.library.copyFailed' },
  });
}

/**
 * The state of a register or library list: its search (debounced), sort, page, the items chosen for
 * a copy from the library and the copy itself.
 */
export function useRegisterList(kind: RegisterKind, library: boolean) {
  const orgId = useCurrentOrgId() ?? '';
  const held = useRiskModules();
  const canEdit = useHasPermission('RISK_EDIT');
  const libraryEditor = useLibraryEditor();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState({ sortBy: 'number', desc: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [chosen, setChosen] = useState<string[]>([]);
  const copy = useLibraryCopy(kind, () => setChosen([]));
  /** A filter's setter that also goes back to the first page. */
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPageNumber(1);
    };
  return {
    orgId,
    library,
    /** Whether the caller creates and changes the list's items. */
    mayWrite: library ? libraryEditor : canEdit,
    /** Copying needs a risk product to copy into. */
    canCopy: library && canEdit && held.length > 0,
    search,
    setSearch: filter(setSearch),
    q,
    /** The search, sort and page of the list query. */
    params: { q, ...sort, pageNumber, pageSize: DEFAULT_PAGE_SIZE },
    sort,
    sortBy: (field: string) => {
      setSort((current) => ({ sortBy: field, desc: current.sortBy === field ? !current.desc : false }));
      setPageNumber(1);
    },
    pageNumber,
    setPageNumber,
    chosen,
    choose: (id: string, on: boolean) =>
      setChosen((current) => (on ? [...current, id] : current.filter((other) => other !== id))),
    copy,
    filter,
  };
}

export type RegisterListState = ReturnType<typeof useRegisterList>;

type Item = { id: string; name: string; inRegister?: boolean };

/**
 * A register or library list: the search with the page's own filters, its actions and the copy from
 * the library, then the loading, failed and empty states or the table with its sortable headers,
 * a choice box per item when copying and, in the library, which items the register holds already.
 */
export function RegisterList<T extends Item>({
  list,
  query,
  filters,
  actions,
  above,
  failedTitle,
  empty,
  filtered = false,
  head,
  row,
}: {
  list: RegisterListState;
  query: UseQueryResult<{ items: T[]; total: number }>;
  /** Filter inputs beside the search. */
  filters?: ReactNode;
  /** Buttons before the copy button. */
  actions?: ReactNode;
  /** Shown between the search and the table. */
  above?: ReactNode;
  failedTitle: string;
  empty: { icon: ReactNode; title: string; message: string };
  /** Whether a filter other than the search is narrowing the list. */
  filtered?: boolean;
  /** The header cells, given a maker of sortable ones. */
  head: (sortable: (field: string, label: string) => ReactNode) => ReactNode;
  /** The cells of one item. */
  row: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const sortable = (field: string, label: string) => (
    <SortableHeader
      sorted={list.sort.sortBy === field}
      desc={list.sort.desc}
      onSort={() => list.sortBy(field)}
    >
      {label}
    </SortableHeader>
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('risk.search')}
            leftSection={<IconSearch size={16} />}
            value={list.search}
            onChange={(event) => list.setSearch(event.currentTarget.value)}
          />
          {filters}
        </Group>
        <Group>
          {actions}
          {list.canCopy && (
            <Button
              leftSection={<IconCopy size={16} />}
              disabled={list.chosen.length === 0}
              loading={list.copy.isPending}
              onClick={() => list.copy.mutate(list.chosen)}
            >
              {t('risk.library.copy', { count: list.chosen.length })}
            </Button>
          )}
        </Group>
      </Group>
      {above}
      <ListStates
        query={query}
        loadingLabel={t('risk.loading')}
        failedTitle={failedTitle}
        empty={
          <EmptyState
            icon={empty.icon}
            withIndicatorBackground
            title={empty.title}
            description={list.q || filtered ? t('risk.noMatch') : empty.message}
          />
        }
      >
        {(data) => (
          <>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  {list.canCopy && <Table.Th w={40} />}
                  {head(sortable)}
                  {list.library && <Table.Th>{t('risk.library.register')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((item) => (
                  <Table.Tr key={item.id}>
                    {list.canCopy && (
                      <Table.Td>
                        <Checkbox
                          aria-label={t('risk.library.choose', { name: item.name })}
                          checked={list.chosen.includes(item.id)}
                          onChange={(event) => list.choose(item.id, event.currentTarget.checked)}
                        />
                      </Table.Td>
                    )}
                    {row(item)}
                    {list.library && (
                      <Table.Td>
                        {item.inRegister && (
                          <Badge variant="light" color="teal">
                            {t('risk.library.inRegister')}
                          </Badge>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager
              page={list.pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={list.setPageNumber}
            />
          </>
        )}
      </ListStates>
    </Stack>
  );
}
