import {
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  MultiSelect,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expandPermissions, usernameSchema, type Role, type UserDetail } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { useFeature, useNavContext } from '../../lib/org-context';
import { useHasPermission, usePermissions, useUserOrgs } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import {
  accessKey,
  jobDescriptorsQuery,
  orgPath,
  rolesQuery,
  userDetailQuery,
  userOrgsOfQuery,
} from './access-queries';

interface Props {
  orgId: string;
  /** Null to create a user. */
  userId: string | null;
  onDone: () => void;
}

/** The drawer of the users page: a new user, or one user with their role, job descriptors and access. */
export function UserDrawerContent({ orgId, userId, onDone }: Props) {
  const { t } = useTranslation();
  const user = useQuery({ ...userDetailQuery(orgId, userId ?? ''), enabled: userId !== null });
  if (userId === null) return <UserForm orgId={orgId} user={null} onDone={onDone} />;
  if (user.isPending) return <Loader aria-label={t('app.loading')} />;
  if (user.isError) {
    return (
      <Alert color="red" title={t('settings.users.loadFailed')}>
        {describeError(user.error, t)}
      </Alert>
    );
  }
  return <UserForm orgId={orgId} user={user.data} onDone={onDone} />;
}

const emailSchema = z.email();
type Field = 'email' | 'firstName' | 'lastName' | 'username' | 'roleId' | 'jobDescriptorIds';

/** Provider staff working in the provider's own organisation set which organisations its people may act in. */
export function useIsProviderStaff() {
  const nav = useNavContext();
  return nav.isProvider && nav.permissions.has('TRAC_USER');
}

function UserForm({ orgId, user, onDone }: { orgId: string; user: UserDetail | null; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('USER_EDIT');
  const held = usePermissions();
  const providerStaff = useIsProviderStaff();
  const jobDescriptorsOn = useFeature('jobDescriptors');
  const roles = useQuery(rolesQuery(orgId, { includeTracRoles: providerStaff }));
  const jobDescriptors = useQuery({ ...jobDescriptorsQuery(orgId), enabled: jobDescriptorsOn });
  const grantable = useUserOrgs().filter((org) => org.id !== user?.homeOrgId);
  const userOrgs = useQuery({
    ...userOrgsOfQuery(orgId, user?.id ?? ''),
    enabled: user !== null && providerStaff,
  });

  const [values, setValues] = useState({
    email: user?.email ?? '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    username: user?.username ?? '',
    roleId: user?.roleId ?? '',
    jobDescriptorIds: user?.jobDescriptorIds ?? [],
  });
  const [orgIds, setOrgIds] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [resetting, setResetting] = useState<'google2fa' | 'u2f' | null>(null);
  const set = (field: keyof typeof values) => (value: string | string[]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const validate = () => {
    const found: Partial<Record<Field, string>> = {};
    if (!emailSchema.safeParse(values.email.trim()).success) found.email = t('settings.users.invalidEmail');
    if (!values.firstName.trim()) found.firstName = t('ERROR_REQUIRED');
    if (!values.lastName.trim()) found.lastName = t('ERROR_REQUIRED');
    if (values.username.trim() && !usernameSchema.safeParse(values.username).success) {
      found.username = t('settings.users.invalidUsername');
    }
    if (!values.roleId) found.roleId = t('ERROR_REQUIRED');
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const save = useMutation({
    mutationFn: async () => {
      const base = orgPath(orgId);
      const username = values.username.trim() || null;
      if (!user) {
        await apiFetch(`${base}/user`, {
          method: 'POST',
          body: {
            email: values.email.trim(),
            firstName: values.firstName.trim(),
            lastName: values.lastName.trim(),
            ...(username && { username }),
            roleId: values.roleId,
            ...(jobDescriptorsOn && { jobDescriptorIds: values.jobDescriptorIds }),
          },
        });
        return;
      }
      const path = `${base}/user/${encodeURIComponent(user.id)}`;
      await apiFetch(path, {
        method: 'PUT',
        body: { firstName: values.firstName.trim(), lastName: values.lastName.trim(), username },
      });
      if (values.email.trim().toLowerCase() !== user.email) {
        await apiFetch(`${path}/email/${encodeURIComponent(values.email.trim())}`, { method: 'PUT' });
      }
      if (values.roleId !== user.roleId) {
        await apiFetch(`${path}/role/${encodeURIComponent(values.roleId)}`, { method: 'PUT' });
      }
      if (
        jobDescriptorsOn &&
        [...values.jobDescriptorIds].sort().join() !== [...user.jobDescriptorIds].sort().join()
      ) {
        await apiFetch(`${path}/job-descriptors`, {
          method: 'PUT',
          body: { jobDescriptorIds: values.jobDescriptorIds },
        });
      }
      if (orgIds !== null) await apiFetch(`${path}/authorized-orgs`, { method: 'PUT', body: { orgIds } });
    },
    meta: { notifyError: false },
    onSuccess: () => {
      notifyMessage(user ? 'settings.users.saved' : 'settings.users.created');
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
      onDone();
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? (error.error.field as Field | undefined) : undefined;
      if (error instanceof ApiRequestError && field && field in values) {
        setErrors({ [field]: errorMessage(error.error, t) });
      } else {
        notifyError(error, user ? 'settings.users.saveFailed' : 'settings.users.createFailed');
      }
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
    },
  });

  const reset = useMutation({
    mutationFn: (kind: 'google2fa' | 'u2f') =>
      apiFetch(`${orgPath(orgId)}/user/${encodeURIComponent(user?.id ?? '')}/${kind}/reset`, {
        method: 'POST',
      }),
    onSuccess: (_data, kind) => {
      notifyMessage(`settings.users.twoFactor.${kind}Done`);
      setResetting(null);
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
    },
  });

  const roleOptions = (roles.data?.items ?? [])
    .filter((role) => !role.deleted)
    .map((role: Role) => ({
      value: role.id,
      label: role.name,
      // Roles holding more than the administrator cannot be given by them; the server refuses them too.
      disabled: [...expandPermissions(role.permissions)].some((code) => !held.has(code)),
    }));
  if (user && !roleOptions.some((option) => option.value === user.roleId)) {
    roleOptions.push({ value: user.roleId, label: user.roleName, disabled: true });
  }
  const readOnly = !canEdit;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!readOnly && validate()) save.mutate();
      }}
    >
      <Stack gap="md">
        <TextInput
          label={t('settings.users.email')}
          type="email"
          required
          readOnly={readOnly}
          value={values.email}
          error={errors.email}
          onChange={(event) => set('email')(event.currentTarget.value)}
          description={user ? undefined : t('settings.users.emailHint')}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('settings.users.firstName')}
            required
            readOnly={readOnly}
            value={values.firstName}
            error={errors.firstName}
            onChange={(event) => set('firstName')(event.currentTarget.value)}
          />
          <TextInput
            label={t('settings.users.lastName')}
            required
            readOnly={readOnly}
            value={values.lastName}
            error={errors.lastName}
            onChange={(event) => set('lastName')(event.currentTarget.value)}
          />
        </Group>
        <TextInput
          label={t('settings.users.username')}
          readOnly={readOnly}
          value={values.username}
          error={errors.username}
          onChange={(event) => set('username')(event.currentTarget.value)}
        />
        <Select
          label={t('settings.users.role')}
          required
          readOnly={readOnly}
          data={roleOptions}
          value={values.roleId || null}
          error={errors.roleId}
          allowDeselect={false}
          searchable
          nothingFoundMessage={t('settings.users.noRoles')}
          onChange={(value) => set('roleId')(value ?? '')}
        />
        {jobDescriptorsOn && (
          <MultiSelect
            label={t('settings.users.jobDescriptors')}
            readOnly={readOnly}
            data={(jobDescriptors.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }))}
            value={values.jobDescriptorIds}
            error={errors.jobDescriptorIds}
            searchable
            nothingFoundMessage={t('settings.jobDescriptors.emptyTitle')}
            onChange={set('jobDescriptorIds')}
          />
        )}
        {user && providerStaff && (
          <MultiSelect
            label={t('settings.users.authorisedOrgs')}
            description={t('settings.users.authorisedOrgsHint')}
            readOnly={readOnly || userOrgs.isPending}
            data={grantable.map((org) => ({ value: org.id, label: org.name }))}
            value={orgIds ?? (userOrgs.data ?? []).filter((org) => !org.isHome).map((org) => org.id)}
            searchable
            onChange={setOrgIds}
          />
        )}
        {!readOnly && (
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {user ? t('common.save') : t('settings.users.create')}
            </Button>
          </Group>
        )}
        {user && canEdit && (
          <>
            <Divider label={t('settings.users.twoFactor.title')} labelPosition="left" />
            <Group justify="space-between">
              <Text size="sm">
                {t('settings.profile.twoFactor.authenticator')}:{' '}
                {t(
                  user.google2faEnabled
                    ? 'settings.profile.twoFactor.setUp'
                    : 'settings.profile.twoFactor.notSetUp',
                )}
              </Text>
              <Button
                size="xs"
                variant="light"
                color="red"
                disabled={!user.google2faEnabled}
                onClick={() => setResetting('google2fa')}
              >
                {t('settings.users.twoFactor.google2faReset')}
              </Button>
            </Group>
            <Group justify="space-between">
              <Text size="sm">
                {t('settings.profile.twoFactor.securityKey')}:{' '}
                {t(
                  user.u2fEnabled
                    ? 'settings.profile.twoFactor.registered'
                    : 'settings.profile.twoFactor.notRegistered',
                )}
              </Text>
              <Button
                size="xs"
                variant="light"
                color="red"
                disabled={!user.u2fEnabled}
                onClick={() => setResetting('u2f')}
              >
                {t('settings.users.twoFactor.u2fReset')}
              </Button>
            </Group>
            <ConfirmDialog
              opened={resetting !== null}
              title={t(`settings.users.twoFactor.${resetting ?? 'google2fa'}Reset`)}
              message={t(`settings.users.twoFactor.${resetting ?? 'google2fa'}Confirm`, {
                name: user.fullName,
              })}
              confirmLabel={t('settings.users.twoFactor.confirmLabel')}
              loading={reset.isPending}
              onCancel={() => setResetting(null)}
              onConfirm={() => {
                if (resetting) reset.mutate(resetting);
              }}
            />
          </>
        )}
      </Stack>
    </form>
  );
}
