import {
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconLayoutGrid, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  DEFAULT_PAGE_SIZE,
  displayName,
  workspaceLibraryCopyResultSchema,
  type Workspace,
  type WorkspaceLabel,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useOrgContext } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { orgPath } from '../assets/queries';
import { WorkspaceDialog } from './workspace-dialog';
import { workspacePath, workspacesKey, workspacesQuery } from './workspace-api';

export const workspacesRoute = createLazyRoute('/dashboards/workspace-tiles')({
  component: WorkspacesPage,
});
export const libraryWorkspacesRoute = createLazyRoute('/dashboards/library/workspace-tiles')({
  component: LibraryWorkspacesPage,
});

/** /dashboards/workspace-tiles: the workspaces the user owns or that are shared with them. */
function WorkspacesPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('workspaces.title')} allowed={useHasPermission('DASHBOARD_VIEW')} maw={1200}>
      <WorkspaceBrowser library={false} />
    </GatedPage>
  );
}

/** /dashboards/library/workspace-tiles: the provider's workspaces, copied by default to customers. */
function LibraryWorkspacesPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('workspaces.libraryTitle')} allowed={useHasPermission('DASHBOARD_VIEW')} maw={1200}>
      <WorkspaceBrowser library />
    </GatedPage>
  );
}

const LABEL_COLORS: Record<WorkspaceLabel, string> = {
  PERSONAL: 'gray',
  SHARED: 'blue',
  SHARED_WITH_ME: 'cyan',
  PUBLIC: 'teal',
  EDITOR: 'green',
  VIEWER: 'yellow',
  DEFAULT: 'violet',
  PREMIUM_ONLY: 'orange',
};

function Labels({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {workspace.labels.map((label) => (
        <Badge key={label} size="sm" variant="light" color={LABEL_COLORS[label]}>
          {t(`workspaces.labels.${label}`)}
        </Badge>
      ))}
    </Group>
  );
}

function DashboardLinks({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  if (workspace.dashboards.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('workspaces.noDashboards')}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {workspace.dashboards.map((dashboard) => (
        <AnchorLink
          key={dashboard.id}
          size="sm"
          to="/dashboards/$dashboardId/view"
          params={{ dashboardId: dashboard.id }}
          title={dashboard.name}
        >
          {displayName(dashboard.name)}
        </AnchorLink>
      ))}
    </Stack>
  );
}

function WorkspaceBrowser({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('DASHBOARD_EDIT');
  const tracAdmin = useHasPermission('TRAC_ADMIN');
  const providerOrg = Boolean(useOrgContext()?.org.isProvider);
  const providerAdmin = tracAdmin && providerOrg;
  const queryClient = useQueryClient();
  const [view, setView] = useState<'tiles' | 'list'>('tiles');
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Workspace | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Workspace | null>(null);
  const list = useQuery(workspacesQuery(orgId, { library, pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`${workspacePath(orgId, id)}/delete`, { method: 'POST' }),
    onSuccess: async () => {
      notifyMessage('workspaces.done.delete');
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: workspacesKey(orgId) });
    },
    meta: { errorKey: 'workspaces.actionFailed' },
  });
  const copyAll = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/workspaces/library/copy-to-customers`, {
        method: 'POST',
        schema: workspaceLibraryCopyResultSchema,
      }),
    onSuccess: (result) => notifyMessage('workspaces.done.copyAll', 'green', result),
    meta: { errorKey: 'workspaces.actionFailed' },
  });
  const mayCreate = library ? providerAdmin && canEdit : canEdit;

  const actions = (workspace: Workspace) => (
    <Group gap="xs" wrap="nowrap">
      {workspace.editable && (
        <Button
          size="xs"
          variant="subtle"
          aria-label={t('workspaces.editNamed', { name: workspace.name })}
          onClick={() => setEditing(workspace)}
        >
          {t('workspaces.edit')}
        </Button>
      )}
      {workspace.editable && (workspace.owned || workspace.ownerId === null) && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          aria-label={t('workspaces.deleteNamed', { name: workspace.name })}
          onClick={() => setDeleting(workspace)}
        >
          {t('workspaces.delete')}
        </Button>
      )}
    </Group>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('workspaces.view')}
          value={view}
          onChange={(value) => setView(value as 'tiles' | 'list')}
          data={[
            { value: 'tiles', label: t('workspaces.tilesView') },
            { value: 'list', label: t('workspaces.listView') },
          ]}
        />
        <Group>
          {library && providerAdmin && (
            <Button variant="light" loading={copyAll.isPending} onClick={() => copyAll.mutate()}>
              {t('workspaces.copyToCustomers')}
            </Button>
          )}
          {mayCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t('workspaces.new')}
            </Button>
          )}
        </Group>
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('workspaces.loading')}
        failedTitle={t('workspaces.loadFailed')}
        empty={
          <EmptyState
            icon={<IconLayoutGrid size={32} stroke={1.5} />}
            withIndicatorBackground
            title={library ? t('workspaces.libraryEmpty') : t('workspaces.empty')}
          />
        }
      >
        {(data) => (
          <>
            {view === 'tiles' ? (
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                {data.items.map((workspace) => (
                  <Card key={workspace.id} withBorder padding="md" aria-label={workspace.name} role="article">
                    <Stack gap="xs">
                      <Text fw={600} title={workspace.name}>
                        {displayName(workspace.name)}
                      </Text>
                      <Labels workspace={workspace} />
                      {workspace.description && (
                        <Text size="sm" c="dimmed">
                          {workspace.description}
                        </Text>
                      )}
                      {!library && (
                        <Text size="xs" c="dimmed">
                          {t('workspaces.ownedBy', {
                            name: workspace.ownerName ?? t('workspaces.organisation'),
                          })}
                        </Text>
                      )}
                      <DashboardLinks workspace={workspace} />
                      {actions(workspace)}
                    </Stack>
                  </Card>
                ))}
              </SimpleGrid>
            ) : (
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('workspaces.name')}</Table.Th>
                    <Table.Th>{t('workspaces.owner')}</Table.Th>
                    <Table.Th>{t('workspaces.labelsColumn')}</Table.Th>
                    <Table.Th>{t('workspaces.dashboards')}</Table.Th>
                    <Table.Th>{t('common.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((workspace) => (
                    <Table.Tr key={workspace.id}>
                      <Table.Td title={workspace.name}>{displayName(workspace.name)}</Table.Td>
                      <Table.Td>{workspace.ownerName ?? t('workspaces.organisation')}</Table.Td>
                      <Table.Td>
                        <Labels workspace={workspace} />
                      </Table.Td>
                      <Table.Td>
                        <DashboardLinks workspace={workspace} />
                      </Table.Td>
                      <Table.Td>{actions(workspace)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <ListPager
              total={data.total}
              pageSize={DEFAULT_PAGE_SIZE}
              page={pageNumber}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {editing && (
        <WorkspaceDialog
          orgId={orgId}
          workspace={editing === 'new' ? null : editing}
          library={library}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('workspaces.deleteTitle')}
        message={t('workspaces.deleteMessage', { name: deleting ? displayName(deleting.name) : '' })}
        confirmLabel={t('workspaces.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
