import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { tickets } from '../tickets/tables';
import { users } from '../users/tables';
import { bytea } from '../../db/columns';

/**
 * The last public-id number handed out per scope (an organisation's id, or `library`) and kind (risk,
 * control); a new item takes the next by updating this row in its own transaction.
 */
export const riskCounters = pgTable(
  'risk_counters',
  {
    scope: text().notNull(),
    kind: text().notNull(),
    lastNumber: integer().notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.scope, table.kind] })],
);

/**
 * An organisation's custom lists (spec 3): audits, asset types, policies, business units, risk owners
 * and vendors. Names are unique per list, any case.
 */
export const riskListItems = pgTable(
  'risk_list_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    name: text().notNull(),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('risk_list_items_org_kind_name').on(table.orgId, table.kind, sql`lower(${table.name})`),
  ],
);

/**
 * Risks (spec 3). Library risks (`library`) have no organisation and are copied into registers
 * (`copied_from_id`, once per organisation). References to list items, tags and people are id arrays
 * checked when written; a deleted list item is taken out of them. A recommended score keeps the reason
 * its value differs from the recommendation.
 */
export const risks = pgTable(
  'risks',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid(),
    number: integer().notNull(),
    publicId: text().notNull(),
    name: text().notNull(),
    definition: text().notNull().default(''),
    keyRisk: boolean().notNull().default(false),
    showInPreview: boolean().notNull().default(false),
    riskEventType: text(),
    riskEventSubType: text(),
    causeCategory: text(),
    causeSubType: text(),
    consequence: text(),
    consequenceSubType: text(),
    ermConnections: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    response: text(),
    mitigationPlan: text().notNull().default(''),
    businessOwnerId: uuid().references(() => riskListItems.id, { onDelete: 'set null' }),
    businessUnitIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    watcherIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    auditIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    policyIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    tagIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    modules: text().array().notNull(),
    exception: boolean().notNull().default(false),
    /** ACTIVE or INACTIVE. */
    state: text().notNull().default('ACTIVE'),
    dueDate: date({ mode: 'string' }),
    timeZoneId: text(),
    potentialImpact: text(),
    potentialImpactReason: text(),
    likelihood: text(),
    inherentRisk: text(),
    inherentRiskReason: text(),
    controlStrength: text(),
    controlStrengthReason: text(),
    residualRisk: text(),
    residualRiskReason: text(),
    riskDirection: text(),
    /**
     * Set when a linked incident was closed with a resolution (its root cause): since when, and the
     * incidents that asked for it. Cleared when the risk's scores are next saved.
     */
    revisitScores: jsonb().$type<{ since: string; incidents: { id: string; slug: string }[] }>(),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('risks_org_public_id').on(table.orgId, table.publicId),
    uniqueIndex('risks_org_copied_from')
      .on(table.orgId, table.copiedFromId)
      .where(sql`${table.copiedFromId} IS NOT NULL`),
    index('risks_org_state').on(table.orgId, table.state, table.number),
  ],
);

/** Related risks, kept once per pair with the smaller id first. */
export const riskLinks = pgTable(
  'risk_links',
  {
    firstId: uuid()
      .notNull()
      .references(() => risks.id, { onDelete: 'cascade' }),
    secondId: uuid()
      .notNull()
      .references(() => risks.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.firstId, table.secondId] }),
    index().on(table.secondId),
    check('risk_links_ordered', sql`${table.firstId} < ${table.secondId}`),
  ],
);

/** Internal controls (spec 3); library controls as for risks. */
export const riskControls = pgTable(
  'risk_controls',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid(),
    number: integer().notNull(),
    publicId: text().notNull(),
    name: text().notNull(),
    definition: text().notNull().default(''),
    keyControl: boolean().notNull().default(false),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    type: text(),
    category: text(),
    configuration: text(),
    designEffectiveness: text(),
    operatingEffectiveness: text(),
    overallScore: text(),
    overallScoreReason: text(),
    /** Triggers (triggers module) of the organisation that detect what the control guards against. */
    triggerIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('risk_controls_org_public_id').on(table.orgId, table.publicId),
    uniqueIndex('risk_controls_org_copied_from')
      .on(table.orgId, table.copiedFromId)
      .where(sql`${table.copiedFromId} IS NOT NULL`),
  ],
);

/** Which controls bear on which risks. */
export const riskControlLinks = pgTable(
  'risk_control_links',
  {
    riskId: uuid()
      .notNull()
      .references(() => risks.id, { onDelete: 'cascade' }),
    controlId: uuid()
      .notNull()
      .references(() => riskControls.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.riskId, table.controlId] }), index().on(table.controlId)],
);

/** The audit history of a risk or a control: CREATED, COPIED, STATE, NAME, SCORE and the rest. */
export const riskHistory = pgTable(
  'risk_history',
  {
    id: uuid().primaryKey().defaultRandom(),
    riskId: uuid().references(() => risks.id, { onDelete: 'cascade' }),
    controlId: uuid().references(() => riskControls.id, { onDelete: 'cascade' }),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    kind: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.riskId, table.at), index().on(table.controlId, table.at)],
);

/** Evidence files of a control, their bytes in the database as ticket files are. */
export const controlEvidence = pgTable(
  'control_evidence',
  {
    id: uuid().primaryKey().defaultRandom(),
    controlId: uuid()
      .notNull()
      .references(() => riskControls.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    contentType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    content: bytea().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.controlId, table.createdOn)],
);

/**
 * Review schedules (spec 3): a risk or a control is reviewed every N days, months or years; one
 * schedule per object. Dates are calendar days (yyyy-mm-dd) of the organisation's e-mail time zone.
 */
export const reviewSchedules = pgTable(
  'review_schedules',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    riskId: uuid().references(() => risks.id, { onDelete: 'cascade' }),
    controlId: uuid().references(() => riskControls.id, { onDelete: 'cascade' }),
    every: integer().notNull(),
    /** day, month or year. */
    unit: text().notNull(),
    nextReview: date({ mode: 'string' }).notNull(),
    lastReviewed: date({ mode: 'string' }),
    watcherIds: uuid().array().notNull(),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('review_schedules_risk').on(table.riskId),
    uniqueIndex('review_schedules_control').on(table.controlId),
    check('review_schedules_one_object', sql`(${table.riskId} IS NULL) <> (${table.controlId} IS NULL)`),
  ],
);

/**
 * Reminders of a review schedule (spec 3): one row per schedule, due cycle (the next review date it
 * was sent for) and stage (ALMOST_DUE, LATE), written with its e-mails and its task in one
 * transaction, so a reminder is never sent twice and a new cycle (after marking reviewed) sends
 * again. `taskId` is the reminder task of the cycle (opened by the first stage, carried to the next);
 * `sentTo` the addresses e-mailed.
 */
export const reviewReminders = pgTable(
  'review_reminders',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    scheduleId: uuid()
      .notNull()
      .references(() => reviewSchedules.id, { onDelete: 'cascade' }),
    cycle: date({ mode: 'string' }).notNull(),
    /** ALMOST_DUE or LATE. */
    stage: text().notNull(),
    taskId: uuid().references(() => tickets.id, { onDelete: 'set null' }),
    sentTo: text().array().notNull(),
    sentOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('review_reminders_once').on(table.scheduleId, table.cycle, table.stage),
    index().on(table.orgId, table.scheduleId, table.sentOn),
  ],
);

/**
 * The inventory (spec 3 System/App): systems, applications and vendors of a register or the library.
 * `answers` holds the yes/no answers by question id; the derived scores are stored with them so that
 * lists sort and charts count without recomputing.
 */
export const riskInventoryItems = pgTable(
  'risk_inventory_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid(),
    number: integer().notNull(),
    publicId: text().notNull(),
    /** SYSTEM, APPLICATION or VENDOR. */
    kind: text().notNull(),
    name: text().notNull(),
    definition: text().notNull().default(''),
    vendorId: uuid().references(() => riskListItems.id, { onDelete: 'set null' }),
    goLiveDate: date({ mode: 'string' }),
    versionNumber: text().notNull().default(''),
    dataLocation: text().notNull().default(''),
    systemType: text(),
    businessOwnerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    systemAdminId: uuid().references(() => users.id, { onDelete: 'set null' }),
    assetTypeId: uuid().references(() => riskListItems.id, { onDelete: 'set null' }),
    authorizedPeopleIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    userAdministratorIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    answers: jsonb().$type<Record<string, 'YES' | 'NO'>>().notNull().default({}),
    dataSensitivity: text(),
    businessCriticality: text(),
    inherentRisk: text(),
    dueDiligenceStrength: text(),
    residualRisk: text(),
    unanswered: integer().notNull().default(0),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('risk_inventory_items_org_public_id').on(table.orgId, table.publicId),
    uniqueIndex('risk_inventory_items_org_copied_from')
      .on(table.orgId, table.copiedFromId)
      .where(sql`${table.copiedFromId} IS NOT NULL`),
  ],
);

/** Line items of an inventory item (services, modules) that risks can be linked to. */
export const riskInventoryLineItems = pgTable(
  'risk_inventory_line_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    itemId: uuid()
      .notNull()
      .references(() => riskInventoryItems.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    position: integer().notNull(),
  },
  (table) => [index().on(table.itemId, table.position)],
);

/** Which systems, applications and vendors a risk bears on. */
export const riskSystemLinks = pgTable(
  'risk_system_links',
  {
    riskId: uuid()
      .notNull()
      .references(() => risks.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => riskInventoryItems.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.riskId, table.itemId] }), index().on(table.itemId)],
);

/** Which line items a risk bears on. */
export const riskLineItemLinks = pgTable(
  'risk_line_item_links',
  {
    riskId: uuid()
      .notNull()
      .references(() => risks.id, { onDelete: 'cascade' }),
    lineItemId: uuid()
      .notNull()
      .references(() => riskInventoryLineItems.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.riskId, table.lineItemId] }), index().on(table.lineItemId)],
);

/** Incidents (tickets module) that realised a risk. */
export const riskIncidentLinks = pgTable(
  'risk_incident_links',
  {
    riskId: uuid()
      .notNull()
      .references(() => risks.id, { onDelete: 'cascade' }),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.riskId, table.ticketId] }), index().on(table.ticketId)],
);

/**
 * Risk assessments (spec 3): a risk or inventory assessment of chosen register items (`item_ids`:
 * risks or inventory items of the organisation). `inherent_risk` and `residual_risk` are the user's
 * overrides of the recommended aggregates; completing stores the aggregates it was completed with and
 * the covered items' scores as they stood (`completed_items`), and the assessment is then read-only.
 */
export const riskAssessments = pgTable(
  'risk_assessments',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    publicId: text().notNull(),
    /** RISK or INVENTORY. */
    kind: text().notNull(),
    /** The risk module assessed (INFORMATION_SECURITY, SYSTEMS_AND_APPLICATIONS, THIRD_PARTY_RISK). */
    module: text().notNull().default('INFORMATION_SECURITY'),
    name: text().notNull(),
    /** DRAFT, SAVED or COMPLETED. */
    state: text().notNull().default('DRAFT'),
    executiveSummary: text().notNull().default(''),
    itemIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    inherentRisk: text(),
    residualRisk: text(),
    completedItems: jsonb().$type<
      {
        id: string;
        publicId: string;
        name: string;
        inherentRisk: string | null;
        residualRisk: string | null;
      }[]
    >(),
    completedOn: timestamp({ withTimezone: true }),
    completedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('risk_assessments_org_public_id').on(table.orgId, table.publicId),
    index('risk_assessments_org_state').on(table.orgId, table.state),
  ],
);
