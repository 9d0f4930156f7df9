import {
  Badge,
  Button,
  Drawer,
  EmptyState,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconShieldLock } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { expandPermissions, type Role } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission, usePermissions } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { accessKey, orgPath, rolesQuery } from './access-queries';
import { RoleForm } from './role-form';
import { useIsProviderStaff } from './user-drawer';
import { ListStates } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/roles')({
  component: RolesPage,
});

/** Settings > Roles: the shared roles and the organisation's custom roles (Users covers roles). */
function RolesPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.tabs.roles')} allowed={useHasPermission('USER_VIEW')}>
      <RolesList />
    </GatedPage>
  );
}

type Editing = { role: Role | null } | null;

function RolesList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('USER_EDIT');
  const held = usePermissions();
  const providerStaff = useIsProviderStaff();
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [includeTracRoles, setIncludeTracRoles] = useState(false);
  const roles = useQuery(rolesQuery(orgId, { includeDeleted, includeTracRoles }));
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: (role: Role) =>
      apiFetch(`${orgPath(orgId)}/role/custom/${encodeURIComponent(role.id)}/restore`, { method: 'POST' }),
    meta: { errorKey: 'settings.roles.restoreFailed' },
    onSuccess: () => {
      notifyMessage('settings.roles.restored');
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
    },
  });
  // A custom role holding more than the administrator is not theirs to change.
  const mayChange = (role: Role) =>
    canEdit && !role.shared && [...expandPermissions(role.permissions)].every((code) => held.has(code));
  const createButton = canEdit && (
    <Button leftSection={<IconPlus size={16} stroke={1.5} />} onClick={() => setEditing({ role: null })}>
      {t('settings.roles.create')}
    </Button>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group>
          <Switch
            label={t('settings.roles.showDeleted')}
            checked={includeDeleted}
            onChange={(event) => setIncludeDeleted(event.currentTarget.checked)}
          />
          {providerStaff && (
            <Switch
              label={t('settings.roles.showProvider')}
              checked={includeTracRoles}
              onChange={(event) => setIncludeTracRoles(event.currentTarget.checked)}
            />
          )}
        </Group>
        {createButton}
      </Group>
      <ListStates
        query={roles}
        loadingLabel={t('settings.roles.loading')}
        failedTitle={t('settings.roles.loadFailed')}
        empty={
          <EmptyState
            icon={<IconShieldLock size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('settings.roles.emptyTitle')}
            description={t('settings.roles.emptyMessage')}
          />
        }
      >
        {(data) => (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settings.roles.name')}</Table.Th>
                  <Table.Th>{t('settings.roles.description')}</Table.Th>
                  <Table.Th>{t('settings.roles.users')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((role) => (
                  <Table.Tr key={role.id}>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm" fw={500} td={role.deleted ? 'line-through' : undefined}>
                          {role.name}
                        </Text>
                        <Badge size="xs" variant="light" color={role.shared ? 'gray' : 'blue'}>
                          {t(
                            role.provider
                              ? 'settings.roles.provider'
                              : role.shared
                                ? 'settings.roles.shared'
                                : 'settings.roles.custom',
                          )}
                        </Badge>
                        {role.deleted && (
                          <Badge size="xs" variant="light" color="red">
                            {t('settings.roles.deleted')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed" lineClamp={2}>
                        {role.description}
                      </Text>
                    </Table.Td>
                    <Table.Td>{role.userCount}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {role.deleted ? (
                          mayChange(role) && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              loading={restore.isPending && restore.variables.id === role.id}
                              onClick={() => restore.mutate(role)}
                              aria-label={t('settings.roles.restoreNamed', { name: role.name })}
                            >
                              {t('settings.roles.restore')}
                            </Button>
                          )
                        ) : (
                          <>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              onClick={() => setEditing({ role })}
                              aria-label={t(
                                mayChange(role) ? 'settings.roles.editNamed' : 'settings.roles.viewNamed',
                                {
                                  name: role.name,
                                },
                              )}
                            >
                              {t(mayChange(role) ? 'common.edit' : 'settings.roles.view')}
                            </Button>
                            {mayChange(role) && (
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                color="red"
                                onClick={() => setDeleting(role)}
                                aria-label={t('settings.roles.deleteNamed', { name: role.name })}
                              >
                                {t('settings.roles.delete')}
                              </Button>
                            )}
                          </>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ListStates>
      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size="xl"
        title={
          editing?.role
            ? t(mayChange(editing.role) ? 'settings.roles.editTitle' : 'settings.roles.viewTitle', {
                name: editing.role.name,
              })
            : t('settings.roles.createTitle')
        }
      >
        {editing && (
          <RoleForm
            key={editing.role?.id ?? 'new'}
            orgId={orgId}
            role={editing.role}
            readOnly={editing.role !== null && !mayChange(editing.role)}
            onDone={() => setEditing(null)}
          />
        )}
      </Drawer>
      {deleting && (
        <DeleteRoleDialog
          orgId={orgId}
          role={deleting}
          targets={(roles.data?.items ?? []).filter((role) => !role.deleted && role.id !== deleting.id)}
          onDone={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}

/** Deleting a role in use asks where its users go; both happen together on the server. */
function DeleteRoleDialog({
  orgId,
  role,
  targets,
  onDone,
}: {
  orgId: string;
  role: Role;
  targets: Role[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const held = usePermissions();
  const [targetRoleId, setTargetRoleId] = useState<string | null>(null);
  const inUse = role.userCount > 0;
  const remove = useMutation({
    mutationFn: () =>
      apiFetch(
        `${orgPath(orgId)}/role/custom/${encodeURIComponent(role.id)}${inUse && targetRoleId ? `?targetRoleId=${encodeURIComponent(targetRoleId)}` : ''}`,
        { method: 'DELETE' },
      ),
    meta: { errorKey: 'settings.roles.deleteFailed' },
    onSuccess: () => {
      notifyMessage('settings.roles.deletedDone');
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
      onDone();
    },
  });
  return (
    <Modal opened onClose={onDone} title={t('settings.roles.deleteTitle', { name: role.name })} centered>
      <Stack gap="md">
        <Text size="sm">
          {inUse
            ? t('settings.roles.deleteInUse', { count: role.userCount })
            : t('settings.roles.deleteUnused')}
        </Text>
        {inUse && (
          <Select
            label={t('settings.roles.targetRole')}
            required
            data={targets.map((target) => ({
              value: target.id,
              label: target.name,
              disabled: [...expandPermissions(target.permissions)].some((code) => !held.has(code)),
            }))}
            value={targetRoleId}
            onChange={setTargetRoleId}
            searchable
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            disabled={inUse && !targetRoleId}
            onClick={() => remove.mutate()}
          >
            {t('settings.roles.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
