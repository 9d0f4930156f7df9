import {
  ActionIcon,
  Badge,
  Button,
  Drawer,
  EmptyState,
  Group,
  Menu,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconDownload, IconSearch, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { USER_ACTIVE_FILTERS, type User, type UserActiveFilter, type UserSortField } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { usePreferences } from '../../lib/preferences';
import { useCurrentOrgId, useCurrentUser, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { SortableHeader } from '../../shell/sortable-header';
import { accessKey, orgPath, userSearchParams, usersQuery } from './access-queries';
import { UserDrawerContent } from './user-drawer';
import { ListStates } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/users')({
  component: UsersPage,
});

/** Settings > Users: USER_VIEW to see the organisation's people, USER_EDIT to change them. */
function UsersPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.tabs.users')} allowed={useHasPermission('USER_VIEW')}>
      <UsersList />
    </GatedPage>
  );
}

type Editing = { userId: string | null } | null;
type Confirming = { user: User; action: 'deactivate' | 'delete' } | null;

const SORTABLE: { field: UserSortField; label: string }[] = [
  { field: 'name', label: 'settings.users.name' },
  { field: 'email', label: 'settings.users.email' },
  { field: 'role', label: 'settings.users.role' },
  { field: 'active', label: 'settings.users.status' },
  { field: 'lastLoginAt', label: 'settings.users.lastLogin' },
];

function UsersList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const me = useCurrentUser();
  const canEdit = useHasPermission('USER_EDIT');
  const { pageSize } = usePreferences();
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [debouncedQ] = useDebouncedValue(q, 300);
  const [active, setActive] = useState<UserActiveFilter>('ACTIVE');
  const [sort, setSort] = useState<{ sortBy: UserSortField; desc: boolean }>({ sortBy: 'name', desc: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const search = { q: debouncedQ, active, ...sort, pageNumber, pageSize };
  const users = useQuery({ ...usersQuery(orgId, search), placeholderData: keepPreviousData });

  const act = useMutation({
    mutationFn: ({ user, action }: { user: User; action: 'activate' | 'deactivate' | 'delete' }) =>
      apiFetch(
        `${orgPath(orgId)}/user/${encodeURIComponent(user.id)}${action === 'delete' ? '' : `/${action}`}`,
        {
          method: action === 'delete' ? 'DELETE' : 'POST',
        },
      ),
    onSuccess: (_data, { action }) => {
      notifyMessage(`settings.users.done.${action}`);
      setConfirming(null);
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
    },
  });

  const toggleSort = (field: UserSortField) => {
    setSort((current) => ({ sortBy: field, desc: current.sortBy === field ? !current.desc : false }));
    setPageNumber(1);
  };
  const total = users.data?.total ?? 0;
  const csvHref = `${orgPath(orgId)}/users-csv?${userSearchParams({ q: debouncedQ, active, ...sort })}`;
  const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('settings.users.search')}
            placeholder={t('settings.users.searchPlaceholder')}
            leftSection={<IconSearch size={16} stroke={1.5} />}
            value={q}
            onChange={(event) => {
              setQ(event.currentTarget.value);
              setPageNumber(1);
            }}
            w={280}
          />
          <SegmentedControl
            aria-label={t('settings.users.activeFilter')}
            data={USER_ACTIVE_FILTERS.map((value) => ({ value, label: t(`settings.users.filter.${value}`) }))}
            value={active}
            onChange={(value) => {
              setActive(value as UserActiveFilter);
              setPageNumber(1);
            }}
          />
        </Group>
        <Group>
          <Button
            component="a"
            href={csvHref}
            download
            variant="default"
            leftSection={<IconDownload size={16} />}
          >
            {t('settings.users.exportCsv')}
          </Button>
          {canEdit && (
            <Button
              leftSection={<IconUserPlus size={16} stroke={1.5} />}
              onClick={() => setEditing({ userId: null })}
            >
              {t('settings.users.create')}
            </Button>
          )}
        </Group>
      </Group>

      <ListStates
        query={users}
        loadingLabel={t('settings.users.loading')}
        failedTitle={t('settings.users.loadFailed')}
        empty={
          <EmptyState
            icon={<IconUsers size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('settings.users.emptyTitle')}
            description={t(
              debouncedQ || active !== 'ACTIVE'
                ? 'settings.users.emptyFiltered'
                : 'settings.users.emptyMessage',
            )}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {SORTABLE.map(({ field, label }) => (
                      <SortableHeader
                        key={field}
                        sorted={sort.sortBy === field}
                        desc={sort.desc}
                        onSort={() => toggleSort(field)}
                      >
                        {t(label)}
                      </SortableHeader>
                    ))}
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((user) => (
                    <Table.Tr key={user.id}>
                      <Table.Td>
                        <UnstyledButton
                          onClick={() => setEditing({ userId: user.id })}
                          aria-label={t('settings.users.openNamed', { name: user.fullName })}
                        >
                          <Text size="sm" fw={500} c="blue">
                            {user.fullName}
                          </Text>
                        </UnstyledButton>
                        {user.username && (
                          <Text size="xs" c="dimmed">
                            {user.username}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{user.email}</Table.Td>
                      <Table.Td>{user.roleName}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={user.active ? 'green' : 'gray'}>
                          {t(user.active ? 'settings.users.active' : 'settings.users.inactive')}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {user.lastLoginAt
                          ? dateTime.format(new Date(user.lastLoginAt))
                          : t('settings.users.never')}
                      </Table.Td>
                      <Table.Td>
                        {canEdit && user.id !== me?.id && (
                          <Menu position="bottom-end">
                            <Menu.Target>
                              <ActionIcon
                                variant="subtle"
                                aria-label={t('settings.users.actionsNamed', { name: user.fullName })}
                              >
                                <IconDots size={16} />
                              </ActionIcon>
                            </Menu.Target>
                            <Menu.Dropdown>
                              <Menu.Item onClick={() => setEditing({ userId: user.id })}>
                                {t('common.edit')}
                              </Menu.Item>
                              {user.active ? (
                                <Menu.Item onClick={() => setConfirming({ user, action: 'deactivate' })}>
                                  {t('settings.users.deactivate')}
                                </Menu.Item>
                              ) : (
                                <Menu.Item onClick={() => act.mutate({ user, action: 'activate' })}>
                                  {t('settings.users.activate')}
                                </Menu.Item>
                              )}
                              <Menu.Item
                                color="red"
                                onClick={() => setConfirming({ user, action: 'delete' })}
                              >
                                {t('settings.users.delete')}
                              </Menu.Item>
                            </Menu.Dropdown>
                          </Menu>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager page={pageNumber} pageSize={pageSize} total={total} onChange={setPageNumber} />
          </>
        )}
      </ListStates>

      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size="lg"
        title={t(
          editing?.userId
            ? canEdit
              ? 'settings.users.editTitle'
              : 'settings.users.viewTitle'
            : 'settings.users.createTitle',
        )}
      >
        {editing && (
          <UserDrawerContent
            key={editing.userId ?? 'new'}
            orgId={orgId}
            userId={editing.userId}
            onDone={() => setEditing(null)}
          />
        )}
      </Drawer>
      <ConfirmDialog
        opened={confirming !== null}
        title={t(`settings.users.confirm.${confirming?.action ?? 'delete'}Title`, {
          name: confirming?.user.fullName,
        })}
        message={t(`settings.users.confirm.${confirming?.action ?? 'delete'}Message`)}
        confirmLabel={t(`settings.users.${confirming?.action ?? 'delete'}`)}
        loading={act.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) act.mutate(confirming);
        }}
      />
    </Stack>
  );
}
