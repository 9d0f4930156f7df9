import {
  deletedPolicySchema,
  POLICY_REVIEW_MONTHS_MAX,
  policyAcknowledgeInputSchema,
  policyAcknowledgementsQuerySchema,
  policyAcknowledgementsSchema,
  policyDetailSchema,
  policyInputSchema,
  policySummarySchema,
  policyUpdateSchema,
  policyVersionInputSchema,
  TICKET_POLICY_LINKS_MAX,
  ticketPolicyLinkSchema,
  ticketPolicyLinksInputSchema,
  type PolicyKind,
  type TicketKind,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  acknowledgePolicy,
  addPolicyVersion,
  approvePolicyVersion,
  catPolicyRefs,
  createPolicy,
  deletePolicy,
  getPolicy,
  listDeletedPolicies,
  listPolicies,
  policyAcknowledgements,
  restorePolicy,
  reviewPolicy,
  setTicketPolicies,
  ticketPolicies,
  updatePolicy,
} from './policies';
import type { Actor } from './service';

const TAGS = ['governance'];
const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const KINDS = [
  { kind: 'CUSTOM', many: 'policies', one: 'policy', label: 'custom policy', code: 'CUSTOM_POLICY' },
  { kind: 'CAT', many: 'cat-policies', one: 'cat-policy', label: 'CAT policy', code: 'CAT_POLICY' },
] as const satisfies readonly { kind: PolicyKind; [key: string]: string }[];

const TICKETS = [
  { kind: 'incident', view: 'INCIDENT_VIEW', edit: 'INCIDENT_EDIT' },
  { kind: 'task', view: 'TASK_VIEW', edit: 'TASK_EDIT' },
] as const satisfies readonly { kind: TicketKind; view: string; edit: string }[];

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const versionParams = idParams.extend({ versionId: z.uuid() });

const FIELDS =
  '`name` unique among the live policies of its kind, any case (409 GOVERNANCE_POLICY_NAME_IN_USE); `ownerId` an ' +
  'active person of the organisation (400 GOVERNANCE_INVALID_OWNER); `reviewEveryMonths` 1 to ' +
  `${POLICY_REVIEW_MONTHS_MAX}; \`catRefs\` (CAT policies) refs of the FFIEC CAT's domains, assessment factors ` +
  'or components (400 GOVERNANCE_POLICY_CAT_REF_UNKNOWN; a custom policy names none).';

/** Custom and CAT policies with versions, approval, reviews and acknowledgements; policy links on tickets. */
export const policyRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    for (const { kind, many, one, label, code } of KINDS) {
      const VIEW = { access: { permission: `${code}_VIEW` as const } };
      const EDIT = { access: { permission: `${code}_EDIT` as const } };
      const NOT_FOUND = `A ${label} of another organisation, or deleted, answers 404 GOVERNANCE_POLICY_NOT_FOUND.`;
      const base = `/api/org/:orgId/governance/${one}/:id`;

      app.get(
        `/api/org/:orgId/governance/${many}`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `The organisation's ${label} list`,
            description:
              'By name, each with its current (newest approved) version, its next review (the last review, else ' +
              'the first approval, plus the interval) and how many of the active people have acknowledged the ' +
              'current version.',
            params: orgParamsSchema,
            response: { 200: z.array(policySummarySchema) },
          },
        },
        async (request) => listPolicies(db, accessOf(request), kind),
      );

      app.get(
        `/api/org/:orgId/governance/${many}/deleted`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `The deleted ${label} list`,
            description:
              'Deleted policies of the kind that `POST …/restore` brings back, most recently deleted first, each ' +
              'as in the list with `deletedOn`.',
            params: orgParamsSchema,
            response: { 200: z.array(deletedPolicySchema) },
          },
        },
        async (request) => listDeletedPolicies(db, accessOf(request), kind),
      );

      app.post(
        `/api/org/:orgId/governance/${one}`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Create a ${label}`,
            description: `With its first version (\`body\`), which waits for approval. ${FIELDS}`,
            params: orgParamsSchema,
            body: policyInputSchema,
            response: { 201: policyDetailSchema },
          },
        },
        async (request, reply) =>
          reply.status(201).send(await createPolicy(db, actorOf(request), kind, request.body)),
      );

      app.get(
        base,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `A ${label} with its versions`,
            description: `Versions newest first, with who approved each and when. ${NOT_FOUND}`,
            params: idParams,
            response: { 200: policyDetailSchema },
          },
        },
        async (request) => getPolicy(db, accessOf(request), kind, request.params.id),
      );

      app.patch(
        base,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Change a ${label}`,
            description: `Its own fields; the text changes only through a new version. ${FIELDS} ${NOT_FOUND}`,
            params: idParams,
            body: policyUpdateSchema,
            response: { 200: policyDetailSchema },
          },
        },
        async (request) => updatePolicy(db, actorOf(request), kind, request.params.id, request.body),
      );

      app.delete(
        base,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Delete a ${label}`,
            description: `Restorable: \`POST …/restore\` brings it back with its versions and links. ${NOT_FOUND}`,
            params: idParams,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          await deletePolicy(db, actorOf(request), kind, request.params.id);
          return reply.status(204).send(null);
        },
      );

      app.post(
        `${base}/restore`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Restore a deleted ${label}`,
            description:
              '409 GOVERNANCE_POLICY_NAME_IN_USE when a live policy of the kind took its name meanwhile; 404 ' +
              'GOVERNANCE_POLICY_NOT_FOUND when no deleted policy of the organisation has this id.',
            params: idParams,
            response: { 200: policyDetailSchema },
          },
        },
        async (request) => restorePolicy(db, actorOf(request), kind, request.params.id),
      );

      app.post(
        `${base}/version`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Write a new version of a ${label}`,
            description:
              'The next number, waiting for approval; earlier versions and the current one are kept unchanged. ' +
              NOT_FOUND,
            params: idParams,
            body: policyVersionInputSchema,
            response: { 201: policyDetailSchema },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await addPolicyVersion(db, actorOf(request), kind, request.params.id, request.body)),
      );

      app.post(
        `${base}/version/:versionId/approve`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Approve a version of a ${label}`,
            description:
              'The approver and the time are kept and the version becomes current. 409 ' +
              'GOVERNANCE_POLICY_VERSION_ALREADY_APPROVED for an approved version; 409 ' +
              'GOVERNANCE_POLICY_VERSION_SUPERSEDED for a version older than the current one; 404 ' +
              `GOVERNANCE_POLICY_VERSION_NOT_FOUND for a version of another policy. ${NOT_FOUND}`,
            params: versionParams,
            response: { 200: policyDetailSchema },
          },
        },
        async (request) =>
          approvePolicyVersion(db, actorOf(request), kind, request.params.id, request.params.versionId),
      );

      app.post(
        `${base}/review`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: `Record a review of a ${label}`,
            description:
              'Reviewed today: the next review falls one interval later. 409 GOVERNANCE_POLICY_NOT_APPROVED ' +
              `before any version is approved. ${NOT_FOUND}`,
            params: idParams,
            response: { 200: policyDetailSchema },
          },
        },
        async (request) => reviewPolicy(db, actorOf(request), kind, request.params.id),
      );

      app.post(
        `${base}/acknowledge`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `Acknowledge the current version of a ${label}`,
            description:
              'The signed-in person acknowledges `versionId`, which must be the current version (409 ' +
              'GOVERNANCE_POLICY_VERSION_NOT_CURRENT; none approved yet, 409 GOVERNANCE_POLICY_NOT_APPROVED; ' +
              'another policy, 404 GOVERNANCE_POLICY_VERSION_NOT_FOUND). Acknowledging again keeps the first ' +
              `time. A new approved version needs a new acknowledgement. ${NOT_FOUND}`,
            params: idParams,
            body: policyAcknowledgeInputSchema,
            response: { 200: policyDetailSchema },
          },
        },
        async (request) =>
          acknowledgePolicy(db, actorOf(request), kind, request.params.id, request.body.versionId),
      );

      app.get(
        `${base}/acknowledgements`,
        {
          config: VIEW,
          schema: {
            tags: TAGS,
            summary: `Who has acknowledged a ${label}`,
            description:
              'The active people of the organisation who have acknowledged the current version, with when, and ' +
              'those who have not (everyone while no version is approved), by name: `pageSize` people of each ' +
              'list from page `acknowledgedPage` and `pendingPage` (1 and 1 by default), with the totals. ' +
              NOT_FOUND,
            params: idParams,
            querystring: policyAcknowledgementsQuerySchema,
            response: { 200: policyAcknowledgementsSchema },
          },
        },
        async (request) =>
          policyAcknowledgements(db, accessOf(request), kind, request.params.id, request.query),
      );
    }

    app.get(
      '/api/org/:orgId/governance/cat-policy-refs',
      {
        config: { access: { permission: 'CAT_POLICY_VIEW' } },
        schema: {
          tags: TAGS,
          summary: 'What a CAT policy may answer',
          description:
            "The FFIEC CAT's domains (depth 0), assessment factors (1) and components (2), in order.",
          params: orgParamsSchema,
          response: {
            200: z.array(z.object({ ref: z.string(), title: z.string(), depth: z.number() })),
          },
        },
      },
      async () => catPolicyRefs(),
    );

    for (const { kind, view, edit } of TICKETS) {
      const refParams = orgParamsSchema.extend({ ref: z.string().min(1).max(40) });
      app.get(
        `/api/org/:orgId/${kind}/:ref/policies`,
        {
          config: { access: { permission: 'POLICY_LINK_VIEW' } },
          schema: {
            tags: TAGS,
            summary: `The policies an ${kind} links`,
            description:
              `Needs POLICY_LINK_VIEW and ${view} (403 PERMISSION_DENIED). By name, with who linked each. 404 ` +
              `TICKET_NOT_FOUND for an ${kind} of another organisation.`,
            params: refParams,
            response: { 200: z.array(ticketPolicyLinkSchema) },
          },
        },
        async (request) => ticketPolicies(db, accessOf(request), kind, request.params.ref),
      );

      app.put(
        `/api/org/:orgId/${kind}/:ref/policies`,
        {
          config: { access: { permission: 'POLICY_LINK_EDIT' } },
          schema: {
            tags: TAGS,
            summary: `Set the policies an ${kind} links`,
            description:
              `Needs POLICY_LINK_EDIT and ${edit} (403 PERMISSION_DENIED). \`policyIds\`, at ` +
              `most ${TICKET_POLICY_LINKS_MAX}, are custom or CAT policies of the organisation (400 ` +
              'GOVERNANCE_POLICY_LINK_INVALID, nothing changed); the set replaces the links. 404 TICKET_NOT_FOUND ' +
              `for an ${kind} of another organisation.`,
            params: refParams,
            body: ticketPolicyLinksInputSchema,
            response: { 200: z.array(ticketPolicyLinkSchema) },
          },
        },
        async (request) =>
          setTicketPolicies(db, actorOf(request), kind, request.params.ref, request.body.policyIds),
      );
    }
  };
