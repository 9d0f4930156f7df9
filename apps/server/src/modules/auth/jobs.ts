import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { deleteExpiredSessions } from './sessions';

/** Hourly removal of expired sessions. */
export function defineAuthJobs(jobs: JobRunner, db: Db) {
  jobs.define({
    name: 'auth.session-cleanup',
    cron: '17 * * * *',
    handler: async () => void (await deleteExpiredSessions(db)),
  });
}
