import {
  Alert,
  Badge,
  Button,
  Code,
  EmptyState,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Pagination,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  DATA_RESTRICTION_NAME_MAX_LENGTH,
  DEFAULT_PAGE_SIZE,
  dataRestrictionSchema,
  type DataRestriction,
} from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission, useUserOrgs } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import {
  personSummariesQuery,
  restrictedUsersQuery,
  restrictionPath,
  restrictionsKey,
  restrictionsQuery,
} from './metadata-queries';
import { ListStates } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/data-restrictions')({
  component: DataRestrictionsPage,
});

/**
 * Data restrictions (spec 2 sections 3 to 5): which events users, or whole organisations, may see here.
 * DATA_RESTRICTION_VIEW to see them, DATA_RESTRICTION_EDIT to change them.
 */
function DataRestrictionsPage() {
  const { t } = useTranslation();
  return (
    <GatedPage
      title={t('nav.tabs.dataRestrictions')}
      allowed={useHasPermission('DATA_RESTRICTION_VIEW')}
      maw={1200}
    >
      <RestrictionList />
    </GatedPage>
  );
}

type Editing = { restriction: DataRestriction | null } | null;

function QueryText({ text }: { text: string | null }) {
  return text ? (
    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {text}
    </Code>
  ) : (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

function RestrictionList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('DATA_RESTRICTION_EDIT');
  const queryClient = useQueryClient();
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<DataRestriction | null>(null);
  const [showingUsers, setShowingUsers] = useState<DataRestriction | null>(null);
  const restrictions = useQuery(
    restrictionsQuery(orgId, { includeDeleted, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: restrictionsKey(orgId) });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(restrictionPath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('settings.dataRestrictions.deleted');
      await refresh();
    },
    meta: { errorKey: 'DATA_RESTRICTION_SAVE_FAILED' },
  });
  const restore = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${restrictionPath(orgId, id)}/restore`, { method: 'POST', schema: dataRestrictionSchema }),
    onSuccess: async () => {
      notifyMessage('settings.dataRestrictions.restored');
      await refresh();
    },
    meta: { errorKey: 'DATA_RESTRICTION_SAVE_FAILED' },
  });
  const pages = Math.max(1, Math.ceil((restrictions.data?.total ?? 0) / DEFAULT_PAGE_SIZE));

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Switch
          label={t('settings.dataRestrictions.showDeleted')}
          checked={includeDeleted}
          onChange={(event) => {
            setIncludeDeleted(event.currentTarget.checked);
            setPageNumber(1);
          }}
        />
        {canEdit && (
          <Button onClick={() => setEditing({ restriction: null })}>
            {t('settings.dataRestrictions.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={restrictions}
        loadingLabel={t('settings.dataRestrictions.loading')}
        failedTitle={t('settings.dataRestrictions.loadFailed')}
        empty={
          <EmptyState
            icon={<IconFilterOff size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('settings.dataRestrictions.emptyTitle')}
            description={t('settings.dataRestrictions.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('settings.dataRestrictions.name')}</Table.Th>
                    <Table.Th>{t('settings.dataRestrictions.includeQuery')}</Table.Th>
                    <Table.Th>{t('settings.dataRestrictions.excludeQuery')}</Table.Th>
                    <Table.Th>{t('settings.dataRestrictions.appliesTo')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((restriction) => (
                    <Table.Tr key={restriction.id}>
                      <Table.Td>
                        <Group gap="xs">
                          <Text size="sm" fw={500}>
                            {restriction.name}
                          </Text>
                          {restriction.deletedAt && (
                            <Badge color="gray" variant="light">
                              {t('settings.dataRestrictions.deletedBadge')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td maw={280}>
                        <QueryText text={restriction.includeQuery} />
                      </Table.Td>
                      <Table.Td maw={280}>
                        <QueryText text={restriction.excludeQuery} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {[
                            ...restriction.users.map((user) => user.fullName),
                            ...restriction.orgs.map((org) => org.name),
                          ].join(', ') || t('settings.dataRestrictions.nobody')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            aria-label={t('settings.dataRestrictions.usersNamed', { name: restriction.name })}
                            onClick={() => setShowingUsers(restriction)}
                          >
                            {t('settings.dataRestrictions.users')}
                          </Button>
                          {canEdit && !restriction.deletedAt && (
                            <>
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                aria-label={t('settings.dataRestrictions.editNamed', {
                                  name: restriction.name,
                                })}
                                onClick={() => setEditing({ restriction })}
                              >
                                {t('common.edit')}
                              </Button>
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                color="red"
                                aria-label={t('settings.dataRestrictions.deleteNamed', {
                                  name: restriction.name,
                                })}
                                onClick={() => setDeleting(restriction)}
                              >
                                {t('settings.dataRestrictions.delete')}
                              </Button>
                            </>
                          )}
                          {canEdit && restriction.deletedAt && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('settings.dataRestrictions.restoreNamed', {
                                name: restriction.name,
                              })}
                              loading={restore.isPending && restore.variables === restriction.id}
                              onClick={() => restore.mutate(restriction.id)}
                            >
                              {t('settings.dataRestrictions.restore')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={pageNumber}
                onChange={setPageNumber}
                getControlProps={(control) => ({ 'aria-label': t(`settings.pagination.${control}`) })}
              />
            )}
          </>
        )}
      </ListStates>
      {editing && (
        <RestrictionForm orgId={orgId} restriction={editing.restriction} onClose={() => setEditing(null)} />
      )}
      {showingUsers && (
        <RestrictedUsers orgId={orgId} restriction={showingUsers} onClose={() => setShowingUsers(null)} />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.dataRestrictions.deleteTitle')}
        message={t('settings.dataRestrictions.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('settings.dataRestrictions.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function RestrictedUsers({
  orgId,
  restriction,
  onClose,
}: {
  orgId: string;
  restriction: DataRestriction;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const users = useQuery(restrictedUsersQuery(orgId, restriction.id));
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('settings.dataRestrictions.usersTitle', { name: restriction.name })}
    >
      {users.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : users.isError ? (
        <Alert color="red">{describeError(users.error, t)}</Alert>
      ) : users.data.items.length === 0 ? (
        <Text size="sm">{t('settings.dataRestrictions.nobody')}</Text>
      ) : (
        <Table>
          <Table.Tbody>
            {users.data.items.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.fullName}</Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {t(`settings.dataRestrictions.via.${user.via}`)}
                    {user.active ? '' : ` · ${t('settings.dataRestrictions.inactive')}`}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}

interface FormValues {
  name: string;
  includeQuery: string;
  excludeQuery: string;
  userIds: string[];
  orgIds: string[];
}

type FormErrors = Partial<Record<keyof FormValues, string>>;

/** The server's error keys that belong beside a field rather than in a notification. */
const FIELD_ERRORS: Record<string, keyof FormValues> = {
  DATA_RESTRICTION_QUERY_REQUIRED: 'includeQuery',
  DATA_RESTRICTION_UNKNOWN_USER: 'userIds',
  DATA_RESTRICTION_UNKNOWN_ORG: 'orgIds',
};

function RestrictionForm({
  orgId,
  restriction,
  onClose,
}: {
  orgId: string;
  restriction: DataRestriction | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>({
    name: restriction?.name ?? '',
    includeQuery: restriction?.includeQuery ?? '',
    excludeQuery: restriction?.excludeQuery ?? '',
    userIds: restriction?.users.map((user) => user.id) ?? [],
    orgIds: restriction?.orgs.map((org) => org.id) ?? [],
  });
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const people = useQuery(personSummariesQuery(orgId));
  const userOrgs = useUserOrgs();

  // Only users whose home is this organisation may be listed; those already listed stay selectable.
  const userOptions = useMemo(() => {
    const options = new Map(
      (restriction?.users ?? []).map((user) => [user.id, { value: user.id, label: user.fullName }]),
    );
    for (const person of people.data ?? []) {
      if (person.homeOrgId !== orgId) continue;
      const label = person.active
        ? person.fullName
        : t('settings.dataRestrictions.inactiveNamed', { name: person.fullName });
      options.set(person.id, { value: person.id, label });
    }
    return [...options.values()];
  }, [people.data, restriction, orgId, t]);
  const orgOptions = useMemo(() => {
    const options = new Map(
      (restriction?.orgs ?? []).map((org) => [org.id, { value: org.id, label: org.name }]),
    );
    for (const org of userOrgs) options.set(org.id, { value: org.id, label: org.name });
    return [...options.values()];
  }, [restriction, userOrgs]);

  const save = useMutation({
    mutationFn: (input: FormValues) =>
      apiFetch(restrictionPath(orgId, restriction?.id), {
        method: restriction ? 'PUT' : 'POST',
        body: {
          name: input.name.trim(),
          includeQuery: input.includeQuery.trim() || null,
          excludeQuery: input.excludeQuery.trim() || null,
          userIds: input.userIds,
          orgIds: input.orgIds,
        },
        schema: dataRestrictionSchema,
      }),
    onSuccess: async () => {
      notifyMessage(restriction ? 'settings.dataRestrictions.saved' : 'settings.dataRestrictions.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: restrictionsKey(orgId) });
    },
    // Rule failures show beside their field; anything else as a notification advising a retry.
    onError: (error) => {
      const apiError = error instanceof ApiRequestError ? error.error : null;
      const field =
        apiError?.key === 'DATA_RESTRICTION_INVALID_QUERY'
          ? (apiError.field as keyof FormValues | undefined)
          : apiError
            ? FIELD_ERRORS[apiError.key]
            : undefined;
      if (apiError && field) {
        setServerErrors({ [field]: t(apiError.key, { ...apiError.params }) });
      } else {
        notifyError(error, 'DATA_RESTRICTION_SAVE_FAILED');
      }
    },
    meta: { notifyError: false },
  });

  const queryError = (text: string) => {
    if (!text.trim()) return undefined;
    const result = validateQuery(text);
    return result.valid ? undefined : t('DATA_RESTRICTION_INVALID_QUERY', { message: result.message });
  };
  const errors: FormErrors = {
    includeQuery: queryError(values.includeQuery),
    excludeQuery: queryError(values.excludeQuery),
  };
  if (submitted && !values.name.trim()) errors.name = t('ERROR_REQUIRED');
  if (submitted && !values.includeQuery.trim() && !values.excludeQuery.trim()) {
    errors.includeQuery = t('DATA_RESTRICTION_QUERY_REQUIRED');
  }
  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setServerErrors((current) => ({ ...current, [field]: undefined }));
    setValues((current) => ({ ...current, [field]: value }));
  };
  const errorOf = (field: keyof FormValues) => errors[field] ?? serverErrors[field];

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={restriction ? t('settings.dataRestrictions.editTitle') : t('settings.dataRestrictions.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          const blocking =
            !values.name.trim() ||
            (!values.includeQuery.trim() && !values.excludeQuery.trim()) ||
            errors.includeQuery ||
            errors.excludeQuery;
          if (!blocking) save.mutate(values);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.dataRestrictions.name')}
            required
            data-autofocus
            maxLength={DATA_RESTRICTION_NAME_MAX_LENGTH}
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={errorOf('name')}
          />
          <Text size="sm" c="dimmed">
            {t('settings.dataRestrictions.queryHint')}
          </Text>
          <Textarea
            label={t('settings.dataRestrictions.includeQuery')}
            description={t('settings.dataRestrictions.includeHint')}
            autosize
            minRows={2}
            spellCheck={false}
            ff="monospace"
            value={values.includeQuery}
            onChange={(event) => set('includeQuery', event.currentTarget.value)}
            error={errorOf('includeQuery')}
          />
          <Textarea
            label={t('settings.dataRestrictions.excludeQuery')}
            description={t('settings.dataRestrictions.excludeHint')}
            autosize
            minRows={2}
            spellCheck={false}
            ff="monospace"
            value={values.excludeQuery}
            onChange={(event) => set('excludeQuery', event.currentTarget.value)}
            error={errorOf('excludeQuery')}
          />
          <MultiSelect
            label={t('settings.dataRestrictions.restrictedUsers')}
            description={
              people.isError
                ? t('settings.dataRestrictions.peopleUnavailable')
                : t('settings.dataRestrictions.restrictedUsersHint')
            }
            placeholder={people.isPending ? t('settings.dataRestrictions.loadingPeople') : undefined}
            data={userOptions}
            value={values.userIds}
            onChange={(userIds) => set('userIds', userIds)}
            searchable
            clearable
            nothingFoundMessage={t('settings.dataRestrictions.noPeople')}
            error={errorOf('userIds')}
          />
          <MultiSelect
            label={t('settings.dataRestrictions.restrictedOrgs')}
            description={t('settings.dataRestrictions.restrictedOrgsHint')}
            data={orgOptions}
            value={values.orgIds}
            onChange={(orgIds) => set('orgIds', orgIds)}
            searchable
            clearable
            error={errorOf('orgIds')}
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
