import { queryOptions } from '@tanstack/react-query';
import { readinessSchema, type ReadinessCheck } from '@vigil/contracts';
import type { TFunction } from 'i18next';
import { apiFetch, orgPath } from '../../lib/api';

/** GET /api/org/:orgId/home/readiness: the organisation's cyber risk readiness, scored now. */
export const readinessQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['home', orgId, 'readiness'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/home/readiness`, { schema: readinessSchema, signal }),
  });

/** The figure a check was judged on, as the user reads it. */
export function checkFigure(t: TFunction, check: ReadinessCheck): string {
  if (check.id === 'FRAUD_PRODUCT') return t(check.met ? 'home.productIncluded' : 'home.productMissing');
  if (check.total === null) return t('home.count', { value: check.value });
  if (check.total === 0) return t('home.nothingDue');
  return t('home.inTime', { value: check.value, total: check.total });
}
