import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  chartDataSchema,
  chartListSchema,
  dashboardListSchema,
  dashboardSchema,
  defaultDashboardSchema,
  type ChartState,
  type SearchIntervalType,
} from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

export const chartPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/chart${id ? `/${encodeURIComponent(id)}` : ''}`;
export const dashboardPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/dashboard${id ? `/${encodeURIComponent(id)}` : ''}`;

/** Every chart and dashboard query of an organisation, for invalidation. */
export const dashboardsKey = (orgId: string) => ['dashboards', orgId] as const;

export interface ListParams {
  search?: string;
  state?: ChartState;
  library?: boolean;
  pageSize: number;
  pageNumber: number;
}

const listSearch = (params: ListParams) => {
  const search = new URLSearchParams({
    pageSize: String(params.pageSize),
    pageNumber: String(params.pageNumber),
  });
  if (params.search) search.set('search', params.search);
  if (params.state) search.set('state', params.state);
  if (params.library) search.set('library', 'true');
  return search.toString();
};

/** GET /api/org/:orgId/charts (CHART_VIEW). */
export const chartsQuery = (orgId: string, params: ListParams) =>
  queryOptions({
    queryKey: [...dashboardsKey(orgId), 'charts', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/charts?${listSearch(params)}`, { schema: chartListSchema, signal }),
    placeholderData: keepPreviousData,
  });

/** GET /api/org/:orgId/dashboards (DASHBOARD_VIEW). */
export const dashboardsQuery = (orgId: string, params: ListParams) =>
  queryOptions({
    queryKey: [...dashboardsKey(orgId), 'list', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/dashboards?${listSearch(params)}`, { schema: dashboardListSchema, signal }),
    placeholderData: keepPreviousData,
  });

/** GET /api/org/:orgId/dashboards/default: the user's default dashboard, or null. */
export const defaultDashboardQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...dashboardsKey(orgId), 'default'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/dashboards/default`, { schema: defaultDashboardSchema, signal }),
  });

/** GET /api/org/:orgId/dashboard/:id. */
export const dashboardQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...dashboardsKey(orgId), 'dashboard', id] as const,
    queryFn: ({ signal }) => apiFetch(dashboardPath(orgId, id), { schema: dashboardSchema, signal }),
  });

/** POST /api/org/:orgId/chart/:id/data over a dashboard's range. */
export const chartDataQuery = (orgId: string, chartId: string, intervalType: SearchIntervalType) =>
  queryOptions({
    queryKey: [...dashboardsKey(orgId), 'data', chartId, intervalType] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${chartPath(orgId, chartId)}/data`, {
        method: 'POST',
        body: { intervalType },
        schema: chartDataSchema,
        signal,
      }),
  });
