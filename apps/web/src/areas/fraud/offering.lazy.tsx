import { Anchor, Card, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingBank } from '@tabler/icons-react';
import { createLazyRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useFeature, useHasSku, useOrgContext } from '../../lib/org-context';
import { usePageTitle } from '../../lib/page-title';
import { ButtonLink } from '../../shell/links';

export const Route = createLazyRoute('/fraud/offering')({
  component: FraudOfferingPage,
});

/** Where the Fraud entry leads an organisation without a fraud product (spec 1 section 2.6). */
function FraudOfferingPage() {
  const { t } = useTranslation();
  usePageTitle(t('fraud.offering.title'));
  const hasFraud = useHasSku('fraud');
  const csmEnabled = useFeature('csmInformation');
  const csm = useOrgContext()?.csm;

  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>{t('fraud.offering.title')}</Title>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
            <IconBuildingBank size={28} stroke={1.5} />
          </ThemeIcon>
          <Text>{t('fraud.offering.intro')}</Text>
          <List spacing="xs">
            <List.Item>{t('fraud.offering.inbox')}</List.Item>
            <List.Item>{t('fraud.offering.triggers')}</List.Item>
            <List.Item>{t('fraud.offering.threat')}</List.Item>
            <List.Item>{t('fraud.offering.watchlists')}</List.Item>
          </List>
          <Text>{t('fraud.offering.editions')}</Text>
          {hasFraud ? (
            <Stack align="flex-start" gap="xs">
              <Text fw={500}>{t('fraud.offering.entitled')}</Text>
              <ButtonLink to="/fraud/$" params={{ _splat: 'inbox' }} variant="light">
                {t('fraud.offering.open')}
              </ButtonLink>
            </Stack>
          ) : csmEnabled && csm ? (
            <Text>
              {t('fraud.offering.contactCsm', { name: csm.csmName })}{' '}
              <Anchor href={`mailto:${csm.csmEmailAddress}`}>{csm.csmEmailAddress}</Anchor>
            </Text>
          ) : (
            <Text>{t('fraud.offering.contact')}</Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
