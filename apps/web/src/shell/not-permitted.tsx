import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** In place of a page's content when the user lacks what it needs. */
export function NotPermitted() {
  const { t } = useTranslation();
  return (
    <Alert
      color="gray"
      icon={<IconLock size={18} stroke={1.5} />}
      title={t('shell.notPermitted.title')}
      maw={640}
    >
      {t('shell.notPermitted.message')}
    </Alert>
  );
}
