import { createMemoryHistory } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../app';
import { createQueryClient } from '../lib/query';
import { createAppRouter } from '../router';

/** Renders the whole app, as a browser would show it, at `path`. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  const user = userEvent.setup();
  render(<App queryClient={queryClient} router={router} env="test" />);
  return { router, user };
}
