import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTACT_NUMBER_TYPES,
  CONTACT_NUMBERS_MAX,
  contactNumberSchema,
  profileSchema,
  usernameSchema,
  type ContactNumber,
  type ContactNumberType,
  type Profile,
} from '@vigil/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { refreshCurrentUser } from '../../lib/session';
import { orgPath, profileQuery } from './access-queries';

/** The user's own name, username and contact numbers (PUT /api/org/:orgId/user). */
export function ProfileDetailsCard({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const profile = useQuery(profileQuery(orgId));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('settings.profile.details.title')}
        </Title>
        {profile.isPending ? (
          <Loader size="sm" aria-label={t('app.loading')} />
        ) : profile.isError ? (
          <Alert color="red" title={t('settings.profile.details.loadFailed')}>
            {describeError(profile.error, t)}
          </Alert>
        ) : (
          <ProfileForm orgId={orgId} profile={profile.data} />
        )}
      </Stack>
    </Card>
  );
}

type Errors = Partial<Record<'firstName' | 'lastName' | 'username' | `number${number}`, string>>;

function ProfileForm({ orgId, profile }: { orgId: string; profile: Profile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const [username, setUsername] = useState(profile.username ?? '');
  const [numbers, setNumbers] = useState<ContactNumber[]>(profile.contactNumbers);
  const [errors, setErrors] = useState<Errors>({});

  const validate = () => {
    const found: Errors = {};
    if (!firstName.trim()) found.firstName = t('ERROR_REQUIRED');
    if (!lastName.trim()) found.lastName = t('ERROR_REQUIRED');
    if (username.trim() && !usernameSchema.safeParse(username).success) {
      found.username = t('settings.users.invalidUsername');
    }
    numbers.forEach((entry, index) => {
      if (!contactNumberSchema.safeParse(entry).success)
        found[`number${index}`] = t('settings.profile.details.invalidNumber');
    });
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const save = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/user`, {
        method: 'PUT',
        body: {
          firstName: firstName.trim(),
          lastName: lastName.trim(),
          username: username.trim() || null,
          contactNumbers: numbers.map((entry) => ({ type: entry.type, number: entry.number.trim() })),
        },
        schema: profileSchema,
      }),
    meta: { notifyError: false },
    onSuccess: async (saved) => {
      queryClient.setQueryData(profileQuery(orgId).queryKey, saved);
      notifyMessage('settings.profile.details.saved');
      // The header and the account card show the name.
      await refreshCurrentUser(queryClient);
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.field === 'username') {
        setErrors({ username: errorMessage(error.error, t) });
      } else notifyError(error, 'settings.profile.details.saveFailed');
    },
  });

  const setNumber = (index: number, patch: Partial<ContactNumber>) => {
    setNumbers((current) => current.map((entry, i) => (i === index ? { ...entry, ...patch } : entry)));
    setErrors((current) => ({ ...current, [`number${index}`]: undefined }));
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (validate()) save.mutate();
      }}
    >
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput
            label={t('settings.users.firstName')}
            required
            value={firstName}
            error={errors.firstName}
            onChange={(event) => setFirstName(event.currentTarget.value)}
          />
          <TextInput
            label={t('settings.users.lastName')}
            required
            value={lastName}
            error={errors.lastName}
            onChange={(event) => setLastName(event.currentTarget.value)}
          />
        </Group>
        <TextInput
          label={t('settings.users.username')}
          value={username}
          error={errors.username}
          onChange={(event) => {
            setUsername(event.currentTarget.value);
            setErrors((current) => ({ ...current, username: undefined }));
          }}
        />
        <Text size="sm" fw={500}>
          {t('settings.profile.details.contactNumbers')}
        </Text>
        {numbers.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('settings.profile.details.noNumbers')}
          </Text>
        )}
        {numbers.map((entry, index) => (
          <Group key={index} align="flex-start" wrap="nowrap">
            <Select
              aria-label={t('settings.profile.details.numberType', { index: index + 1 })}
              data={CONTACT_NUMBER_TYPES.map((type) => ({
                value: type,
                label: t(`settings.profile.details.types.${type}`),
              }))}
              value={entry.type}
              allowDeselect={false}
              onChange={(value) => setNumber(index, { type: (value ?? 'Main') as ContactNumberType })}
              w={150}
            />
            <TextInput
              aria-label={t('settings.profile.details.number', { index: index + 1 })}
              type="tel"
              value={entry.number}
              error={errors[`number${index}`]}
              onChange={(event) => setNumber(index, { number: event.currentTarget.value })}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={4}
              aria-label={t('settings.profile.details.removeNumber', { index: index + 1 })}
              onClick={() => setNumbers((current) => current.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} />}
            disabled={numbers.length >= CONTACT_NUMBERS_MAX}
            onClick={() => setNumbers((current) => [...current, { type: 'Main', number: '' }])}
          >
            {t('settings.profile.details.addNumber')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
