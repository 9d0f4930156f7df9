import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
});

export const colorSchemeManager = localStorageColorSchemeManager({ key: 'vigil-color-scheme' });
