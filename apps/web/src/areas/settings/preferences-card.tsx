import { Card, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { TIMEZONES, type Timezone } from '@vigil/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePreferences, useUpdatePreferences } from '../../lib/preferences';

/** Rows per page offered for lists; the preference itself accepts 5 to 500. */
const PAGE_SIZES = [10, 25, 50, 100, 250];

/** The user's display preferences in this organisation, saved as they change. */
export function PreferencesCard() {
  const { t } = useTranslation();
  const headingId = useId();
  const preferences = usePreferences();
  const updatePreferences = useUpdatePreferences();
  const pageSizes = PAGE_SIZES.includes(preferences.pageSize)
    ? PAGE_SIZES
    : [...PAGE_SIZES, preferences.pageSize].sort((a, b) => a - b);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('settings.profile.preferences.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.profile.preferences.hint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('settings.profile.preferences.defaultTimezone')}
            data={TIMEZONES.map((zone) => ({ value: zone, label: t(`timezones.${zone}`) }))}
            value={preferences.defaultTimezone}
            allowDeselect={false}
            onChange={(zone) => {
              if (zone) updatePreferences({ defaultTimezone: zone as Timezone });
            }}
          />
          <Select
            label={t('settings.profile.preferences.pageSize')}
            data={pageSizes.map((size) => String(size))}
            value={String(preferences.pageSize)}
            allowDeselect={false}
            onChange={(size) => {
              if (size) updatePreferences({ pageSize: Number(size) });
            }}
          />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
