import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import './lib/i18n';
import type { AppRouter } from './router';
import { colorSchemeManager, theme } from './theme';

export interface AppProps {
  queryClient: QueryClient;
  router: AppRouter;
  /** 'test' in component tests: Mantine then skips transitions and positions dropdowns without layout. */
  env?: 'default' | 'test';
}

export function App({ queryClient, router, env = 'default' }: AppProps) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
      env={env}
    >
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
