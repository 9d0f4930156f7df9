import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  deletedPolicySchema,
  policyAcknowledgementsSchema,
  policyDetailSchema,
  policySummarySchema,
  ticketPolicyLinkSchema,
  type PolicyKind,
  type TicketKind,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch, orgPath } from '../../lib/api';
import { governanceKey, governancePath } from './api';

/** Each kind's API paths, permissions and page. */
export const POLICY_KIND = {
  CUSTOM: {
    many: 'policies',
    one: 'policy',
    view: 'CUSTOM_POLICY_VIEW',
    edit: 'CUSTOM_POLICY_EDIT',
    page: '/governance/policies',
  },
  CAT: {
    many: 'cat-policies',
    one: 'cat-policy',
    view: 'CAT_POLICY_VIEW',
    edit: 'CAT_POLICY_EDIT',
    page: '/governance/cat',
  },
} as const satisfies Record<PolicyKind, object>;

export const policiesKey = (orgId: string, kind: PolicyKind) =>
  [...governanceKey(orgId), 'policies', kind] as const;

export const policyPath = (orgId: string, kind: PolicyKind, id: string) =>
  `${governancePath(orgId)}/${POLICY_KIND[kind].one}/${encodeURIComponent(id)}`;

export const policiesQuery = (orgId: string, kind: PolicyKind) =>
  queryOptions({
    queryKey: [...policiesKey(orgId, kind), 'list'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/${POLICY_KIND[kind].many}`, {
        schema: z.array(policySummarySchema),
        signal,
      }),
  });

export const deletedPoliciesQuery = (orgId: string, kind: PolicyKind) =>
  queryOptions({
    queryKey: [...policiesKey(orgId, kind), 'deleted'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/${POLICY_KIND[kind].many}/deleted`, {
        schema: z.array(deletedPolicySchema),
        signal,
      }),
  });

export const policyQuery = (orgId: string, kind: PolicyKind, id: string) =>
  queryOptions({
    queryKey: [...policiesKey(orgId, kind), 'one', id] as const,
    queryFn: ({ signal }) => apiFetch(policyPath(orgId, kind, id), { schema: policyDetailSchema, signal }),
  });

export const acknowledgementsQuery = (
  orgId: string,
  kind: PolicyKind,
  id: string,
  pages: { acknowledgedPage: number; pendingPage: number },
) =>
  queryOptions({
    queryKey: [...policiesKey(orgId, kind), 'acknowledgements', id, pages] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${policyPath(orgId, kind, id)}/acknowledgements?${new URLSearchParams({
          pageSize: String(DEFAULT_PAGE_SIZE),
          acknowledgedPage: String(pages.acknowledgedPage),
          pendingPage: String(pages.pendingPage),
        })}`,
        { schema: policyAcknowledgementsSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

export const catRefsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'cat-policy-refs'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${governancePath(orgId)}/cat-policy-refs`, {
        schema: z.array(z.object({ ref: z.string(), title: z.string(), depth: z.number() })),
        signal,
      }),
    staleTime: Infinity,
  });

export const ticketPoliciesPath = (orgId: string, kind: TicketKind, ref: string) =>
  `${orgPath(orgId)}/${kind}/${encodeURIComponent(ref)}/policies`;

export const ticketPoliciesQuery = (orgId: string, kind: TicketKind, ref: string) =>
  queryOptions({
    queryKey: [...governanceKey(orgId), 'ticket-policies', kind, ref] as const,
    queryFn: ({ signal }) =>
      apiFetch(ticketPoliciesPath(orgId, kind, ref), { schema: z.array(ticketPolicyLinkSchema), signal }),
  });
