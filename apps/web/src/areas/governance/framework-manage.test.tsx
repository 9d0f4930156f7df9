import { screen, waitFor, within } from '@testing-library/react';
import type { EvaluationPeriod, FrameworkDetail } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { FRAMEWORK_EDIT, gov, withAccess } from './test-fixtures';

/** An imported catalog: no tiers until someone gives it some. */
const imported: FrameworkDetail = {
  id: 'f7',
  name: 'Imported catalog',
  version: '1.0',
  description: '',
  source: 'oscal',
  libraryKey: null,
  tiers: [],
  targetTier: null,
  sectionCount: 1,
  controlCount: 1,
  currentPeriod: null,
  createdOn: '2026-01-01T00:00:00.000Z',
  riskProfile: null,
  sections: [{ id: 's1', parentId: null, ref: 'AC', title: 'Access', description: '', targetTier: null }],
  controls: [
    {
      id: 'c1',
      sectionId: 's1',
      ref: 'AC-1',
      title: 'Policy',
      statement: 'An access policy exists',
      examples: [],
      mandatory: false,
      alertable: false,
      triggerId: null,
      triggerName: null,
      triggerDomain: null,
    },
  ],
};

const inProgress: EvaluationPeriod = {
  id: 'p7',
  frameworkId: 'f7',
  name: 'FY 2026',
  startsOn: '2026-01-01',
  endsOn: '2026-12-31',
  state: 'IN_PROGRESS',
  extensions: [],
  finalizedOn: null,
  finalizedByName: null,
  tiers: {},
  riskProfile: {},
  answered: 0,
  controlCount: 1,
  createdOn: '2026-01-01T00:00:00.000Z',
};

const routesOf = (framework: () => FrameworkDetail, periods: EvaluationPeriod[] = []) => ({
  ...withAccess(FRAMEWORK_EDIT),
  [`GET ${gov}/framework/f7`]: () => ({ body: framework() }),
  [`GET ${gov}/framework/f7/periods`]: { body: periods },
  [`GET ${gov}/period/p7/answers`]: { body: [] },
  [`GET ${gov}/frameworks`]: { body: [] },
  [`GET ${gov}/framework-library`]: { body: [] },
});

describe('managing a framework', () => {
  it('renames a framework', async () => {
    let current = imported;
    const fetchMock = stubApi({
      ...routesOf(() => current),
      [`PATCH ${gov}/framework/f7`]: ({ init }) => {
        current = { ...current, ...(requestBody(init) as Partial<FrameworkDetail>) };
        return { body: current };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f7?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit framework' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    expect(name).toBeRequired();
    await user.type(name, 'Bank controls');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Our own catalog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Bank controls' })).toBeInTheDocument();
    expect(screen.getByText('Our own catalog')).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(requestBody(patch?.[1])).toEqual({ name: 'Bank controls', description: 'Our own catalog' });
  });

  it('gives an imported framework its tiers, in order, and shows why a change was refused', async () => {
    let current = imported;
    let refuse = false;
    const fetchMock = stubApi({
      ...routesOf(() => current),
      [`PUT ${gov}/framework/f7/tiers`]: ({ init }) => {
        if (refuse) {
          return {
            status: 409,
            body: { ...apiError('GOVERNANCE_TIER_IN_USE'), params: { tier: 'Managed' } },
          };
        }
        current = { ...current, tiers: requestBody(init).tiers as string[] };
        return { body: current };
      },
    });
    const { user } = renderApp(`/governance/frameworks/f7?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText(/No maturity tiers/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Maturity tiers' }));
    let dialog = await screen.findByRole('dialog', { name: 'Maturity tiers' });
    for (const tier of ['Managed', 'Initial', 'Optimised']) {
      await user.click(within(dialog).getByRole('button', { name: 'Add tier' }));
      const inputs = within(dialog).getAllByRole('textbox');
      await user.type(inputs.at(-1)!, tier);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Move tier 2 up' }));
    expect(within(dialog).getByRole('button', { name: 'Move tier 1 up' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Maturity tiers, lowest first: Initial → Managed → Optimised'),
    ).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(requestBody(put?.[1])).toEqual({ tiers: ['Initial', 'Managed', 'Optimised'] });
    expect(screen.getByRole('combobox', { name: 'Target tier' })).toBeInTheDocument();

    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Maturity tiers' }));
    dialog = await screen.findByRole('dialog', { name: 'Maturity tiers' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove tier 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The tier Managed is a target or was assessed in an evaluation period',
    );
  });

  it('deletes a framework after a confirmation that says what goes with it', async () => {
    const fetchMock = stubApi({
      ...routesOf(() => imported, [inProgress]),
      [`DELETE ${gov}/framework/f7`]: { status: 204 },
    });
    const { user, router } = renderApp(`/governance/frameworks/f7?orgId=${HOME_ORG_ID}`);
    await screen.findByRole('combobox', { name: 'Evaluation period' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete framework' });
    expect(confirm).toHaveTextContent(
      'Delete Imported catalog? Its 1 sections and 1 controls go with it, and its evaluation period with the ' +
        'answers, evidence files and links and automatic evidence. This cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/governance/frameworks'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('offers no changes to viewers', async () => {
    stubApi({ ...routesOf(() => imported), ...withAccess(['POLICY_FRAMEWORK_VIEW']) });
    renderApp(`/governance/frameworks/f7?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('navigation', { name: 'Sections' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Maturity tiers' })).not.toBeInTheDocument();
  });

  it("links an alertable control's trigger to the triggers page, found by its name", async () => {
    const watched: FrameworkDetail = {
      ...imported,
      controls: [
        {
          ...imported.controls[0]!,
          alertable: true,
          triggerId: 't1',
          triggerName: 'Privileged logins',
          triggerDomain: 'security',
        },
      ],
    };
    const fetchMock = stubApi({
      ...routesOf(() => watched),
      ...withAccess([...FRAMEWORK_EDIT, 'TRIGGER_VIEW']),
      [`GET ${base}/triggers`]: { body: { items: [], total: 0 } },
      [`GET ${base}/trigger-schedules`]: { body: { items: [], total: 0 } },
      [`GET ${base}/saved-queries`]: { body: { items: [], total: 0 } },
    });
    const { user, router } = renderApp(`/governance/frameworks/f7?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open AC-1' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('link', { name: 'Privileged logins' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/triggers'));
    expect(router.state.location.search).toMatchObject({ search: 'Privileged logins' });
    expect(await screen.findByRole('textbox', { name: 'Search triggers' })).toHaveValue('Privileged logins');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url]) => String(url).includes('/triggers?') && String(url).includes('search=Privileged'),
        ),
      ).toBe(true),
    );
  });
});
