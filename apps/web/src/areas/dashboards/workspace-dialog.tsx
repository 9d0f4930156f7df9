import { Button, Checkbox, Group, Modal, MultiSelect, Select, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WORKSPACE_SHARING, workspaceSchema, type Workspace, type WorkspaceSharing } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useHasSku } from '../../lib/org-context';
import { dashboardsQuery } from './api';
import { sharePeopleQuery, workspacePath, workspacesKey } from './workspace-api';
import { NameFields } from './name-fields';

/**
 * Creates or changes a workspace: its name, dashboards and, for its owner, who sees it and whether
 * they may change it.
 */
export function WorkspaceDialog({
  orgId,
  workspace,
  library,
  onClose,
}: {
  orgId: string;
  workspace: Workspace | null;
  library: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const premium = useHasSku('reportingPremium');
  const owner = workspace === null || workspace.owned || library;
  const [name, setName] = useState(workspace?.name ?? '');
  const [description, setDescription] = useState(workspace?.description ?? '');
  const [dashboardIds, setDashboardIds] = useState(workspace?.dashboards.map((d) => d.id) ?? []);
  const [sharing, setSharing] = useState<WorkspaceSharing>(workspace?.sharing ?? 'NOBODY');
  const [sharedUserIds, setSharedUserIds] = useState(workspace?.sharedUsers.map((u) => u.id) ?? []);
  const [editableByOthers, setEditableByOthers] = useState(workspace?.editableByOthers ?? false);
  const [premiumOnly, setPremiumOnly] = useState(workspace?.premiumOnly ?? false);
  const [copyToCustomers, setCopyToCustomers] = useState(workspace?.copyToCustomers ?? false);
  const dashboards = useQuery(dashboardsQuery(orgId, { library, pageSize: 500, pageNumber: 1 }));
  const people = useQuery({ ...sharePeopleQuery(orgId), enabled: owner && !library });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(workspace ? workspacePath(orgId, workspace.id) : workspacePath(orgId), {
        method: workspace ? 'PUT' : 'POST',
        body: {
          name,
          description,
          dashboardIds,
          sharing,
          sharedUserIds: sharing === 'USERS' ? sharedUserIds : [],
          editableByOthers,
          premiumOnly,
          library,
          copyToCustomers: library && copyToCustomers,
        },
        schema: workspaceSchema,
      }),
    onSuccess: async () => {
      notifyMessage(workspace ? 'workspaces.done.update' : 'workspaces.done.create');
      await queryClient.invalidateQueries({ queryKey: workspacesKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'workspaces.saveFailed' },
  });
  const dashboardOptions = (dashboards.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }));
  // Dashboards already in the workspace stay choosable while the list loads.
  for (const d of workspace?.dashboards ?? []) {
    if (!dashboardOptions.some((option) => option.value === d.id)) {
      dashboardOptions.push({ value: d.id, label: d.name });
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={workspace ? t('workspaces.editTitle') : t('workspaces.newTitle')}
    >
      <Stack gap="sm">
        <NameFields
          labels={{ name: t('workspaces.name'), description: t('workspaces.description') }}
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
        />
        <MultiSelect
          label={t('workspaces.dashboards')}
          data={dashboardOptions}
          value={dashboardIds}
          onChange={setDashboardIds}
          searchable
        />
        {owner && !library && (
          <>
            <Select
              label={t('workspaces.sharing')}
              data={WORKSPACE_SHARING.map((value) => ({
                value,
                label: t(`workspaces.sharingOptions.${value}`),
              }))}
              value={sharing}
              onChange={(value) => value && setSharing(value as WorkspaceSharing)}
              allowDeselect={false}
            />
            {sharing === 'USERS' && (
              <MultiSelect
                label={t('workspaces.sharedWith')}
                data={(people.data?.items ?? []).map((person) => ({ value: person.id, label: person.name }))}
                value={sharedUserIds}
                onChange={setSharedUserIds}
                searchable
              />
            )}
          </>
        )}
        {owner && (
          <Checkbox
            label={t('workspaces.editableByOthers')}
            checked={editableByOthers}
            onChange={(event) => setEditableByOthers(event.currentTarget.checked)}
          />
        )}
        {owner && (premium || library) && (
          <Checkbox
            label={t('workspaces.premiumOnly')}
            checked={premiumOnly}
            onChange={(event) => setPremiumOnly(event.currentTarget.checked)}
          />
        )}
        {library && (
          <Checkbox
            label={t('workspaces.copyToCustomersByDefault')}
            checked={copyToCustomers}
            onChange={(event) => setCopyToCustomers(event.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} disabled={!name.trim()} onClick={() => save.mutate()}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
