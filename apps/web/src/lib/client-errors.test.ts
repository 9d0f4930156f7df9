import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/fetch-stub';
import { apiFetch, setFailureListener, type FailedCall } from './api';
import { createClientErrorReporter, type ClientErrorReport } from './client-errors';

const failure = (status: number, path = '/api/org/42/asset/7'): FailedCall => ({
  method: 'GET',
  path,
  status,
  error: { type: 'NotFoundException', key: 'GENERIC_NOT_FOUND', message: '', errorId: 'err-1' },
});

describe('client error reports', () => {
  it('send the method, the parameterised path, the status, the key and the error id', () => {
    const sent: ClientErrorReport[] = [];
    const report = createClientErrorReporter(async (entry) => {
      sent.push(entry);
    });

    report(failure(404, '/api/org/42/asset/7?fields=all'));

    expect(sent).toEqual([
      {
        method: 'GET',
        url: '/api/org/:orgId/asset/:id',
        status: 404,
        key: 'GENERIC_NOT_FOUND',
        errorId: 'err-1',
      },
    ]);
  });

  it('leave out 401, statuses outside 400 to 599 and failed reports themselves', () => {
    const send = vi.fn(async () => {});
    const report = createClientErrorReporter(send);

    report(failure(401));
    report(failure(0));
    report(failure(500, '/api/client-errors'));

    expect(send).not.toHaveBeenCalled();
  });

  it('send at most 10 in any minute', () => {
    let now = 0;
    const send = vi.fn(async () => {});
    const report = createClientErrorReporter(send, () => now);

    for (let i = 0; i < 12; i += 1) report(failure(500));
    expect(send).toHaveBeenCalledTimes(10);

    now = 59_999;
    report(failure(500));
    expect(send).toHaveBeenCalledTimes(10);

    now = 60_000;
    for (let i = 0; i < 12; i += 1) report(failure(500));
    expect(send).toHaveBeenCalledTimes(20);
  });

  it('hear about every error answer of apiFetch', async () => {
    stubApi({});
    const heard: FailedCall[] = [];
    setFailureListener((call) => heard.push(call));
    try {
      await apiFetch('/api/org/1/things/2', { method: 'DELETE' }).catch(() => undefined);
    } finally {
      setFailureListener(null);
    }
    expect(heard).toMatchObject([{ method: 'DELETE', path: '/api/org/1/things/2', status: 404 }]);
  });
});
