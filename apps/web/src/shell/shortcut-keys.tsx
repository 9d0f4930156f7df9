import { Kbd, Modal, Table } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../lib/preferences';
import { useStepOrg } from './org-selector';

/** The shell's keys, in the order the help lists them. */
export const SHORTCUTS = [
  { key: '?', labelKey: 'shortcuts.help' },
  { key: '[', labelKey: 'shortcuts.previousOrg' },
  { key: ']', labelKey: 'shortcuts.nextOrg' },
  { key: 'b', labelKey: 'shortcuts.toggleLeftBar' },
] as const;

type ShortcutKey = (typeof SHORTCUTS)[number]['key'];

/** Typing in a field must never trigger a shortcut. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The shell's keyboard shortcuts, while the user has them switched on, and their help dialog (opened
 * with ?). Renders only the dialog.
 */
export function ShortcutKeys({ onToggleLeftBar }: { onToggleLeftBar: () => void }) {
  const { t } = useTranslation();
  const { shortcutKeys } = usePreferences();
  const stepOrg = useStepOrg();
  const [helpOpened, help] = useDisclosure(false);

  useEffect(() => {
    if (!shortcutKeys) return;
    const actions: Record<ShortcutKey, () => void> = {
      '?': help.open,
      '[': () => stepOrg(-1),
      ']': () => stepOrg(1),
      b: onToggleLeftBar,
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isEditable(event.target)) return;
      const action = actions[event.key as ShortcutKey] as (() => void) | undefined;
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [shortcutKeys, help.open, stepOrg, onToggleLeftBar]);

  return (
    <Modal opened={helpOpened && shortcutKeys} onClose={help.close} title={t('shortcuts.title')} centered>
      <Table>
        <Table.Tbody>
          {SHORTCUTS.map((shortcut) => (
            <Table.Tr key={shortcut.key}>
              <Table.Td w={60}>
                <Kbd>{shortcut.key}</Kbd>
              </Table.Td>
              <Table.Td>{t(shortcut.labelKey)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
