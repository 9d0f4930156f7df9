import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** The 'lost device' link of the two-factor pages and the dialog that says what to do. */
export function LostDevice() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Anchor component="button" type="button" size="sm" onClick={open}>
        {t('auth.lostDevice.link')}
      </Anchor>
      <Modal opened={opened} onClose={close} title={t('auth.lostDevice.title')} centered>
        <Stack gap="md">
          <Text>{t('auth.lostDevice.message')}</Text>
          <Group justify="flex-end">
            <Button onClick={close}>{t('auth.lostDevice.close')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
