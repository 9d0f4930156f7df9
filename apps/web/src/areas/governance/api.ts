import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  autoEvidenceHistorySchema,
  autoEvidenceSourceSchema,
  controlAnswerSchema,
  evaluationPeriodSchema,
  frameworkDetailSchema,
  frameworkSummarySchema,
  governanceDashboardSchema,
  libraryFrameworkSchema,
  periodComparisonSchema,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch, orgPath } from '../../lib/api';

export const governanceKey = (orgId: string) => ['governance', orgId] as const;
export const governancePath = (orgId: string) => `${orgPath(orgId)}/governance`;
export const frameworkPath = (orgId: string, id: string) =>
  `${governancePath(orgId)}/framework/${encodeURIComponent(id)}`;
export const periodPath = (orgId: string, id: string) =>
  `${governancePath(orgId)}/period/${encodeURIComponent(id)}`;

export const frameworksQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'frameworks'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/frameworks`, { schema: z.array(frameworkSummarySchema), signal }),
  });

export const libraryQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'library'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/framework-library`, {
        schema: z.array(libraryFrameworkSchema),
        signal,
      }),
  });

export const frameworkQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'framework', id] as const,
    queryFn: ({ signal }) => apiFetch(frameworkPath(orgId, id), { schema: frameworkDetailSchema, signal }),
  });

export const periodsQuery = (orgId: string, frameworkId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'periods', frameworkId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${frameworkPath(orgId, frameworkId)}/periods`, {
        schema: z.array(evaluationPeriodSchema),
        signal,
      }),
  });

export const answersQuery = (orgId: string, periodId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'answers', periodId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${periodPath(orgId, periodId)}/answers`, { schema: z.array(controlAnswerSchema), signal }),
  });

export const comparisonQuery = (orgId: string, from: string, to: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'comparison', from, to] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/period-comparison?${new URLSearchParams({ from, to })}`, {
        schema: periodComparisonSchema,
        signal,
      }),
  });

export const autoEvidenceQuery = (orgId: string, periodId: string, controlId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'auto-evidence', periodId, controlId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${periodPath(orgId, periodId)}/auto-evidence?${new URLSearchParams({ controlId })}`, {
        schema: z.array(autoEvidenceSourceSchema),
        signal,
      }),
  });

/** Evaluations of a source listed a page at a time, under the control's automatic evidence (refreshed with it). */
export const AUTO_EVIDENCE_HISTORY_PAGE_SIZE = 10;

export const autoEvidenceHistoryQuery = (
  orgId: string,
  periodId: string,
  controlId: string,
  sourceId: string,
  pageNumber: number,
) =>
  queryOptions({
    queryKey: [
      ...autoEvidenceQuery(orgId, periodId, controlId).queryKey,
      'history',
      sourceId,
      pageNumber,
    ] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${periodPath(orgId, periodId)}/auto-evidence/${encodeURIComponent(sourceId)}/history?${new URLSearchParams(
          {
            pageSize: String(AUTO_EVIDENCE_HISTORY_PAGE_SIZE),
            pageNumber: String(pageNumber),
          },
        )}`,
        { schema: autoEvidenceHistorySchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

export const dashboardQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'dashboard'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/dashboard`, { schema: governanceDashboardSchema, signal }),
  });
