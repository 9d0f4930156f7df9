import {
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  BANNER_TYPES,
  bannerInputSchema,
  bannerSchema,
  isProviderAdmin,
  type Banner,
} from '@vigil/contracts';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useNavContext, useOrgContextQuery } from '../../lib/org-context';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { bannersQuery } from '../../shell/info-banner';
import { NotPermitted } from '../../shell/not-permitted';
import { adminBannersPath, adminBannersQuery, type AdminBanner } from './queries';
import { LoadFailed, LoadingLine } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/banners')({
  component: BannersPage,
});

/** Provider administrators: the info banners every user sees, created and ended here. */
function BannersPage() {
  const { t } = useTranslation();
  usePageTitle(t('nav.tabs.banners'));
  const context = useOrgContextQuery();
  const allowed = isProviderAdmin(useNavContext());
  return (
    <Stack gap="lg" maw={1000}>
      <Title order={1}>{t('nav.tabs.banners')}</Title>
      {context.isPending ? (
        <Loader aria-label={t('app.loading')} />
      ) : allowed ? (
        <>
          <CreateBannerForm />
          <BannerList />
        </>
      ) : (
        <NotPermitted />
      )}
    </Stack>
  );
}

/** Both the administrators' list and every user's banner queue change with a banner. */
function useRefreshBanners(orgId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminBannersQuery(orgId).queryKey }),
      queryClient.invalidateQueries({ queryKey: bannersQuery.queryKey }),
    ]);
}

type BannerInput = z.input<typeof bannerInputSchema>;

interface BannerFormValues {
  type: Banner['type'];
  title: string;
  message: string;
  hyperlink: string;
  /** A datetime-local value, in the administrator's timezone. */
  endsAt: string;
}

const EMPTY_FORM: BannerFormValues = { type: 'info', title: '', message: '', hyperlink: '', endsAt: '' };

function inputOf(values: BannerFormValues): BannerInput {
  const endsAt = values.endsAt ? new Date(values.endsAt) : null;
  return {
    type: values.type,
    title: values.title.trim(),
    message: values.message.trim(),
    hyperlink: values.hyperlink.trim() || null,
    endsAt: endsAt && !Number.isNaN(endsAt.getTime()) ? endsAt.toISOString() : null,
  };
}

function validate(values: BannerFormValues, t: TFunction): Partial<Record<keyof BannerFormValues, string>> {
  const result = bannerInputSchema.safeParse(inputOf(values));
  const errors: Partial<Record<keyof BannerFormValues, string>> = {};
  if (values.endsAt && inputOf(values).endsAt === null) errors.endsAt = t('settings.banners.invalidDate');
  else if (values.endsAt && new Date(values.endsAt).getTime() <= Date.now()) {
    errors.endsAt = t('settings.banners.pastDate');
  }
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof BannerFormValues | undefined;
    if (!field || errors[field]) continue;
    if (field === 'hyperlink') errors.hyperlink = t('settings.banners.invalidLink');
    else if (field === 'title' || field === 'message') {
      errors[field] = values[field].trim() === '' ? t('ERROR_REQUIRED') : t('settings.banners.tooLong');
    } else errors[field] = t('errors.invalidField', { field });
  }
  return errors;
}

function CreateBannerForm() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const refresh = useRefreshBanners(orgId);
  const headingId = useId();
  const [values, setValues] = useState(EMPTY_FORM);
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation({
    mutationFn: (input: BannerInput) =>
      apiFetch(adminBannersPath(orgId), { method: 'POST', body: input, schema: bannerSchema }),
    onSuccess: async () => {
      setValues(EMPTY_FORM);
      setSubmitted(false);
      notifyMessage('settings.banners.created');
      await refresh();
    },
    meta: { errorKey: 'settings.banners.createFailed' },
  });
  const errors = submitted ? validate(values, t) : {};
  const set = <K extends keyof BannerFormValues>(field: K, value: BannerFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (Object.keys(validate(values, t)).length === 0) create.mutate(inputOf(values));
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id={headingId}>
            {t('settings.banners.newTitle')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('settings.banners.type')}
              data={BANNER_TYPES.map((type) => ({ value: type, label: t(`settings.banners.types.${type}`) }))}
              value={values.type}
              allowDeselect={false}
              onChange={(type) => {
                if (type) set('type', type as Banner['type']);
              }}
            />
            <TextInput
              label={t('settings.banners.title')}
              required
              value={values.title}
              onChange={(event) => set('title', event.currentTarget.value)}
              error={errors.title}
            />
          </SimpleGrid>
          <Textarea
            label={t('settings.banners.message')}
            required
            autosize
            minRows={2}
            value={values.message}
            onChange={(event) => set('message', event.currentTarget.value)}
            error={errors.message}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              type="url"
              label={t('settings.banners.hyperlink')}
              placeholder="https://"
              value={values.hyperlink}
              onChange={(event) => set('hyperlink', event.currentTarget.value)}
              error={errors.hyperlink}
            />
            <TextInput
              type="datetime-local"
              label={t('settings.banners.endsAt')}
              description={t('settings.banners.endsAtHint')}
              value={values.endsAt}
              onChange={(event) => set('endsAt', event.currentTarget.value)}
              error={errors.endsAt}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              {t('settings.banners.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

const formatTime = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

function BannerList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const banners = useQuery(adminBannersQuery(orgId));
  const refresh = useRefreshBanners(orgId);
  const [ending, setEnding] = useState<AdminBanner | null>(null);
  const end = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${adminBannersPath(orgId)}/${encodeURIComponent(id)}/end`, { method: 'POST' }),
    onSuccess: async () => {
      setEnding(null);
      notifyMessage('settings.banners.ended');
      await refresh();
    },
    meta: { errorKey: 'settings.banners.endFailed' },
  });

  if (banners.isPending) {
    return <LoadingLine label={t('settings.banners.loading')} />;
  }
  if (banners.isError) {
    return (
      <LoadFailed
        title={t('ERROR_LOADING_INFO_BANNERS')}
        error={banners.error}
        onRetry={() => void banners.refetch()}
      />
    );
  }
  if (banners.data.items.length === 0) {
    return (
      <EmptyState
        icon={<IconSpeakerphone size={32} stroke={1.5} />}
        withIndicatorBackground
        title={t('settings.banners.emptyTitle')}
        description={t('settings.banners.emptyMessage')}
      />
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={720}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.banners.title')}</Table.Th>
              <Table.Th>{t('settings.banners.type')}</Table.Th>
              <Table.Th>{t('settings.banners.status')}</Table.Th>
              <Table.Th>{t('settings.banners.endsAt')}</Table.Th>
              <Table.Th>{t('settings.banners.createdAt')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {banners.data.items.map((banner) => (
              <Table.Tr key={banner.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {banner.title}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {banner.message}
                  </Text>
                </Table.Td>
                <Table.Td>{t(`settings.banners.types.${banner.type}`)}</Table.Td>
                <Table.Td>
                  <Badge color={banner.active ? 'green' : 'gray'} variant="light">
                    {banner.active ? t('settings.banners.active') : t('settings.banners.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatTime(banner.endsAt)}</Table.Td>
                <Table.Td>{formatTime(banner.createdAt)}</Table.Td>
                <Table.Td>
                  {banner.active && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={t('settings.banners.endNamed', { title: banner.title })}
                      onClick={() => setEnding(banner)}
                    >
                      {t('settings.banners.end')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={ending !== null}
        title={t('settings.banners.endTitle')}
        message={t('settings.banners.endMessage', { title: ending?.title ?? '' })}
        confirmLabel={t('settings.banners.end')}
        loading={end.isPending}
        onConfirm={() => {
          if (ending) end.mutate(ending.id);
        }}
        onCancel={() => setEnding(null)}
      />
    </>
  );
}
