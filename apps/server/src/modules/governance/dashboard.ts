import { GOVERNANCE_REVIEW_HORIZON_DAYS, POLICY_KINDS, type GovernanceDashboard } from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { listPolicies } from './policies';
import { listFrameworks } from './service';

const DAY_MS = 86_400_000;

/**
 * The governance dashboard (/governance/tasks): policy reviews overdue or coming due and the periods in
 * progress, each part only for those who may read it. The task counts come from the task schedules.
 */
export async function governanceDashboard(db: Db, access: AccessContext): Promise<GovernanceDashboard> {
  const horizon = new Date(Date.now() + GOVERNANCE_REVIEW_HORIZON_DAYS * DAY_MS).toISOString().slice(0, 10);
  const kinds = POLICY_KINDS.filter((kind) => access.permissions.has(`${kind}_POLICY_VIEW`));
  const reviews =
    kinds.length === 0
      ? null
      : (await Promise.all(kinds.map((kind) => listPolicies(db, access, kind))))
          .flat()
          .filter((policy) => policy.nextReviewOn !== null && policy.nextReviewOn <= horizon)
          .sort((a, b) => a.nextReviewOn!.localeCompare(b.nextReviewOn!));
  const periods = access.permissions.has('POLICY_FRAMEWORK_VIEW')
    ? (await listFrameworks(db, access.org.id)).filter((framework) => framework.currentPeriod !== null)
    : null;
  return { reviews, periods };
}
