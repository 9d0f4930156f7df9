import { screen, waitFor, within } from '@testing-library/react';
import type { TaskSchedule } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInRoutes,
  signedInWithClientRoutes,
} from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

const schedule = (overrides: Partial<TaskSchedule> = {}): TaskSchedule => ({
  id: 's1',
  name: 'Weekly review of privileged accounts',
  description: '',
  interval: { count: 1, unit: 'week' },
  nextRunAt: '2030-03-04T09:00:00.000Z',
  runAt: '2030-03-04T09:00:00.000Z',
  lastRanAt: null,
  skipWeekends: false,
  dueIn: { count: 2, unit: 'day' },
  queries: [{ id: 'q1', name: 'Privileged sign-ins' }],
  parent: null,
  children: [],
  taskTitle: 'Review privileged accounts',
  taskDescription: '',
  ownerId: null,
  watcherIds: [],
  state: 'ACTIVE',
  copiedFromId: null,
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const withAccess = (permissions: string[], routes = signedInRoutes) => ({
  ...routes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
});

const EDIT = ['TASK_SCHEDULE_VIEW', 'TASK_SCHEDULE_EDIT'];
const pickers = {
  [`GET ${base}/saved-queries`]: { body: { items: [], total: 0 } },
  [`GET ${base}/user/summary`]: { body: [] },
};

describe('task schedules page', () => {
  it('lists schedules, searches them and deletes one after confirming', async () => {
    let items = [
      schedule(),
      schedule({ id: 's2', name: 'Daily log check', interval: { count: 1, unit: 'day' } }),
    ];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/task-schedules`]: () => ({ body: { items, total: items.length } }),
      [`DELETE ${base}/task-schedule/s2`]: () => {
        const [, removed] = items;
        items = items.filter((item) => item.id !== 's2');
        return { body: { ...removed, state: 'DELETED' } };
      },
    });
    const { user } = renderApp(`/task-schedules?orgId=${HOME_ORG_ID}`);
    const row = (await screen.findByText('Weekly review of privileged accounts')).closest('tr')!;
    expect(within(row).getByText('Every week')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getByText('1 query')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Search by name' }), 'daily');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('search=daily'))).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: 'Delete Daily log check' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete task schedule' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Daily log check')).not.toBeInTheDocument());
  });

  it('shows the empty state, and hides changes from viewers', async () => {
    stubApi({
      ...withAccess(['TASK_SCHEDULE_VIEW']),
      [`GET ${base}/task-schedules`]: { body: { items: [], total: 0 } },
    });
    renderApp(`/task-schedules?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No task schedules')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New task schedule' })).not.toBeInTheDocument();
  });

  it('creates a schedule and shows a refusal beside its field', async () => {
    let refuse = true;
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      ...pickers,
      [`GET ${base}/task-schedules`]: { body: { items: [], total: 0 } },
      [`POST ${base}/task-schedule`]: ({ init }) => {
        if (refuse) {
          refuse = false;
          return { status: 400, body: apiError('TASK_SCHEDULE_NEXT_RUN_NOT_MONTH_DAY') };
        }
        return { status: 201, body: schedule({ name: String(requestBody(init).name) }) };
      },
    });
    const { user } = renderApp(`/task-schedule?orgId=${HOME_ORG_ID}`);
    const dialog = await screen.findByRole('dialog', { name: 'New task schedule' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('This field is required.').length).toBeGreaterThan(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Monthly access review');
    await user.type(within(dialog).getByRole('textbox', { name: 'Task title' }), 'Review access');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(/must next run on the 1st, and one repeating mid-month on the 15th/),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New task schedule' })).not.toBeInTheDocument(),
    );
    const posts = fetchMock.mock.calls.filter(
      ([url, init]) => url === `${base}/task-schedule` && init?.method === 'POST',
    );
    expect(requestBody(posts.at(-1)?.[1])).toMatchObject({
      name: 'Monthly access review',
      taskTitle: 'Review access',
      interval: { count: 1, unit: 'week' },
      queryIds: [],
      parentId: null,
    });
  });
});

describe('library task schedules page', () => {
  it('copies a library schedule to customers and reports those that already hold it', async () => {
    const fetchMock = stubApi({
      ...withAccess([...EDIT, 'TRAC_ADMIN'], signedInWithClientRoutes),
      [`GET ${base}/library-task-schedules`]: { body: { items: [schedule({ id: 'l1' })], total: 1 } },
      [`POST ${base}/library-task-schedule/l1/copy`]: {
        body: { copied: [], skipped: [{ orgId: CLIENT_ORG_ID, orgName: 'Acme Bank', scheduleId: 'c1' }] },
      },
    });
    const { user } = renderApp(`/library-task-schedules?orgId=${HOME_ORG_ID}`);
    await user.click(
      await screen.findByRole('button', { name: 'Copy Weekly review of privileged accounts to customers' }),
    );
    const dialog = await screen.findByRole('dialog', { name: /Copy Weekly review/ });
    await user.click(within(dialog).getByRole('combobox', { name: 'Customer organisations' }));
    await user.click(await screen.findByRole('option', { name: 'Acme Bank' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy to customers' }));
    expect(await within(dialog).findByText(/already hold a copy: Acme Bank/)).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => url === `${base}/library-task-schedule/l1/copy`);
    expect(requestBody(post?.[1])).toEqual({ orgIds: [CLIENT_ORG_ID] });
  });

  it('offers no changes to people who are not provider administrators', async () => {
    stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/library-task-schedules`]: { body: { items: [schedule({ id: 'l1' })], total: 1 } },
    });
    renderApp(`/library-task-schedules?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Weekly review of privileged accounts')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New task schedule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Copy Weekly/ })).not.toBeInTheDocument();
  });
});
