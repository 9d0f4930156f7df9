import {
  CLIENT_ERROR_REPORTS_PER_MINUTE,
  isReportedFailure,
  parameterisePath,
  type clientErrorReportSchema,
} from '@vigil/contracts';
import type { z } from 'zod';
import type { FailedCall } from './api';

export type ClientErrorReport = z.input<typeof clientErrorReportSchema>;

const REPORT_PATH = '/api/client-errors';
const WINDOW_MS = 60_000;

/** POST /api/client-errors, without apiFetch: a failed report must not be reported in turn. */
async function postReport(report: ClientErrorReport): Promise<void> {
  try {
    await fetch(REPORT_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify(report),
    });
  } catch {
    // Reporting is best effort; the user has already been told about the failure itself.
  }
}

/**
 * A listener for `setFailureListener` that reports failed calls (status 400 to 599 but 401) with the
 * method and the parameterised path, at most CLIENT_ERROR_REPORTS_PER_MINUTE in any minute, as the
 * server allows.
 */
export function createClientErrorReporter(
  send: (report: ClientErrorReport) => Promise<void> = postReport,
  now: () => number = Date.now,
): (failure: FailedCall) => void {
  const sentAt: number[] = [];
  return ({ method, path, status, error }) => {
    if (!isReportedFailure(status) || path.startsWith(REPORT_PATH)) return;
    const time = now();
    while (sentAt.length > 0 && (sentAt[0] ?? 0) <= time - WINDOW_MS) sentAt.shift();
    if (sentAt.length >= CLIENT_ERROR_REPORTS_PER_MINUTE) return;
    sentAt.push(time);
    void send({
      method,
      url: parameterisePath(path).slice(0, 500),
      status,
      key: error.key.slice(0, 100),
      ...(error.errorId ? { errorId: error.errorId.slice(0, 100) } : {}),
    });
  };
}
