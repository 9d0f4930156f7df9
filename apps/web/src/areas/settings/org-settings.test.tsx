import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const settingsPath = `/api/org/${HOME_ORG_ID}/global-settings`;

const withPermissions = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', { permissions })),
});

describe('organisation settings page', () => {
  it('needs GLOBAL_SETTINGS_VIEW', async () => {
    const fetchMock = stubApi(withPermissions(['DASHBOARD_VIEW']));
    renderApp(`/settings/org-settings?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith(settingsPath, expect.anything());
  });

  it('says when the settings cannot be loaded', async () => {
    stubApi({
      ...withPermissions(['GLOBAL_SETTINGS_VIEW']),
      [`GET ${settingsPath}`]: { status: 403, body: apiError('PERMISSION_DENIED', 'AccessDeniedException') },
    });
    renderApp(`/settings/org-settings?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('The organisation settings could not be loaded.')).toBeInTheDocument();
  });

  it('shows the settings read-only without GLOBAL_SETTINGS_EDIT', async () => {
    stubApi({
      ...withPermissions(['GLOBAL_SETTINGS_VIEW']),
      [`GET ${settingsPath}`]: { body: { emailTimezone: 'America/Chicago', requireTwoFactor: true } },
    });
    renderApp(`/settings/org-settings?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('combobox', { name: 'E-mail timezone' })).toHaveValue('Chicago (Central)');
    expect(screen.getByText('You can see these settings but not change them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('changes the e-mail timezone with GLOBAL_SETTINGS_EDIT', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['GLOBAL_SETTINGS_VIEW', 'GLOBAL_SETTINGS_EDIT']),
      [`GET ${settingsPath}`]: { body: { emailTimezone: 'America/Chicago', requireTwoFactor: false } },
      [`PUT ${settingsPath}`]: { body: { emailTimezone: 'UTC', requireTwoFactor: false } },
    });
    const { user } = renderApp(`/settings/org-settings?orgId=${HOME_ORG_ID}`);

    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'E-mail timezone' }));
    await user.click(await screen.findByRole('option', { name: 'UTC' }));
    await user.click(save);

    expect(await screen.findByText('The organisation settings have been saved.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        settingsPath,
        expect.objectContaining({ method: 'PUT', body: JSON.stringify({ emailTimezone: 'UTC' }) }),
      ),
    );
  });
});
