import { AppShell, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useSearch } from '@tanstack/react-router';
import { LEFT_BAR_WIDTH_COLLAPSED, LEFT_BAR_WIDTH_EXPANDED } from '@vigil/contracts';
import { useCallback, useEffect } from 'react';
import { PageTitleProvider } from '../lib/page-title';
import { usePreferences, usePreferencesQuery, useUpdatePreferences } from '../lib/preferences';
import { useCurrentOrg, useCurrentUser } from '../lib/session';
import { SidePanelProvider } from '../lib/side-panel';
import { AdBlockNotice } from './ad-block-notice';
import { OrgHeader, PublicHeader } from './app-header';
import { InfoBanner } from './info-banner';
import { InfoPanel } from './info-panel/info-panel';
import { LeftBar } from './left-bar';
import { SectionTabs } from './section-tabs';
import { SessionWatcher } from './session-watcher';
import { ShortcutKeys } from './shortcut-keys';

const HEADER_HEIGHT = 56;

/**
 * The frame around every page. Inside an organisation it is the full shell of spec 1 section 2.5:
 * header, left bar, banner, section tabs and the info panel; a page opened with isNewTab shows no
 * navigation. Elsewhere (signing in, choosing an organisation) only a plain header.
 */
export function ShellLayout() {
  const signedIn = useCurrentUser() !== null;
  const inOrg = useCurrentOrg() !== undefined && signedIn;
  const isNewTab = useSearch({ strict: false, select: (search) => search.isNewTab === true });
  const withNavigation = inOrg && !isNewTab;
  const preferences = usePreferences();
  const updatePreferences = useUpdatePreferences();
  const [mobileNavOpened, mobileNav] = useDisclosure(false);
  const collapsed = !preferences.leftBarVisible;
  const toggleLeftBar = useCallback(
    () => updatePreferences({ leftBarVisible: collapsed }),
    [updatePreferences, collapsed],
  );

  return (
    <PageTitleProvider>
      <SidePanelProvider>
        <AppShell
          header={{ height: HEADER_HEIGHT }}
          navbar={
            withNavigation
              ? {
                  width: collapsed ? LEFT_BAR_WIDTH_COLLAPSED : LEFT_BAR_WIDTH_EXPANDED,
                  breakpoint: 'sm',
                  collapsed: { mobile: !mobileNavOpened },
                }
              : undefined
          }
          padding="md"
        >
          <SessionWatcher />
          <AppShell.Header>
            {inOrg ? (
              <OrgHeader
                {...(withNavigation ? { navOpened: mobileNavOpened, onNavToggle: mobileNav.toggle } : {})}
              />
            ) : (
              <PublicHeader />
            )}
          </AppShell.Header>
          {withNavigation && (
            <AppShell.Navbar>
              <LeftBar collapsed={collapsed} onToggle={toggleLeftBar} />
            </AppShell.Navbar>
          )}
          <AppShell.Main>
            {inOrg && <InfoBanner />}
            {withNavigation && <SectionTabs />}
            <Outlet />
          </AppShell.Main>
          {inOrg && (
            <>
              <InfoPanel />
              <AdBlockNotice />
              <DarkModePreference />
              <ShortcutKeys onToggleLeftBar={toggleLeftBar} />
            </>
          )}
        </AppShell>
      </SidePanelProvider>
    </PageTitleProvider>
  );
}

/**
 * Applies the stored dark-mode preference. The colour scheme also stays in local storage, so that the
 * first paint, and the pages outside an organisation, already have it.
 */
function DarkModePreference() {
  const darkMode = usePreferencesQuery().data?.darkMode;
  const { setColorScheme } = useMantineColorScheme();
  useEffect(() => {
    if (darkMode !== undefined) setColorScheme(darkMode ? 'dark' : 'light');
  }, [darkMode, setColorScheme]);
  return null;
}
