import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetchJson } from '../test/fetch-stub';
import { ApiRequestError, apiFetch } from './api';
import { createQueryClient, shouldRetryQuery } from './query';

function SaveButton({ errorKey }: { errorKey?: string }) {
  const save = useMutation({
    mutationFn: () => apiFetch('/api/things', { method: 'POST', body: {} }),
    meta: errorKey ? { errorKey } : {},
  });
  return <button onClick={() => save.mutate()}>Save</button>;
}

function SoftwareList({ errorKey }: { errorKey?: string }) {
  const software = useQuery({
    queryKey: ['software', errorKey],
    queryFn: () => apiFetch('/api/software'),
    retry: false,
    meta: errorKey ? { errorKey } : {},
  });
  return <p>{software.isError ? 'Load failed' : 'Loading'}</p>;
}

function renderWithClient(ui: React.ReactNode) {
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

const serverError = (key: string) => ({ type: 'AccessDeniedException', key, message: key, errorId: 'e1' });

describe('query client', () => {
  it('shows a failed mutation as a notification with the catalogue text', async () => {
    stubFetchJson(serverError('PERMISSION_DENIED'), 403);
    renderWithClient(<SaveButton />);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('You do not have permission to do this.')).toBeInTheDocument();
  });

  it("uses the mutation's own message when the server key is unknown", async () => {
    stubFetchJson(serverError('NOT_IN_THE_CATALOGUE'), 403);
    renderWithClient(<SaveButton errorKey="ERROR_ADDING_INFO_NOTE" />);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The note could not be added.')).toBeInTheDocument();
  });

  it('shows a failed load as a notification only when the query names its own message', async () => {
    stubFetchJson(serverError('NOT_IN_THE_CATALOGUE'), 403);
    renderWithClient(
      <>
        <SoftwareList errorKey="ERROR_LOADING_SOFTWARE" />
        <SoftwareList />
      </>,
    );

    expect(await screen.findByText('The software could not be loaded.')).toBeInTheDocument();
    expect(await screen.findAllByText('Load failed')).toHaveLength(2);
    expect(screen.getAllByText('The software could not be loaded.')).toHaveLength(1);
  });

  it('retries failed queries except refusals (4xx)', () => {
    const failure = (status: number) =>
      new ApiRequestError(status, { ...serverError('GENERIC_SERVER_ERROR'), type: 'ServerException' });

    expect(shouldRetryQuery(0, failure(404))).toBe(false);
    expect(shouldRetryQuery(0, failure(429))).toBe(false);
    expect(shouldRetryQuery(0, failure(503))).toBe(true);
    expect(shouldRetryQuery(0, failure(0))).toBe(true);
    expect(shouldRetryQuery(3, failure(503))).toBe(false);
  });
});
