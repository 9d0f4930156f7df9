import { Button, Menu, useMantineColorScheme } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useCanToggleReadOnly, useOrgContext, useSetReadOnlyMode } from '../lib/org-context';
import { usePreferences, useUpdatePreferences } from '../lib/preferences';
import { useCurrentUser, useLogout } from '../lib/session';

/**
 * The signed-in user's menu (spec 1 section 2.5): their name, the profile, the switches for inactivity
 * timeout, shortcut keys, read-only mode and dark mode, and log-out. Outside an organisation (choosing
 * one, say) only log-out applies.
 */
export function UserMenu({ inOrg }: { inOrg: boolean }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const logout = useLogout();
  if (!user) return null;
  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        <Button variant="subtle" color="gray" rightSection={<IconChevronDown size={14} stroke={1.5} />}>
          {user.fullName}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {inOrg && <OrgMenuItems />}
        <Menu.Item leftSection={<IconLogout size={16} stroke={1.5} />} onClick={() => void logout()}>
          {t('shell.userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function OrgMenuItems() {
  const { t } = useTranslation();
  const preferences = usePreferences();
  const updatePreferences = useUpdatePreferences();
  const { setColorScheme } = useMantineColorScheme();
  const canToggleReadOnly = useCanToggleReadOnly();
  const readOnlyMode = useOrgContext()?.readOnlyMode ?? false;
  const setReadOnlyMode = useSetReadOnlyMode();

  const setDarkMode = (darkMode: boolean) => {
    setColorScheme(darkMode ? 'dark' : 'light');
    updatePreferences({ darkMode });
  };

  return (
    <>
      <Menu.Item component={Link} to="/settings/profile" leftSection={<IconUser size={16} stroke={1.5} />}>
        {t('shell.userMenu.profile')}
      </Menu.Item>
      <Menu.Divider />
      <Menu.CheckboxItem
        checked={preferences.inactivityTimeout}
        onChange={(inactivityTimeout) => updatePreferences({ inactivityTimeout })}
      >
        {t('shell.userMenu.inactivityTimeout')}
      </Menu.CheckboxItem>
      <Menu.CheckboxItem
        checked={preferences.shortcutKeys}
        onChange={(shortcutKeys) => updatePreferences({ shortcutKeys })}
      >
        {t('shell.userMenu.shortcutKeys')}
      </Menu.CheckboxItem>
      {canToggleReadOnly && (
        <Menu.CheckboxItem
          checked={setReadOnlyMode.isPending ? setReadOnlyMode.variables : readOnlyMode}
          disabled={setReadOnlyMode.isPending}
          onChange={(enabled) => setReadOnlyMode.mutate(enabled)}
        >
          {t('shell.userMenu.readOnly')}
        </Menu.CheckboxItem>
      )}
      <Menu.CheckboxItem checked={preferences.darkMode} onChange={setDarkMode}>
        {t('shell.userMenu.darkMode')}
      </Menu.CheckboxItem>
      <Menu.Divider />
    </>
  );
}
