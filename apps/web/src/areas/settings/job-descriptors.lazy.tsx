import {
  Alert,
  Button,
  EmptyState,
  Group,
  Loader,
  Stack,
  Table,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconBriefcase } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { JOB_DESCRIPTOR_NAME_MAX_LENGTH, type JobDescriptor } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { useFeature } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { accessKey, jobDescriptorsQuery, orgPath } from './access-queries';

export const Route = createLazyRoute('/settings/job-descriptors')({
  component: JobDescriptorsPage,
});

/** Settings > Job descriptors: for TRAC_USER holders where the jobDescriptors feature is on. */
function JobDescriptorsPage() {
  const { t } = useTranslation();
  const hasRole = useHasPermission('TRAC_USER');
  const featureOn = useFeature('jobDescriptors');
  return (
    <GatedPage title={t('nav.tabs.jobDescriptors')} allowed={hasRole && featureOn} maw={720}>
      <JobDescriptors />
    </GatedPage>
  );
}

/** The failure beside the name field when the server names it, else as a notification. */
function useNameError() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | undefined>();
  const onError = (err: Error, fallbackKey: string) => {
    if (err instanceof ApiRequestError && err.error.field === 'name') setError(errorMessage(err.error, t));
    else notifyError(err, fallbackKey);
  };
  return [error, setError, onError] as const;
}

function JobDescriptors() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const list = useQuery(jobDescriptorsQuery(orgId));
  const [name, setName] = useState('');
  const [nameError, setNameError, onNameError] = useNameError();
  const [renaming, setRenaming] = useState<JobDescriptor | null>(null);
  const [deleting, setDeleting] = useState<JobDescriptor | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accessKey(orgId) });

  const create = useMutation({
    mutationFn: (value: string) =>
      apiFetch(`${orgPath(orgId)}/job-descriptor`, { method: 'POST', body: { name: value } }),
    meta: { notifyError: false },
    onSuccess: () => {
      notifyMessage('settings.jobDescriptors.created');
      setName('');
      void refresh();
    },
    onError: (err) => onNameError(err, 'settings.jobDescriptors.saveFailed'),
  });
  const remove = useMutation({
    mutationFn: (item: JobDescriptor) =>
      apiFetch(`${orgPath(orgId)}/job-descriptor/${encodeURIComponent(item.id)}`, { method: 'DELETE' }),
    meta: { errorKey: 'settings.jobDescriptors.deleteFailed' },
    onSuccess: () => {
      notifyMessage('settings.jobDescriptors.deleted');
      setDeleting(null);
      void refresh();
    },
  });

  return (
    <Stack gap="md">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) setNameError(t('ERROR_REQUIRED'));
          else create.mutate(name.trim());
        }}
      >
        <Group align="flex-start">
          <TextInput
            label={t('settings.jobDescriptors.newName')}
            maxLength={JOB_DESCRIPTOR_NAME_MAX_LENGTH}
            value={name}
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(undefined);
            }}
            style={{ flex: 1 }}
          />
          <Button type="submit" mt={25} loading={create.isPending}>
            {t('settings.jobDescriptors.create')}
          </Button>
        </Group>
      </form>
      {list.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : list.isError ? (
        <Alert color="red" title={t('settings.jobDescriptors.loadFailed')}>
          {describeError(list.error, t)}
        </Alert>
      ) : list.data.items.length === 0 ? (
        <EmptyState
          icon={<IconBriefcase size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('settings.jobDescriptors.emptyTitle')}
          description={t('settings.jobDescriptors.emptyMessage')}
        />
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.jobDescriptors.name')}</Table.Th>
              <Table.Th w={100}>{t('settings.jobDescriptors.users')}</Table.Th>
              <Table.Th w={200}>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  {renaming?.id === item.id ? (
                    <RenameForm orgId={orgId} item={item} onDone={() => setRenaming(null)} />
                  ) : (
                    item.name
                  )}
                </Table.Td>
                <Table.Td>{item.userCount}</Table.Td>
                <Table.Td>
                  {renaming?.id !== item.id && (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        onClick={() => setRenaming(item)}
                        aria-label={t('settings.jobDescriptors.renameNamed', { name: item.name })}
                      >
                        {t('settings.jobDescriptors.rename')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(item)}
                        aria-label={t('settings.jobDescriptors.deleteNamed', { name: item.name })}
                      >
                        {t('settings.jobDescriptors.delete')}
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.jobDescriptors.deleteTitle', { name: deleting?.name })}
        message={t('settings.jobDescriptors.deleteMessage', { count: deleting?.userCount ?? 0 })}
        confirmLabel={t('settings.jobDescriptors.delete')}
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
        }}
      />
    </Stack>
  );
}

function RenameForm({ orgId, item, onDone }: { orgId: string; item: JobDescriptor; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(item.name);
  const [error, setError, onError] = useNameError();
  const rename = useMutation({
    mutationFn: (value: string) =>
      apiFetch(`${orgPath(orgId)}/job-descriptor/${encodeURIComponent(item.id)}`, {
        method: 'PUT',
        body: { name: value },
      }),
    meta: { notifyError: false },
    onSuccess: () => {
      notifyMessage('settings.jobDescriptors.renamed');
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
      onDone();
    },
    onError: (err) => onError(err, 'settings.jobDescriptors.saveFailed'),
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) setError(t('ERROR_REQUIRED'));
        else if (name.trim() === item.name) onDone();
        else rename.mutate(name.trim());
      }}
    >
      <Group gap="xs" wrap="nowrap">
        <TextInput
          size="xs"
          aria-label={t('settings.jobDescriptors.name')}
          maxLength={JOB_DESCRIPTOR_NAME_MAX_LENGTH}
          value={name}
          error={error}
          autoFocus
          onKeyDown={(event) => {
            if (event.key === 'Escape') onDone();
          }}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setError(undefined);
          }}
        />
        <Button size="compact-sm" type="submit" loading={rename.isPending}>
          {t('common.save')}
        </Button>
        <Button size="compact-sm" variant="default" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </Group>
    </form>
  );
}
