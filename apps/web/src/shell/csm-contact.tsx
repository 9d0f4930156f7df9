import { Anchor, Button, Popover, Stack, Text } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useFeature, useOrgContext } from '../lib/org-context';

/** The customer-success contact of the organisation (spec 1 section 2.5, feature csmInformation). */
export function CsmContact() {
  const { t } = useTranslation();
  const enabled = useFeature('csmInformation');
  const csm = useOrgContext()?.csm;
  if (!enabled || !csm) return null;
  return (
    <Popover position="bottom-end" width={280} shadow="md">
      <Popover.Target>
        <Button variant="subtle" color="gray" leftSection={<IconHeadset size={18} stroke={1.5} />}>
          {t('header.csm')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {t('header.csmTitle')}
          </Text>
          <Text fw={500}>{csm.csmName}</Text>
          <Anchor href={`mailto:${csm.csmEmailAddress}`} size="sm">
            {csm.csmEmailAddress}
          </Anchor>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
