import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOrgContext } from '../../lib/org-context';
import { useHasPermission } from '../../lib/session';

/** Provider administrators (TRAC_ADMIN in the provider's organisation) manage the report library. */
export function useProviderAdmin(): boolean {
  const tracAdmin = useHasPermission('TRAC_ADMIN');
  const providerOrg = Boolean(useOrgContext()?.org.isProvider);
  return tracAdmin && providerOrg;
}

/** Switches a reports list between the organisation's items and the provider's library. */
export function LibrarySwitch({
  library,
  onChange,
}: {
  library: boolean;
  onChange: (library: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      aria-label={t('reports.libraryView.label')}
      value={library ? 'library' : 'org'}
      onChange={(value) => onChange(value === 'library')}
      data={[
        { value: 'org', label: t('reports.libraryView.org') },
        { value: 'library', label: t('reports.libraryView.library') },
      ]}
    />
  );
}
