import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, getRouteApi, useRouter } from '@tanstack/react-router';
import { IconHome } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { DEFAULT_LANDING, safeRedirectPath, withSearchParam } from '../../lib/redirect';
import { userOrgsQuery } from '../../lib/session';
import { PagePending } from '../../shell/page-pending';

const routeApi = getRouteApi('/select-org');

export const Route = createLazyRoute('/select-org')({
  component: SelectOrgPage,
});

function SelectOrgPage() {
  const { t } = useTranslation();
  usePageTitle(t('auth.selectOrg.title'));
  const router = useRouter();
  const { redirectUrl } = routeApi.useSearch();
  const { data } = useQuery(userOrgsQuery);
  const orgs = [...(data?.orgs ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  const choose = (orgId: string) =>
    void router.navigate({
      href: withSearchParam(safeRedirectPath(redirectUrl) ?? DEFAULT_LANDING, 'orgId', orgId),
    });

  useHotkeys([
    [
      'h',
      () => {
        if (data) choose(data.homeOrgId);
      },
    ],
  ]);

  if (!data) return <PagePending />;
  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" w="100%" maw={520}>
        <Stack gap="md">
          <Title order={1} size="h2">
            {t('auth.selectOrg.title')}
          </Title>
          <Text>{t('auth.selectOrg.instructions')}</Text>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {orgs.map((org) => (
              <li key={org.id}>
                <Button
                  variant={org.isHome ? 'light' : 'default'}
                  fullWidth
                  justify="space-between"
                  rightSection={
                    org.isHome ? (
                      <IconHome size={18} stroke={1.5} aria-label={t('auth.selectOrg.home')} role="img" />
                    ) : undefined
                  }
                  onClick={() => choose(org.id)}
                >
                  {org.name}
                </Button>
              </li>
            ))}
          </Stack>
        </Stack>
      </Paper>
    </Center>
  );
}
