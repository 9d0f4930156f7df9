import { createLazyRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ClassifierList } from './classifier-list';

export const Route = createLazyRoute('/classifiers')({
  component: ClassifiersPage,
});

/** The organisation's classifiers: CLASSIFIER_VIEW to see them, CLASSIFIER_EDIT to change them. */
function ClassifiersPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.tabs.classifiers')} allowed={useHasPermission('CLASSIFIER_VIEW')} maw={1400}>
      <ClassifierList mode="org" />
    </GatedPage>
  );
}
