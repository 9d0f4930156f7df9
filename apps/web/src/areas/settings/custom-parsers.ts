import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { customParserListSchema } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

export const customParserPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/custom-parser${id ? `/${encodeURIComponent(id)}` : ''}`;

export const customParsersKey = (orgId: string) => ['settings', orgId, 'custom-parsers'] as const;

/** GET /api/org/:orgId/custom-parsers (CUSTOM_PARSER_VIEW and the CUSTOM_PARSERS product). */
export const customParsersQuery = (orgId: string, params: { pageSize: number; pageNumber: number }) =>
  queryOptions({
    queryKey: [...customParsersKey(orgId), params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        pageSize: String(params.pageSize),
        pageNumber: String(params.pageNumber),
      });
      return apiFetch(`${orgPath(orgId)}/custom-parsers?${search.toString()}`, {
        schema: customParserListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });
