import { z } from 'zod';
import { frameworkSummarySchema, GOVERNANCE_NAME_MAX_LENGTH, GOVERNANCE_TEXT_MAX_LENGTH } from './governance';
import { pageParams } from './query-params';

/**
 * Spec 3, Governance: custom policies (CUSTOM_POLICY_*) and CAT policies (CAT_POLICY_*), each kind with
 * its own permissions and page.
 */
export const POLICY_KINDS = ['CUSTOM', 'CAT'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** A policy's text, one version. */
export const POLICY_BODY_MAX_LENGTH = 100_000;
/** A policy is reviewed every 1 to 36 months. */
export const POLICY_REVIEW_MONTHS_MAX = 36;
/** A ticket links at most this many policies. */
export const TICKET_POLICY_LINKS_MAX = 50;

export const policyVersionSchema = z.object({
  id: z.string(),
  /** 1, 2, … in order of writing; a new version never changes an older one. */
  number: z.number(),
  body: z.string(),
  changeNote: z.string(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  /** Who approved the version and when; only approved versions become current. */
  approvedByName: z.string().nullable(),
  approvedOn: z.string().nullable(),
});
export type PolicyVersion = z.infer<typeof policyVersionSchema>;

export const policySummarySchema = z.object({
  id: z.string(),
  kind: z.enum(POLICY_KINDS),
  name: z.string(),
  description: z.string(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  /** FFIEC CAT domains, assessment factors or components the policy answers (CAT policies). */
  catRefs: z.array(z.string()),
  reviewEveryMonths: z.number(),
  lastReviewedOn: z.iso.date().nullable(),
  /** The last review (else the first approval) plus the review interval; null before any approval. */
  nextReviewOn: z.iso.date().nullable(),
  reviewOverdue: z.boolean(),
  /** The newest approved version; null until one is approved. */
  currentVersion: z.object({ id: z.string(), number: z.number(), approvedOn: z.string() }).nullable(),
  latestVersionNumber: z.number(),
  /** People of the organisation who have acknowledged the current version, of all who should. */
  acknowledgedCount: z.number(),
  audienceCount: z.number(),
  acknowledgedByMe: z.boolean(),
  createdOn: z.string(),
});
export type PolicySummary = z.infer<typeof policySummarySchema>;

export const policyDetailSchema = policySummarySchema.extend({
  /** Newest first. */
  versions: z.array(policyVersionSchema),
});
export type PolicyDetail = z.infer<typeof policyDetailSchema>;

const policyFields = {
  name: z.string().trim().min(1).max(GOVERNANCE_NAME_MAX_LENGTH),
  description: z.string().trim().max(GOVERNANCE_TEXT_MAX_LENGTH).default(''),
  ownerId: z.uuid().nullable().default(null),
  reviewEveryMonths: z.number().int().min(1).max(POLICY_REVIEW_MONTHS_MAX).default(12),
  catRefs: z.array(z.string().trim().min(1).max(64)).max(100).default([]),
};

/** GET /governance/policies/deleted and /governance/cat-policies/deleted: restorable policies. */
export const deletedPolicySchema = policySummarySchema.extend({ deletedOn: z.string() });
export type DeletedPolicy = z.infer<typeof deletedPolicySchema>;

/** POST /governance/policy and /governance/cat-policy: the policy and its first version. */
export const policyInputSchema = z.object({
  ...policyFields,
  body: z.string().trim().min(1).max(POLICY_BODY_MAX_LENGTH),
});
export type PolicyInput = z.input<typeof policyInputSchema>;

/** PATCH …/:id: the policy's own fields; its text changes only by a new version. */
export const policyUpdateSchema = z.object(policyFields).partial();
export type PolicyUpdate = z.infer<typeof policyUpdateSchema>;

/** POST …/:id/version: a new version; the older ones are kept as they were. */
export const policyVersionInputSchema = z.object({
  body: z.string().trim().min(1).max(POLICY_BODY_MAX_LENGTH),
  changeNote: z.string().trim().max(GOVERNANCE_TEXT_MAX_LENGTH).default(''),
});
export type PolicyVersionInput = z.input<typeof policyVersionInputSchema>;

/** POST …/:id/acknowledge: the version the person read, which must be the current one. */
export const policyAcknowledgeInputSchema = z.object({ versionId: z.uuid() });

/** GET …/:id/acknowledgements: a page of each list, `pageSize` people from `acknowledgedPage` and `pendingPage`. */
export const policyAcknowledgementsQuerySchema = z.object({
  pageSize: pageParams.pageSize,
  acknowledgedPage: pageParams.pageNumber,
  pendingPage: pageParams.pageNumber,
});
export type PolicyAcknowledgementsQuery = z.infer<typeof policyAcknowledgementsQuerySchema>;

export const policyAcknowledgementsSchema = z.object({
  version: z.object({ id: z.string(), number: z.number() }).nullable(),
  /** The requested page of those who acknowledged, of `acknowledgedTotal`. */
  acknowledged: z.array(z.object({ userId: z.string(), name: z.string(), acknowledgedOn: z.string() })),
  acknowledgedTotal: z.number(),
  /** The requested page of those who have not, of `pendingTotal`. */
  pending: z.array(z.object({ userId: z.string(), name: z.string() })),
  pendingTotal: z.number(),
});
export type PolicyAcknowledgements = z.infer<typeof policyAcknowledgementsSchema>;

export const ticketPolicyLinkSchema = z.object({
  id: z.string(),
  kind: z.enum(POLICY_KINDS),
  name: z.string(),
  currentVersionNumber: z.number().nullable(),
  linkedByName: z.string().nullable(),
  linkedOn: z.string(),
});
export type TicketPolicyLink = z.infer<typeof ticketPolicyLinkSchema>;

/** PUT /{incident|task}/:ref/policies: the full set of linked policies (POLICY_LINK_EDIT). */
export const ticketPolicyLinksInputSchema = z.object({
  policyIds: z.array(z.uuid()).max(TICKET_POLICY_LINKS_MAX),
});

/** The governance dashboard lists the policy reviews overdue or falling due within this many days. */
export const GOVERNANCE_REVIEW_HORIZON_DAYS = 30;

/**
 * GET /governance/dashboard (GOVERNANCE_DASHBOARD_VIEW): each part null without its own permission
 * (a policy kind's view permission for its reviews, POLICY_FRAMEWORK_VIEW for the periods).
 */
export const governanceDashboardSchema = z.object({
  /** Policies overdue for review or due within the horizon, soonest first. */
  reviews: z.array(policySummarySchema).nullable(),
  /** Frameworks with a period in progress, by name. */
  periods: z.array(frameworkSummarySchema).nullable(),
});
export type GovernanceDashboard = z.infer<typeof governanceDashboardSchema>;
