import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { RiskProfile } from '@vigil/contracts';
import { orgs } from '../orgs/tables';
import { tickets } from '../tickets/tables';
import { triggers } from '../triggers/tables';
import { users } from '../users/tables';
import { bytea } from '../../db/columns';

/**
 * An organisation's framework (spec 3: sections, controls, maturity tiers and targets), adopted from
 * the library (`libraryKey`) or imported from an OSCAL catalog. `tiers` are lowest first.
 */
export const governanceFrameworks = pgTable(
  'governance_frameworks',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    libraryKey: text(),
    source: text().notNull(),
    name: text().notNull(),
    version: text().notNull().default(''),
    description: text().notNull().default(''),
    tiers: jsonb().$type<string[]>().notNull().default([]),
    /** A target tier for the framework as a whole; then no section may have one. */
    targetTier: text(),
    riskProfile: jsonb().$type<RiskProfile | null>(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('governance_frameworks_org_library')
      .on(table.orgId, table.libraryKey)
      .where(sql`${table.libraryKey} IS NOT NULL`),
  ],
);

/** Nested sections of a framework, in catalog order (`position`). */
export const governanceSections = pgTable(
  'governance_sections',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    frameworkId: uuid()
      .notNull()
      .references(() => governanceFrameworks.id, { onDelete: 'cascade' }),
    parentId: uuid().references((): AnyPgColumn => governanceSections.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    ref: text().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    /** Refused while the framework or a section above or below has one. */
    targetTier: text(),
  },
  (table) => [index().on(table.frameworkId, table.position)],
);

/** Controls of a section, answered per evaluation period. */
export const governanceControls = pgTable(
  'governance_controls',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    frameworkId: uuid()
      .notNull()
      .references(() => governanceFrameworks.id, { onDelete: 'cascade' }),
    sectionId: uuid()
      .notNull()
      .references(() => governanceSections.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    ref: text().notNull(),
    title: text().notNull(),
    statement: text().notNull().default(''),
    examples: jsonb().$type<string[]>().notNull().default([]),
    mandatory: boolean().notNull().default(false),
    alertable: boolean().notNull().default(false),
    /** An alertable control's trigger; a deleted trigger leaves it without one. */
    triggerId: uuid().references(() => triggers.id, { onDelete: 'set null' }),
  },
  (table) => [index().on(table.frameworkId, table.position), index().on(table.sectionId)],
);

/**
 * Evaluation periods of a framework: in progress, then finalized for good (read-only). `endsOn` is
 * the end with the extensions added; each extension is kept.
 */
export const governancePeriods = pgTable(
  'governance_periods',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    frameworkId: uuid()
      .notNull()
      .references(() => governanceFrameworks.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    startsOn: date({ mode: 'string' }).notNull(),
    endsOn: date({ mode: 'string' }).notNull(),
    state: text().notNull().default('IN_PROGRESS'),
    extensions: jsonb().$type<{ months: number; at: string; by: string | null }[]>().notNull().default([]),
    /** Assessed tier per section id, "framework" for the whole. */
    tiers: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** Inherent risk level per risk-profile category ref. */
    riskProfile: jsonb().$type<Record<string, string>>().notNull().default({}),
    finalizedOn: timestamp({ withTimezone: true }),
    finalizedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.orgId, table.frameworkId, table.startsOn)],
);

/**
 * One control's answer in one period. `status` null with a `suggestedStatus` is an answer carried
 * over from another framework that nobody has reviewed yet.
 */
export const governanceAnswers = pgTable(
  'governance_answers',
  {
    periodId: uuid()
      .notNull()
      .references(() => governancePeriods.id, { onDelete: 'cascade' }),
    controlId: uuid()
      .notNull()
      .references(() => governanceControls.id, { onDelete: 'cascade' }),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    status: text(),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    notes: text().notNull().default(''),
    suggestedStatus: text(),
    suggestedFrom: text(),
    modifiedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    modifiedOn: timestamp({ withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.periodId, table.controlId] })],
);

/** Evidence of a control in a period: a file (its bytes in the database), a link or a ticket. */
export const governanceEvidence = pgTable(
  'governance_evidence',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    periodId: uuid()
      .notNull()
      .references(() => governancePeriods.id, { onDelete: 'cascade' }),
    controlId: uuid()
      .notNull()
      .references(() => governanceControls.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    name: text().notNull(),
    url: text(),
    ticketId: uuid().references(() => tickets.id, { onDelete: 'cascade' }),
    contentType: text(),
    size: bigint({ mode: 'number' }),
    content: bytea(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.periodId, table.controlId)],
);

/**
 * Policies (spec 3): CUSTOM or CAT, with an owner, a review schedule and versions. `deletedOn` set is
 * a deleted policy, restorable.
 */
export const governancePolicies = pgTable(
  'governance_policies',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    catRefs: jsonb().$type<string[]>().notNull().default([]),
    reviewEveryMonths: integer().notNull().default(12),
    lastReviewedOn: date({ mode: 'string' }),
    lastReviewedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedOn: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('governance_policies_org_kind_name')
      .on(table.orgId, table.kind, sql`lower(${table.name})`)
      .where(sql`${table.deletedOn} IS NULL`),
  ],
);

/** A policy's versions, never changed once written but for their approval. */
export const governancePolicyVersions = pgTable(
  'governance_policy_versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    policyId: uuid()
      .notNull()
      .references(() => governancePolicies.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    body: text().notNull(),
    changeNote: text().notNull().default(''),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    approvedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    approvedOn: timestamp({ withTimezone: true }),
  },
  (table) => [uniqueIndex('governance_policy_versions_number').on(table.policyId, table.number)],
);

/** Who acknowledged which version of a policy, and when. */
export const governancePolicyAcknowledgements = pgTable(
  'governance_policy_acknowledgements',
  {
    versionId: uuid()
      .notNull()
      .references(() => governancePolicyVersions.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    acknowledgedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.versionId, table.userId] })],
);

/** Policies linked from incidents and tasks (edited with POLICY_LINK_EDIT). */
export const governanceTicketPolicies = pgTable(
  'governance_ticket_policies',
  {
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    policyId: uuid()
      .notNull()
      .references(() => governancePolicies.id, { onDelete: 'cascade' }),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    linkedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    linkedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.ticketId, table.policyId] }), index().on(table.policyId)],
);

/**
 * Automatic evidence (issue 12): a source of Vigil's own data measured for a control in a period,
 * `kind` TRIGGER_ACTIVE, INCIDENTS_WITHIN_SLA, ASSETS_INVENTORIED or REVIEWS_DONE with its settings.
 */
export const governanceEvidenceSources = pgTable(
  'governance_evidence_sources',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    periodId: uuid()
      .notNull()
      .references(() => governancePeriods.id, { onDelete: 'cascade' }),
    controlId: uuid()
      .notNull()
      .references(() => governanceControls.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    triggerId: uuid().references(() => triggers.id, { onDelete: 'set null' }),
    /** Days (or hours for TRIGGER_ACTIVE) looked back. */
    window: integer().notNull(),
    /** Percent at or above which the source passes; null for TRIGGER_ACTIVE. */
    threshold: integer(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.periodId, table.controlId)],
);

/** Each evaluation of a source: PASSING, FAILING or UNKNOWN, why, and the figures measured. */
export const governanceEvidenceEvaluations = pgTable(
  'governance_evidence_evaluations',
  {
    id: uuid().primaryKey().defaultRandom(),
    sourceId: uuid()
      .notNull()
      .references(() => governanceEvidenceSources.id, { onDelete: 'cascade' }),
    state: text().notNull(),
    reason: text().notNull(),
    figures: jsonb().$type<Record<string, number | string | null>>().notNull().default({}),
    evaluatedOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.sourceId, table.evaluatedOn)],
);
