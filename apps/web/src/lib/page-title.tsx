import { documentTitle } from '@vigil/contracts';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentOrg } from './session';

const SetPageTitleContext = createContext<(title: string | undefined) => void>(() => {});

/** Keeps the document title as "organisation name - page title" (spec 1 section 2.5). */
export function PageTitleProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [pageTitle, setPageTitle] = useState<string | undefined>();
  const orgName = useCurrentOrg()?.name;
  useEffect(() => {
    document.title = documentTitle(orgName, pageTitle, t('app.name'));
  }, [orgName, pageTitle, t]);
  return <SetPageTitleContext.Provider value={setPageTitle}>{children}</SetPageTitleContext.Provider>;
}

/** Names the page in the document title while the calling component is on screen. */
export function usePageTitle(title: string | undefined): void {
  const setPageTitle = useContext(SetPageTitleContext);
  useEffect(() => {
    setPageTitle(title);
    return () => setPageTitle(undefined);
  }, [setPageTitle, title]);
}
