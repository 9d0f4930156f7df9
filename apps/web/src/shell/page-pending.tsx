import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function PagePending() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}
