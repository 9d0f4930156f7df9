import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { taskScheduleListSchema, type TaskScheduleSortField } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

/** Organisation schedules, or the provider's library ones. */
export type ScheduleScope = 'org' | 'library';

export const schedulesKey = (orgId: string) => ['task-schedules', orgId] as const;

export const schedulePath = (orgId: string, scope: ScheduleScope, id?: string) =>
  `${orgPath(orgId)}/${scope === 'library' ? 'library-task-schedule' : 'task-schedule'}${
    id ? `/${encodeURIComponent(id)}` : ''
  }`;

export interface ScheduleListParams {
  search: string;
  deleted: boolean;
  sortBy: TaskScheduleSortField;
  desc: boolean;
  pageSize: number;
  pageNumber: number;
}

export const taskSchedulesQuery = (orgId: string, scope: ScheduleScope, params: ScheduleListParams) =>
  queryOptions({
    queryKey: [...schedulesKey(orgId), scope, params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        sortBy: params.sortBy,
        desc: String(params.desc),
        pageSize: String(params.pageSize),
        pageNumber: String(params.pageNumber),
      });
      if (params.search.trim()) search.set('search', params.search.trim());
      if (params.deleted) search.set('state', 'DELETED');
      const list = scope === 'library' ? 'library-task-schedules' : 'task-schedules';
      return apiFetch(`${orgPath(orgId)}/${list}?${search}`, { schema: taskScheduleListSchema, signal });
    },
    placeholderData: keepPreviousData,
  });
