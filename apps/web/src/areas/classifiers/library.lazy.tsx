import { createLazyRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useFeature } from '../../lib/org-context';
import { useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ClassifierList } from './classifier-list';

export const Route = createLazyRoute('/classifiers/library')({
  component: ClassifierLibraryPage,
});

/**
 * The classifier library (feature classifierLibrary, CLASSIFIER_VIEW and TRAC_ENGINEER, like its
 * navigation entry); provider staff change it, other engineers read it.
 */
function ClassifierLibraryPage() {
  const { t } = useTranslation();
  const canView = useHasPermission('CLASSIFIER_VIEW');
  const engineer = useHasPermission('TRAC_ENGINEER');
  const libraryOn = useFeature('classifierLibrary');
  return (
    <GatedPage title={t('nav.tabs.classifierLibrary')} allowed={canView && engineer && libraryOn} maw={1400}>
      <ClassifierList mode="library" />
    </GatedPage>
  );
}
