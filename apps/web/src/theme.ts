import { createTheme, Drawer, localStorageColorSchemeManager, Modal } from '@mantine/core';
import { i18n } from './lib/i18n';

// Mantine's close buttons carry only an icon; screen readers (and tests) need their name.
const closeButtonProps = { 'aria-label': i18n.t('common.close') };

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps } }),
  },
});

export const colorSchemeManager = localStorageColorSchemeManager({ key: 'vigil-color-scheme' });
