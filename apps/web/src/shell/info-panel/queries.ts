import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { infoNoteSchema, infoPanelDataAllowed, orgInfoMetadataSchema, sortInfoNotes } from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch } from '../../lib/api';
import { useNavContext } from '../../lib/org-context';
import { useCurrentOrgId } from '../../lib/session';

export const infoPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}/info`;

export const orgMetadataQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['info', orgId, 'metadata'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${infoPath(orgId)}/metadata`, { schema: orgInfoMetadataSchema, signal }),
  });

export const infoNotesQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['info', orgId, 'notes'] as const,
    queryFn: async ({ signal }) =>
      sortInfoNotes(await apiFetch(`${infoPath(orgId)}/notes`, { schema: z.array(infoNoteSchema), signal })),
  });

/** Whether the user may load the info panel's data here (spec 1 section 2.9). */
export function useInfoPanelAllowed(): boolean {
  return infoPanelDataAllowed(useNavContext());
}

/** The organisation's title and threat level, for users who may load the panel. */
export function useOrgMetadataQuery() {
  const orgId = useCurrentOrgId();
  const allowed = useInfoPanelAllowed();
  const query = orgMetadataQuery(orgId ?? '');
  return useQuery({ ...query, queryFn: orgId && allowed ? query.queryFn : skipToken });
}
