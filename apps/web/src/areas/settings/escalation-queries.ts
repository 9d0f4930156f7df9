import { queryOptions } from '@tanstack/react-query';
import {
  escalationOutOfOfficeListSchema,
  escalationScheduleSchema,
  escalationStepListSchema,
} from '@vigil/contracts';
import { apiFetch } from '../../lib/api';

export const escalationPath = (orgId: string, rest: string) =>
  `/api/org/${encodeURIComponent(orgId)}/escalation/${rest}`;

export const escalationKey = (orgId: string) => ['settings', orgId, 'escalation'] as const;

/** GET /escalation/steps (ESCALATION_VIEW): the contact steps, first first. */
export const escalationStepsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...escalationKey(orgId), 'steps'] as const,
    queryFn: ({ signal }) =>
      apiFetch(escalationPath(orgId, 'steps'), { schema: escalationStepListSchema, signal }),
  });

/** GET /escalation/schedule: business hours. */
export const escalationScheduleQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...escalationKey(orgId), 'schedule'] as const,
    queryFn: ({ signal }) =>
      apiFetch(escalationPath(orgId, 'schedule'), { schema: escalationScheduleSchema, signal }),
  });

/** GET /escalation/out-of-office: periods, earliest first. */
export const outOfOfficeQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...escalationKey(orgId), 'out-of-office'] as const,
    queryFn: ({ signal }) =>
      apiFetch(escalationPath(orgId, 'out-of-office'), { schema: escalationOutOfOfficeListSchema, signal }),
  });
