import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app';

const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');

describe('colour-scheme toggle', () => {
  it('starts light and switches between light and dark, remembering the choice', async () => {
    const { user } = renderApp('/unauthorized');

    await user.click(await screen.findByRole('button', { name: 'Switch to dark mode' }));
    expect(scheme()).toBe('dark');
    expect(localStorage.getItem('vigil-color-scheme')).toBe('dark');

    await user.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(scheme()).toBe('light');
    expect(screen.getByRole('button', { name: 'Switch to dark mode' })).toBeInTheDocument();
  });

  it('opens in the scheme chosen earlier', async () => {
    localStorage.setItem('vigil-color-scheme', 'dark');
    renderApp('/unauthorized');

    expect(await screen.findByRole('button', { name: 'Switch to light mode' })).toBeInTheDocument();
    expect(scheme()).toBe('dark');
  });
});
