import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/page-title';
import { ButtonLink } from './links';

/** A page that only says something, such as not found or not authorised, with a way back. */
export function MessagePage({ title, message }: { title: string; message: string }) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <Stack align="flex-start" gap="md" maw={640}>
      <Title order={1}>{title}</Title>
      <Text>{message}</Text>
      <ButtonLink to="/dashboards/default" variant="light">
        {t('shell.backToDashboards')}
      </ButtonLink>
    </Stack>
  );
}
