import {
  Badge,
  Button,
  Code,
  EmptyState,
  Group,
  List,
  Modal,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconBooks, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  libraryCopyResultSchema,
  triggerLibraryGroupSchema,
  TRIGGER_DESCRIPTION_MAX_LENGTH,
  TRIGGER_MANAGED_BY,
  TRIGGER_NAME_MAX_LENGTH,
  type LibraryCopyResult,
  type LibraryTrigger,
  type TriggerDomain,
  type TriggerLibraryGroup,
  type TriggerManagedBy,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { useHasSku, useOrgContext } from '../../lib/org-context';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission, useUserOrgs } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { TriggerDialog } from './trigger-dialog';
import { compactId, libraryGroupPath, libraryKey, libraryTriggerPath, triggerLibraryQuery } from './library';

/**
 * The trigger library (/triggers/library, and /fraud/library for the fraud domain): the provider's
 * triggers in groups with a base query. Every organisation reads it and sees whether it holds a copy;
 * provider administrators in the provider organisation change it and copy triggers to organisations.
 */
export function TriggerLibraryPage({ domain }: { domain: TriggerDomain }) {
  const { t } = useTranslation();
  const canView = useHasPermission('TRIGGER_VIEW');
  const hasFraud = useHasSku('fraud');
  // The provider keeps the fraud library whatever its own products.
  const isProvider = useOrgContext()?.org.isProvider ?? false;
  return (
    <GatedPage
      title={domain === 'fraud' ? t('triggerLibrary.fraudTitle') : t('triggerLibrary.title')}
      allowed={canView && (domain === 'security' || hasFraud || isProvider)}
      maw={1400}
    >
      <Library domain={domain} />
    </GatedPage>
  );
}

type Editing =
  | { kind: 'group'; group: TriggerLibraryGroup | null }
  | { kind: 'trigger'; trigger: LibraryTrigger | null; groupId?: string }
  | { kind: 'copy'; trigger: LibraryTrigger }
  | { kind: 'deleteTrigger'; trigger: LibraryTrigger }
  | { kind: 'deleteGroup'; group: TriggerLibraryGroup };

function Library({ domain }: { domain: TriggerDomain }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const isProvider = useOrgContext()?.org.isProvider ?? false;
  const isAdmin = useHasPermission('TRAC_ADMIN');
  const canEdit = useHasPermission('TRIGGER_EDIT');
  const isStaffRole = useHasPermission('TRAC_USER');
  const canManage = isProvider && isAdmin && canEdit;
  const isStaff = isProvider && isStaffRole;
  const queryClient = useQueryClient();
  const library = useQuery(triggerLibraryQuery(orgId, domain));
  const [editing, setEditing] = useState<Editing | null>(null);
  const close = () => setEditing(null);
  const remove = useMutation({
    mutationFn: (path: string) => apiFetch(path, { method: 'DELETE' }),
    onSuccess: async () => {
      notifyMessage(
        editing?.kind === 'deleteGroup' ? 'triggerLibrary.groupDeleted' : 'triggerLibrary.deleted',
      );
      close();
      await queryClient.invalidateQueries({ queryKey: libraryKey(orgId) });
    },
    meta: { errorKey: 'triggerLibrary.deleteFailed' },
  });

  if (library.isPending) return <LoadingLine label={t('triggerLibrary.loading')} />;
  if (library.isError) {
    return (
      <LoadFailed
        title={t('triggerLibrary.loadFailed')}
        error={library.error}
        onRetry={() => void library.refetch()}
      />
    );
  }
  const groups = library.data.groups;
  const groupOptions = groups.map((group) => ({ value: group.id, label: group.name }));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} maw={800}>
          <Text size="sm" c="dimmed">
            {isProvider ? t('triggerLibrary.providerIntro') : t('triggerLibrary.clientIntro')}
          </Text>
          {isProvider && (
            <AnchorLink size="sm" to={domain === 'fraud' ? '/triggers/library' : '/fraud/library'}>
              {domain === 'fraud' ? t('triggerLibrary.toSecurity') : t('triggerLibrary.toFraud')}
            </AnchorLink>
          )}
        </Stack>
        {canManage && (
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing({ kind: 'group', group: null })}
            >
              {t('triggerLibrary.newGroup')}
            </Button>
            <Button
              leftSection={<IconPlus size={16} />}
              disabled={groups.length === 0}
              onClick={() => setEditing({ kind: 'trigger', trigger: null })}
            >
              {t('triggerLibrary.newTrigger')}
            </Button>
          </Group>
        )}
      </Group>
      {groups.length === 0 && (
        <EmptyState
          icon={<IconBooks size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('triggerLibrary.emptyTitle')}
          description={t('triggerLibrary.emptyMessage')}
        />
      )}
      {groups.map((group) => (
        <Paper key={group.id} withBorder p="md" component="section" aria-label={group.name}>
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start">
              <Stack gap={4}>
                <Title order={2} size="h4">
                  {group.name}
                </Title>
                {group.description && <Text size="sm">{group.description}</Text>}
                <Text size="sm" c="dimmed">
                  {t('triggerLibrary.baseQuery')}:{' '}
                  {group.baseQuery ? <Code>{group.baseQuery}</Code> : t('triggerLibrary.noBaseQuery')}
                </Text>
              </Stack>
              {canManage && (
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={t('triggerLibrary.editGroupNamed', { name: group.name })}
                    onClick={() => setEditing({ kind: 'group', group })}
                  >
                    {t('common.edit')}
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={t('triggerLibrary.addToGroupNamed', { name: group.name })}
                    onClick={() => setEditing({ kind: 'trigger', trigger: null, groupId: group.id })}
                  >
                    {t('triggerLibrary.addTrigger')}
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={t('triggerLibrary.deleteGroupNamed', { name: group.name })}
                    onClick={() => setEditing({ kind: 'deleteGroup', group })}
                  >
                    {t('triggerLibrary.delete')}
                  </Button>
                </Group>
              )}
            </Group>
            {group.triggers.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('triggerLibrary.groupEmpty')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={900}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('triggers.name')}</Table.Th>
                      <Table.Th>{t('triggers.type')}</Table.Th>
                      <Table.Th>{t('triggers.severity')}</Table.Th>
                      <Table.Th>{t('triggers.savedQuery')}</Table.Th>
                      <Table.Th>{t('triggerLibrary.version')}</Table.Th>
                      <Table.Th>
                        {isProvider ? t('triggerLibrary.copies') : t('triggerLibrary.inThisOrg')}
                      </Table.Th>
                      <Table.Th>
                        <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {group.triggers.map((trigger) => (
                      <Table.Tr key={trigger.id}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {trigger.name}
                          </Text>
                          {trigger.description && (
                            <Text size="xs" c="dimmed">
                              {trigger.description}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{t(`triggers.types.${trigger.type}`)}</Table.Td>
                        <Table.Td>{t(`triggers.severities.${trigger.severity}`)}</Table.Td>
                        <Table.Td>{trigger.savedQueryName ?? '—'}</Table.Td>
                        <Table.Td>{trigger.version}</Table.Td>
                        <Table.Td>
                          {isProvider ? (
                            trigger.copyCount
                          ) : trigger.copyHereId ? (
                            <Badge variant="light" color="green">
                              {t('triggerLibrary.copied')}
                            </Badge>
                          ) : (
                            <Text size="sm" c="dimmed">
                              {t('triggerLibrary.notCopied')}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            {isStaff && (
                              <AnchorLink
                                size="sm"
                                to="/triggers/$id/stats"
                                params={{ id: compactId(trigger.id) }}
                                aria-label={t('triggerLibrary.statsNamed', { name: trigger.name })}
                              >
                                {t('triggerLibrary.stats')}
                              </AnchorLink>
                            )}
                            {canManage && (
                              <>
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  aria-label={t('triggerLibrary.copyNamed', { name: trigger.name })}
                                  onClick={() => setEditing({ kind: 'copy', trigger })}
                                >
                                  {t('triggerLibrary.copy')}
                                </Button>
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  aria-label={t('triggers.editNamed', { name: trigger.name })}
                                  onClick={() => setEditing({ kind: 'trigger', trigger })}
                                >
                                  {t('common.edit')}
                                </Button>
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  color="red"
                                  aria-label={t('triggerLibrary.deleteNamed', { name: trigger.name })}
                                  onClick={() => setEditing({ kind: 'deleteTrigger', trigger })}
                                >
                                  {t('triggerLibrary.delete')}
                                </Button>
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
          </Stack>
        </Paper>
      ))}
      {editing?.kind === 'group' && (
        <GroupDialog orgId={orgId} domain={domain} group={editing.group} onClose={close} />
      )}
      {editing?.kind === 'trigger' && (
        <TriggerDialog
          orgId={orgId}
          domain={domain}
          trigger={editing.trigger}
          library={{ groups: groupOptions, groupId: editing.groupId ?? groups[0]?.id }}
          onClose={close}
        />
      )}
      {editing?.kind === 'copy' && <CopyDialog orgId={orgId} trigger={editing.trigger} onClose={close} />}
      <ConfirmDialog
        opened={editing?.kind === 'deleteTrigger' || editing?.kind === 'deleteGroup'}
        title={
          editing?.kind === 'deleteGroup'
            ? t('triggerLibrary.deleteGroupTitle')
            : t('triggerLibrary.deleteTitle')
        }
        message={
          editing?.kind === 'deleteGroup'
            ? t('triggerLibrary.deleteGroupMessage', { name: editing.group.name })
            : editing?.kind === 'deleteTrigger'
              ? t('triggerLibrary.deleteMessage', { name: editing.trigger.name })
              : ''
        }
        confirmLabel={t('triggerLibrary.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (editing?.kind === 'deleteGroup') remove.mutate(libraryGroupPath(orgId, editing.group.id));
          if (editing?.kind === 'deleteTrigger') remove.mutate(libraryTriggerPath(orgId, editing.trigger.id));
        }}
        onCancel={close}
      />
    </Stack>
  );
}

const GROUP_FIELD_ERRORS: Record<string, 'name' | 'baseQuery'> = {
  TRIGGER_LIBRARY_GROUP_NAME_TAKEN: 'name',
  TRIGGER_LIBRARY_INVALID_BASE_QUERY: 'baseQuery',
};

function GroupDialog({
  orgId,
  domain,
  group,
  onClose,
}: {
  orgId: string;
  domain: TriggerDomain;
  group: TriggerLibraryGroup | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [baseQuery, setBaseQuery] = useState(group?.baseQuery ?? '');
  const [errors, setErrors] = useState<Partial<Record<'name' | 'baseQuery', string>>>({});
  const save = useMutation({
    mutationFn: () =>
      apiFetch(libraryGroupPath(orgId, group?.id), {
        method: group ? 'PUT' : 'POST',
        body: { domain, name: name.trim(), description: description.trim(), baseQuery: baseQuery.trim() },
        schema: triggerLibraryGroupSchema,
      }),
    onSuccess: async () => {
      notifyMessage(group ? 'triggerLibrary.groupSaved' : 'triggerLibrary.groupCreated');
      onClose();
      await queryClient.invalidateQueries({ queryKey: libraryKey(orgId) });
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? GROUP_FIELD_ERRORS[error.error.key] : undefined;
      if (field && error instanceof ApiRequestError) {
        setErrors({ [field]: t(error.error.key, error.error.params ?? {}) });
      } else notifyError(error, 'triggerLibrary.groupSaveFailed');
    },
    meta: { notifyError: false },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={group ? t('triggerLibrary.editGroupTitle') : t('triggerLibrary.newGroupTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() === '') setErrors({ name: t('ERROR_REQUIRED') });
          else save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('triggerLibrary.groupName')}
            required
            data-autofocus
            maxLength={TRIGGER_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setErrors((current) => ({ ...current, name: undefined }));
            }}
            error={errors.name}
          />
          <Textarea
            label={t('triggers.description')}
            autosize
            minRows={2}
            maxLength={TRIGGER_DESCRIPTION_MAX_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <TextInput
            label={t('triggerLibrary.baseQuery')}
            description={t('triggerLibrary.baseQueryHint')}
            ff="monospace"
            value={baseQuery}
            onChange={(event) => {
              setBaseQuery(event.currentTarget.value);
              setErrors((current) => ({ ...current, baseQuery: undefined }));
            }}
            error={errors.baseQuery}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Copies a library trigger to organisations the user works, then lists what was copied and skipped. */
function CopyDialog({
  orgId,
  trigger,
  onClose,
}: {
  orgId: string;
  trigger: LibraryTrigger;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgs = useUserOrgs().filter((org) => org.id !== orgId);
  const [orgIds, setOrgIds] = useState<string[]>([]);
  const [managedBy, setManagedBy] = useState<TriggerManagedBy>('OPS');
  const [result, setResult] = useState<LibraryCopyResult | null>(null);
  const [error, setError] = useState<string | undefined>();
  const copy = useMutation({
    mutationFn: () =>
      apiFetch(`${libraryTriggerPath(orgId, trigger.id)}/copy`, {
        method: 'POST',
        body: { orgIds, managedBy },
        schema: libraryCopyResultSchema,
      }),
    onSuccess: async (answer) => {
      setResult(answer);
      await queryClient.invalidateQueries({ queryKey: libraryKey(orgId) });
    },
    meta: { errorKey: 'triggerLibrary.copyFailed' },
  });
  return (
    <Modal opened onClose={onClose} title={t('triggerLibrary.copyTitle', { name: trigger.name })}>
      {result ? (
        <Stack gap="sm">
          <Text size="sm">{t('triggerLibrary.copiedCount', { count: result.copied.length })}</Text>
          {result.copied.length > 0 && (
            <List size="sm" aria-label={t('triggerLibrary.copiedTo')}>
              {result.copied.map((entry) => (
                <List.Item key={entry.orgId}>{entry.orgName}</List.Item>
              ))}
            </List>
          )}
          {result.skipped.length > 0 && (
            <>
              <Text size="sm">{t('triggerLibrary.skippedCount', { count: result.skipped.length })}</Text>
              <List size="sm" aria-label={t('triggerLibrary.skipped')}>
                {result.skipped.map((entry) => (
                  <List.Item key={entry.orgId}>
                    {entry.orgName}: {t(`triggerLibrary.skipReasons.${entry.reason}`)}
                  </List.Item>
                ))}
              </List>
            </>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (orgIds.length === 0) setError(t('triggerLibrary.chooseOrgs'));
            else copy.mutate();
          }}
        >
          <Stack gap="sm">
            <MultiSelect
              label={t('triggerLibrary.organisations')}
              required
              searchable
              data={orgs.map((org) => ({ value: org.id, label: org.name }))}
              value={orgIds}
              onChange={(next) => {
                setOrgIds(next);
                setError(undefined);
              }}
              error={error}
            />
            <Select
              label={t('triggerLibrary.managedBy')}
              description={t('triggerLibrary.managedByHint')}
              allowDeselect={false}
              data={TRIGGER_MANAGED_BY.map((value) => ({
                value,
                label: t(`triggerLibrary.managedByValues.${value}`),
              }))}
              value={managedBy}
              onChange={(next) => setManagedBy((next ?? 'OPS') as TriggerManagedBy)}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={copy.isPending}>
                {t('triggerLibrary.copy')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
