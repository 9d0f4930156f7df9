import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  REPORT_PENDING_STATES,
  reportListSchema,
  reportScheduleListSchema,
  reportTemplateListSchema,
  type ReportList,
} from '@vigil/contracts';
import { apiFetch, orgPath } from '../../lib/api';

/** Every report, template and schedule query of an organisation, for invalidation. */
export const reportsKey = (orgId: string) => ['reports', orgId] as const;

export const templatePath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/report-template${id ? `/${encodeURIComponent(id)}` : ''}`;
export const reportPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/report${id ? `/${encodeURIComponent(id)}` : ''}`;
export const schedulePath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/report-schedule${id ? `/${encodeURIComponent(id)}` : ''}`;

interface Page {
  pageSize: number;
  pageNumber: number;
  search?: string;
  /** Templates and schedules: the provider's library instead of the organisation's. */
  library?: boolean;
}

const pageSearch = ({ pageSize, pageNumber, search, library }: Page) => {
  const params = new URLSearchParams({ pageSize: String(pageSize), pageNumber: String(pageNumber) });
  if (search) params.set('search', search);
  if (library) params.set('library', 'true');
  return params.toString();
};

/** GET /report-templates (REPORT_VIEW). */
export const templatesQuery = (orgId: string, page: Page) =>
  queryOptions({
    queryKey: [...reportsKey(orgId), 'templates', page] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/report-templates?${pageSearch(page)}`, {
        schema: reportTemplateListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** How often the reports list is read again while a report is being built. */
export const REPORT_POLL_MS = 2000;

const building = (list: ReportList | undefined) =>
  (list?.items ?? []).some((report) => REPORT_PENDING_STATES.includes(report.state));

/** GET /reports (REPORT_VIEW), read again every 2 seconds while a shown report is being built. */
export const reportsQuery = (orgId: string, page: Page) =>
  queryOptions({
    queryKey: [...reportsKey(orgId), 'reports', page] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/reports?${pageSearch(page)}`, { schema: reportListSchema, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (building(query.state.data) ? REPORT_POLL_MS : false),
  });

/** GET /report-schedules (REPORT_VIEW); `library`: the provider's library schedules. */
export const schedulesQuery = (orgId: string, page: Omit<Page, 'search'>) =>
  queryOptions({
    queryKey: [...reportsKey(orgId), 'schedules', page] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/report-schedules?${pageSearch(page)}`, {
        schema: reportScheduleListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
