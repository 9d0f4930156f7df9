import { useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from './message-page';

export function NotFoundPage() {
  const { t } = useTranslation();
  const path = useLocation({ select: (location) => location.pathname });
  return <MessagePage title={t('notFound.title')} message={t('notFound.message', { path })} />;
}
