import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { CLASSIFIER_MAX_COUNT, classifierListSchema } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

/** The organisation's classifiers or the provider's library: the same routes under two bases. */
export type ClassifierMode = 'org' | 'library';

export const classifiersPath = (orgId: string, mode: ClassifierMode, id?: string) =>
  `${orgPath(orgId)}/classifiers${mode === 'library' ? '/library' : ''}${id ? `/${encodeURIComponent(id)}` : ''}`;

export const classifiersKey = (orgId: string, mode: ClassifierMode) => ['classifiers', orgId, mode] as const;

const fetchList = (
  orgId: string,
  mode: ClassifierMode,
  params: { search?: string; pageSize: number; pageNumber: number },
  signal?: AbortSignal,
) => {
  const search = new URLSearchParams({
    pageSize: String(params.pageSize),
    pageNumber: String(params.pageNumber),
  });
  if (params.search) search.set('search', params.search);
  return apiFetch(`${classifiersPath(orgId, mode)}?${search.toString()}`, {
    schema: classifierListSchema,
    signal,
  });
};

/** GET /classifiers (CLASSIFIER_VIEW) or /classifiers/library (TRAC_ENGINEER): in the order they apply. */
export const classifiersQuery = (
  orgId: string,
  mode: ClassifierMode,
  params: { search?: string; pageSize: number; pageNumber: number },
) =>
  queryOptions({
    queryKey: [...classifiersKey(orgId, mode), params] as const,
    queryFn: ({ signal }) => fetchList(orgId, mode, params, signal),
    placeholderData: keepPreviousData,
  });

/**
 * Moves a classifier one place up or down: the order route takes every id of the list, so the whole
 * list (at most CLASSIFIER_MAX_COUNT) is read first.
 */
export async function moveClassifier(orgId: string, mode: ClassifierMode, id: string, step: -1 | 1) {
  const { items } = await fetchList(orgId, mode, { pageSize: CLASSIFIER_MAX_COUNT, pageNumber: 1 });
  const ids = items.map((item) => item.id);
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return;
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  await apiFetch(`${classifiersPath(orgId, mode)}/order`, { method: 'PUT', body: { ids } });
}
