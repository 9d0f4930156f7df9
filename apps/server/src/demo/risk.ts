import { and, eq } from 'drizzle-orm';
import {
  addReviewInterval,
  publicIdOf,
  recommendedControlStrength,
  recommendedInherentRisk,
  recommendedOverallScore,
  recommendedResidualRisk,
  todayIn,
  type ControlStrength,
  type RiskLevel,
  type RiskModule,
} from '@vigil/contracts';
import type { Db } from '../db/client';
import {
  insertControl,
  insertHistory,
  insertItem,
  insertRisk,
  nextNumber,
  replaceControlsOfRisk,
  replaceRelated,
  type Scope,
} from '../modules/risk/repo';
import { reviewSchedules, riskControls, riskIncidentLinks, risks } from '../modules/risk/tables';
import { tickets } from '../modules/tickets/tables';
import { triggers } from '../modules/triggers/tables';
import { seedAssessmentDemo } from './risk-assessments';
import { seedInventoryDemo } from './risk-inventory';

const IS: RiskModule = 'INFORMATION_SECURITY';
const SA: RiskModule = 'SYSTEMS_AND_APPLICATIONS';
const TP: RiskModule = 'THIRD_PARTY_RISK';
const L = { I: 'INSIGNIFICANT', L: 'LOW', M: 'MODERATE', H: 'HIGH', E: 'EXTREME' } as const satisfies Record<
  string,
  RiskLevel
>;
const S = {
  I: 'INEFFECTIVE',
  W: 'WEAK',
  M: 'MODERATE',
  S: 'STRONG',
  C: 'COMPLETE',
} as const satisfies Record<string, ControlStrength>;

interface DemoControl {
  name: string;
  type: string;
  category: string;
  configuration: string;
  design: ControlStrength;
  operating: ControlStrength;
  key?: boolean;
}

interface DemoRisk {
  name: string;
  modules: RiskModule[];
  impact: RiskLevel;
  likelihood: RiskLevel;
  event: string;
  cause: string;
  consequence: string;
  erm: string[];
  response: string;
  plan?: string;
  /** Indexes into the controls. */
  controls?: number[];
  key?: boolean;
  exception?: boolean;
  inactive?: boolean;
  /** A residual risk set above the recommendation, with its reason. */
  override?: { residual: RiskLevel; reason: string };
  direction?: string;
  definition?: string;
}

const CONTROLS: DemoControl[] = [
  {
    name: 'Multi-factor authentication for remote access',
    type: 'PREVENTATIVE',
    category: 'SECURITY_AND_AUTHENTICATION',
    configuration: 'AUTOMATED',
    design: S.C,
    operating: S.S,
    key: true,
  },
  {
    name: 'Privileged access reviews (quarterly)',
    type: 'DETECTIVE',
    category: 'GOVERNANCE',
    configuration: 'MANUAL',
    design: S.S,
    operating: S.M,
    key: true,
  },
  {
    name: 'Security awareness training and phishing tests',
    type: 'PREVENTATIVE',
    category: 'CULTURE_AND_TRAINING',
    configuration: 'MANUAL',
    design: S.S,
    operating: S.S,
  },
  {
    name: 'E-mail filtering with DMARC enforcement',
    type: 'PREVENTATIVE',
    category: 'SECURITY_AND_AUTHENTICATION',
    configuration: 'AUTOMATED',
    design: S.S,
    operating: S.S,
  },
  {
    name: 'Endpoint detection and response',
    type: 'DETECTIVE',
    category: 'SECURITY_AND_AUTHENTICATION',
    configuration: 'AUTOMATED',
    design: S.C,
    operating: S.C,
    key: true,
  },
  {
    name: 'Immutable offline backups with restore tests',
    type: 'CORRECTIVE',
    category: 'REDUNDANCY',
    configuration: 'AUTOMATED',
    design: S.S,
    operating: S.M,
  },
  {
    name: 'Patch management within 30 days',
    type: 'PREVENTATIVE',
    category: 'STANDARDS_AND_DOCUMENTATION',
    configuration: 'MANUAL',
    design: S.M,
    operating: S.W,
  },
  {
    name: 'Vendor due-diligence questionnaire',
    type: 'PREVENTATIVE',
    category: 'GOVERNANCE',
    configuration: 'MANUAL',
    design: S.S,
    operating: S.M,
  },
  {
    name: 'SOC 2 report review for critical vendors',
    type: 'DETECTIVE',
    category: 'ASSURANCE_AND_REMEDIATION',
    configuration: 'MANUAL',
    design: S.M,
    operating: S.M,
  },
  {
    name: 'Contractual right to audit and breach notice',
    type: 'CORRECTIVE',
    category: 'GOVERNANCE',
    configuration: 'MANUAL',
    design: S.S,
    operating: S.S,
  },
  {
    name: 'Dual control on outgoing wires',
    type: 'PREVENTATIVE',
    category: 'ROLES_AND_RESPONSIBILITIES',
    configuration: 'MANUAL',
    design: S.C,
    operating: S.S,
    key: true,
  },
  {
    name: 'Segregation of duties in the core platform',
    type: 'PREVENTATIVE',
    category: 'ROLES_AND_RESPONSIBILITIES',
    configuration: 'AUTOMATED',
    design: S.S,
    operating: S.S,
  },
  {
    name: 'Change advisory board approvals',
    type: 'PREVENTATIVE',
    category: 'GOVERNANCE',
    configuration: 'MANUAL',
    design: S.M,
    operating: S.M,
  },
  {
    name: 'Centralised log monitoring (SIEM)',
    type: 'DETECTIVE',
    category: 'SECURITY_AND_AUTHENTICATION',
    configuration: 'AUTOMATED',
    design: S.S,
    operating: S.S,
  },
  {
    name: 'Data loss prevention on e-mail and web',
    type: 'DETECTIVE',
    category: 'SECURITY_AND_AUTHENTICATION',
    configuration: 'AUTOMATED',
    design: S.M,
    operating: S.W,
  },
  {
    name: 'Secondary data centre fail-over',
    type: 'CORRECTIVE',
    category: 'REDUNDANCY',
    configuration: 'AUTOMATED',
    design: S.S,
    operating: S.M,
  },
  {
    name: 'Incident response plan with tabletop exercises',
    type: 'CORRECTIVE',
    category: 'ASSURANCE_AND_REMEDIATION',
    configuration: 'MANUAL',
    design: S.S,
    operating: S.M,
  },
  {
    name: 'Information security policy annual review',
    type: 'PREVENTATIVE',
    category: 'STANDARDS_AND_DOCUMENTATION',
    configuration: 'MANUAL',
    design: S.S,
    operating: S.S,
  },
  {
    name: 'Joiner-mover-leaver access process',
    type: 'PREVENTATIVE',
    category: 'ROLES_AND_RESPONSIBILITIES',
    configuration: 'MANUAL',
    design: S.M,
    operating: S.W,
  },
  {
    name: 'Vulnerability scanning (monthly)',
    type: 'DETECTIVE',
    category: 'ASSURANCE_AND_REMEDIATION',
    configuration: 'AUTOMATED',
    design: S.S,
    operating: S.S,
  },
];

const RISKS: DemoRisk[] = [
  {
    name: 'Phishing leads to stolen staff credentials',
    modules: [IS],
    impact: L.H,
    likelihood: L.H,
    event: 'EXTERNAL_FRAUD',
    cause: 'PEOPLE',
    consequence: 'FINANCIAL_LOSS',
    erm: ['OPERATIONAL', 'REPUTATIONAL'],
    response: 'MITIGATE',
    plan: 'Phishing-resistant MFA for all staff by Q2; monthly phishing tests.',
    controls: [0, 2, 3],
    key: true,
    direction: 'INCREASING',
  },
  {
    name: 'Ransomware encrypts core servers',
    modules: [IS, SA],
    impact: L.E,
    likelihood: L.M,
    event: 'BUSINESS_DISRUPTION',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['OPERATIONAL', 'STRATEGIC'],
    response: 'MITIGATE',
    plan: 'Offline backups, EDR on every server, restore drills twice a year.',
    controls: [4, 5, 16],
    key: true,
    override: { residual: L.H, reason: 'Restore test in October took 31 hours, beyond the 24-hour target.' },
  },
  {
    name: 'Business e-mail compromise redirects a wire',
    modules: [IS],
    impact: L.H,
    likelihood: L.M,
    event: 'EXTERNAL_FRAUD',
    cause: 'PROCESS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['FINANCIAL', 'TRANSACTIONAL'],
    response: 'MITIGATE',
    plan: 'Call-back verification on changed payee details.',
    controls: [10, 3],
  },
  {
    name: 'Excessive privileged access in the core platform',
    modules: [IS, SA],
    impact: L.H,
    likelihood: L.M,
    event: 'INTERNAL_FRAUD',
    cause: 'PROCESS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['OPERATIONAL'],
    response: 'MITIGATE',
    plan: 'Quarterly access reviews and break-glass accounts only.',
    controls: [1, 11, 18],
  },
  {
    name: 'Insider exfiltrates customer data',
    modules: [IS],
    impact: L.E,
    likelihood: L.L,
    event: 'INTERNAL_FRAUD',
    cause: 'PEOPLE',
    consequence: 'DATA_LOSS',
    erm: ['REPUTATIONAL', 'COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'DLP in blocking mode for customer data by year end.',
    controls: [14, 13],
  },
  {
    name: 'Unpatched internet-facing systems exploited',
    modules: [IS, SA],
    impact: L.H,
    likelihood: L.H,
    event: 'EXTERNAL_FRAUD',
    cause: 'SYSTEMS',
    consequence: 'DATA_LOSS',
    erm: ['OPERATIONAL'],
    response: 'MITIGATE',
    plan: 'Critical patches in 7 days for internet-facing systems.',
    controls: [6, 19],
    exception: true,
    direction: 'STABLE',
  },
  {
    name: 'Lost or stolen laptop with customer data',
    modules: [IS],
    impact: L.M,
    likelihood: L.M,
    event: 'DAMAGE_TO_ASSETS',
    cause: 'PEOPLE',
    consequence: 'DATA_LOSS',
    erm: ['COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'Full-disk encryption and remote wipe.',
    controls: [4],
  },
  {
    name: 'Weak passwords on legacy teller application',
    modules: [SA],
    impact: L.M,
    likelihood: L.H,
    event: 'EXECUTION_DELIVERY',
    cause: 'SYSTEMS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['OPERATIONAL'],
    response: 'ACCEPT',
    exception: true,
    definition: 'The teller application cannot enforce complexity until its 2027 replacement.',
  },
  {
    name: 'Core banking outage during month-end',
    modules: [SA],
    impact: L.E,
    likelihood: L.L,
    event: 'BUSINESS_DISRUPTION',
    cause: 'SYSTEMS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['OPERATIONAL', 'REPUTATIONAL'],
    response: 'MITIGATE',
    plan: 'Fail-over test before each quarter end.',
    controls: [15, 12],
  },
  {
    name: 'Failed change breaks online banking',
    modules: [SA],
    impact: L.H,
    likelihood: L.M,
    event: 'EXECUTION_DELIVERY',
    cause: 'PROCESS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['OPERATIONAL'],
    response: 'MITIGATE',
    plan: 'Change freeze around releases; rollback plan for every change.',
    controls: [12],
  },
  {
    name: 'Unsupported database version in lending system',
    modules: [SA],
    impact: L.M,
    likelihood: L.M,
    event: 'EXECUTION_DELIVERY',
    cause: 'SYSTEMS',
    consequence: 'REGULATORY_ACTION',
    erm: ['COMPLIANCE'],
    response: 'TRANSFER',
    definition: 'Extended support bought from the vendor until migration.',
  },
  {
    name: 'Shadow IT cloud storage holds loan files',
    modules: [SA, IS],
    impact: L.M,
    likelihood: L.H,
    event: 'CLIENTS_PRODUCTS_PRACTICES',
    cause: 'PEOPLE',
    consequence: 'DATA_LOSS',
    erm: ['COMPLIANCE'],
    response: 'AVOID',
    controls: [14],
  },
  {
    name: 'Mobile banking app vulnerability',
    modules: [SA, TP],
    impact: L.H,
    likelihood: L.L,
    event: 'EXTERNAL_FRAUD',
    cause: 'SYSTEMS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['REPUTATIONAL'],
    response: 'MITIGATE',
    plan: 'Annual penetration test of each release train.',
    controls: [19],
  },
  {
    name: 'Core processor breach exposes account data',
    modules: [TP],
    impact: L.E,
    likelihood: L.L,
    event: 'EXTERNAL_FRAUD',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'DATA_LOSS',
    erm: ['REPUTATIONAL', 'COMPLIANCE'],
    response: 'TRANSFER',
    controls: [7, 8, 9],
    key: true,
  },
  {
    name: 'Card processor outage stops debit transactions',
    modules: [TP],
    impact: L.H,
    likelihood: L.M,
    event: 'BUSINESS_DISRUPTION',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['TRANSACTIONAL', 'REPUTATIONAL'],
    response: 'ACCEPT',
    controls: [9],
  },
  {
    name: 'Vendor without a current SOC 2 report',
    modules: [TP],
    impact: L.M,
    likelihood: L.H,
    event: 'CLIENTS_PRODUCTS_PRACTICES',
    cause: 'PROCESS',
    consequence: 'REGULATORY_ACTION',
    erm: ['COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'Bridge letters and compensating controls until the report arrives.',
    controls: [8],
    exception: true,
  },
  {
    name: 'Fourth-party risk in the loan origination platform',
    modules: [TP],
    impact: L.M,
    likelihood: L.M,
    event: 'EXECUTION_DELIVERY',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['STRATEGIC'],
    response: 'ACCEPT',
  },
  {
    name: 'Offshore support vendor accesses production',
    modules: [TP, IS],
    impact: L.H,
    likelihood: L.M,
    event: 'INTERNAL_FRAUD',
    cause: 'PEOPLE',
    consequence: 'DATA_LOSS',
    erm: ['COMPLIANCE', 'REPUTATIONAL'],
    response: 'MITIGATE',
    plan: 'Session recording and just-in-time access for vendor staff.',
    controls: [1, 13, 9],
  },
  {
    name: 'Vendor concentration in one cloud region',
    modules: [TP, SA],
    impact: L.H,
    likelihood: L.L,
    event: 'BUSINESS_DISRUPTION',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['STRATEGIC', 'OPERATIONAL'],
    response: 'MITIGATE',
    plan: 'Second region for the online banking front end.',
    controls: [15],
  },
  {
    name: 'Marketing agency mishandles customer lists',
    modules: [TP],
    impact: L.M,
    likelihood: L.L,
    event: 'CLIENTS_PRODUCTS_PRACTICES',
    cause: 'PEOPLE',
    consequence: 'REPUTATIONAL_DAMAGE',
    erm: ['REPUTATIONAL'],
    response: 'TRANSFER',
    controls: [9],
  },
  {
    name: 'Wire fraud through compromised online banking',
    modules: [IS],
    impact: L.E,
    likelihood: L.M,
    event: 'EXTERNAL_FRAUD',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['FINANCIAL', 'REPUTATIONAL'],
    response: 'MITIGATE',
    plan: 'Behavioural fraud rules and out-of-band confirmation of new payees.',
    controls: [10, 0],
    key: true,
  },
  {
    name: 'Security logs not retained long enough',
    modules: [IS],
    impact: L.M,
    likelihood: L.M,
    event: 'EXECUTION_DELIVERY',
    cause: 'PROCESS',
    consequence: 'REGULATORY_ACTION',
    erm: ['COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'One year of hot retention in the SIEM.',
    controls: [13],
  },
  {
    name: 'Distributed denial of service on online banking',
    modules: [IS, SA],
    impact: L.H,
    likelihood: L.M,
    event: 'BUSINESS_DISRUPTION',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'SERVICE_DISRUPTION',
    erm: ['REPUTATIONAL'],
    response: 'TRANSFER',
    definition: 'Scrubbing service contracted through the hosting provider.',
  },
  {
    name: 'Leavers keep access to shared mailboxes',
    modules: [IS],
    impact: L.L,
    likelihood: L.H,
    event: 'INTERNAL_FRAUD',
    cause: 'PROCESS',
    consequence: 'DATA_LOSS',
    erm: ['COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'HR feed to the directory within one day of leaving.',
    controls: [18],
  },
  {
    name: 'Unencrypted backups shipped off site',
    modules: [IS],
    impact: L.M,
    likelihood: L.L,
    event: 'DAMAGE_TO_ASSETS',
    cause: 'PROCESS',
    consequence: 'DATA_LOSS',
    erm: ['COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'Backups encrypted before they leave the data centre.',
    controls: [5],
    inactive: true,
  },
  {
    name: 'Outdated information security policy',
    modules: [IS],
    impact: L.L,
    likelihood: L.L,
    event: 'EXECUTION_DELIVERY',
    cause: 'PROCESS',
    consequence: 'REGULATORY_ACTION',
    erm: ['COMPLIANCE'],
    response: 'MITIGATE',
    plan: 'Annual board approval.',
    controls: [17],
  },
  {
    name: 'ATM skimming at branch machines',
    modules: [IS],
    impact: L.M,
    likelihood: L.M,
    event: 'EXTERNAL_FRAUD',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['FINANCIAL'],
    response: 'TRANSFER',
    definition: 'Covered by the ATM operator contract and insurance.',
  },
  {
    name: 'Spreadsheet models used for loan pricing',
    modules: [SA],
    impact: L.M,
    likelihood: L.M,
    event: 'EXECUTION_DELIVERY',
    cause: 'PROCESS',
    consequence: 'FINANCIAL_LOSS',
    erm: ['CREDIT'],
    response: 'AVOID',
    definition: 'Pricing moves into the loan origination platform.',
  },
  {
    name: 'Legacy fax gateway for loan documents',
    modules: [SA],
    impact: L.L,
    likelihood: L.M,
    event: 'EXECUTION_DELIVERY',
    cause: 'SYSTEMS',
    consequence: 'DATA_LOSS',
    erm: ['OPERATIONAL'],
    response: 'AVOID',
    inactive: true,
  },
  {
    name: 'Payroll provider breach',
    modules: [TP],
    impact: L.M,
    likelihood: L.L,
    event: 'EXTERNAL_FRAUD',
    cause: 'EXTERNAL_EVENTS',
    consequence: 'DATA_LOSS',
    erm: ['REPUTATIONAL'],
    response: 'ACCEPT',
    controls: [7],
  },
];

/** The provider's library: risks and controls a bank starts its register from. */
const LIBRARY_RISKS = RISKS.filter((_, index) => [0, 1, 2, 5, 8, 13, 14, 15].includes(index));
const LIBRARY_CONTROLS = CONTROLS.filter((_, index) => [0, 2, 4, 5, 7, 8, 10, 16].includes(index));

async function addControls(tx: Db, scope: Scope, controls: DemoControl[], actorId: string) {
  const ids: { id: string; overall: ControlStrength }[] = [];
  for (const [index, control] of controls.entries()) {
    const number = await nextNumber(tx, scope, 'control');
    const library = 'library' in scope;
    const overall = recommendedOverallScore(control.design, control.operating)!;
    const row = await insertControl(tx, {
      orgId: library ? null : scope.orgId,
      library,
      number,
      publicId: publicIdOf('control', number, library),
      name: control.name,
      definition: '',
      keyControl: control.key ?? false,
      type: control.type,
      category: control.category,
      configuration: control.configuration,
      designEffectiveness: control.design,
      operatingEffectiveness: control.operating,
      overallScore: overall,
      // A few controls are run by people of the bank.
      ownerId: library || index % 3 !== 0 ? null : actorId,
      createdBy: actorId,
    });
    await insertHistory(tx, { controlId: row.id, actorId, kind: 'CREATED', details: { name: control.name } });
    ids.push({ id: row.id, overall });
  }
  return ids;
}

interface RegisterRefs {
  owners: string[];
  units: string[];
  audits: string[];
  policies: string[];
  watcherIds: string[];
}

async function addRisks(
  tx: Db,
  scope: Scope,
  risks: DemoRisk[],
  controls: { id: string; overall: ControlStrength }[],
  actorId: string,
  refs?: RegisterRefs,
  copiedFrom?: Map<string, string>,
) {
  const library = 'library' in scope;
  const ids: string[] = [];
  for (const [index, risk] of risks.entries()) {
    // Library risks name no controls: a register links its own.
    const linked = library ? [] : (risk.controls ?? []).map((position) => controls[position]!);
    const inherent = recommendedInherentRisk(risk.impact, risk.likelihood)!;
    const strength = library
      ? null
      : (recommendedControlStrength(linked.map((control) => control.overall)) ?? 'INEFFECTIVE');
    const residual = recommendedResidualRisk(inherent, strength);
    const number = await nextNumber(tx, scope, 'risk');
    const row = await insertRisk(tx, {
      orgId: library ? null : scope.orgId,
      library,
      copiedFromId: copiedFrom?.get(risk.name) ?? null,
      number,
      publicId: publicIdOf('risk', number, library),
      name: risk.name,
      definition: risk.definition ?? '',
      keyRisk: risk.key ?? false,
      riskEventType: risk.event,
      causeCategory: risk.cause,
      consequence: risk.consequence,
      ermConnections: risk.erm,
      response: risk.response,
      mitigationPlan: risk.plan ?? '',
      modules: risk.modules,
      exception: risk.exception ?? false,
      state: risk.inactive ? 'INACTIVE' : 'ACTIVE',
      potentialImpact: risk.impact,
      likelihood: risk.likelihood,
      inherentRisk: inherent,
      controlStrength: strength,
      controlStrengthReason: !library && linked.length === 0 ? 'No control in place yet.' : null,
      residualRisk: risk.override?.residual ?? residual,
      residualRiskReason: risk.override?.reason ?? null,
      riskDirection: risk.direction ?? 'STABLE',
      ...(refs && {
        businessOwnerId: refs.owners[index % refs.owners.length],
        businessUnitIds: [refs.units[index % refs.units.length]!],
        auditIds: index % 4 === 0 ? [refs.audits[0]!] : [],
        policyIds: index % 3 === 0 ? [refs.policies[index % refs.policies.length]!] : [],
        watcherIds: index % 5 === 0 ? refs.watcherIds : [],
        dueDate: `2027-${String((index % 12) + 1).padStart(2, '0')}-${index % 2 === 0 ? '15' : '28'}`,
        timeZoneId: 'America/New_York',
      }),
      createdBy: actorId,
    });
    await replaceControlsOfRisk(
      tx,
      row.id,
      linked.map((control) => control.id),
    );
    const copied = copiedFrom?.has(risk.name);
    await insertHistory(tx, {
      riskId: row.id,
      actorId,
      kind: copied ? 'COPIED' : 'CREATED',
      details: copied ? { from: 'library' } : { name: risk.name },
    });
    ids.push(row.id);
  }
  return ids;
}

/**
 * The provider's risk library and First Harbor's register: 30 risks across the three modules (some
 * copied from the library, some exceptions, two inactive, one residual risk overridden with its
 * reason), 20 controls linked to them, review schedules in each status, the bank's custom lists, its
 * inventory of systems and vendors, and two assessments (one completed).
 */
export async function seedRiskDemo(
  db: Db,
  harbor: { orgId: string; adminId: string; analystId: string },
  providerAdminId: string,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    await addControls(tx, { library: true }, LIBRARY_CONTROLS, providerAdminId);
    const libraryIds = await addRisks(tx, { library: true }, LIBRARY_RISKS, [], providerAdminId);
    const copiedFrom = new Map(
      LIBRARY_RISKS.slice(0, 5).map((risk, index) => [risk.name, libraryIds[index]!]),
    );

    const { orgId, adminId, analystId } = harbor;
    const list = async (kind: string, names: string[]) => {
      const ids: string[] = [];
      for (const name of names) ids.push((await insertItem(tx, orgId, kind, name))!.id);
      return ids;
    };
    const refs: RegisterRefs = {
      owners: await list('RISK_OWNER', [
        'Chief Information Security Officer',
        'Chief Operating Officer',
        'Head of Vendor Management',
        'Head of IT',
      ]),
      units: await list('BUSINESS_UNIT', [
        'Retail banking',
        'Commercial lending',
        'Payments',
        'Information technology',
      ]),
      audits: await list('AUDIT', ['FFIEC IT examination 2026', 'SOC 2 readiness review']),
      policies: await list('POLICY', [
        'Information security policy',
        'Vendor management policy',
        'Acceptable use policy',
      ]),
      watcherIds: [analystId],
    };
    const assetTypeIds = await list('ASSET_TYPE', [
      'Server',
      'Workstation',
      'Network device',
      'SaaS application',
    ]);
    const vendorIds = await list('VENDOR', [
      'Harbor Core Processing',
      'CardLink Networks',
      'PayrollPro',
      'CloudHost Inc.',
      'SecureShred Records',
    ]);

    const controls = await addControls(tx, { orgId }, CONTROLS, adminId);
    const riskIds = await addRisks(tx, { orgId }, RISKS, controls, adminId, refs, copiedFrom);
    // Related risks: phishing with wire fraud and BEC; ransomware with the core outage.
    await replaceRelated(tx, riskIds[0]!, [riskIds[2]!, riskIds[20]!]);
    await replaceRelated(tx, riskIds[1]!, [riskIds[8]!]);
    await replaceRelated(tx, riskIds[13]!, [riskIds[15]!]);
    const inventoryIds = await seedInventoryDemo(tx, harbor, providerAdminId, {
      vendorIds,
      assetTypeIds,
      riskIds,
    });

    // Review schedules in each status: a key risk reviewed yearly and not due for months, a vendor
    // risk almost due, a patching risk late, and a control reviewed quarterly.
    const today = todayIn('America/New_York', now);
    const schedules = [
      { riskId: riskIds[0]!, every: 1, unit: 'year', nextReview: addReviewInterval(today, 5, 'month') },
      { riskId: riskIds[13]!, every: 6, unit: 'month', nextReview: addReviewInterval(today, 10, 'day') },
      { riskId: riskIds[5]!, every: 3, unit: 'month', nextReview: addReviewInterval(today, -12, 'day') },
      {
        controlId: controls[1]!.id,
        every: 3,
        unit: 'month',
        nextReview: addReviewInterval(today, 40, 'day'),
      },
    ];
    for (const schedule of schedules) {
      await tx.insert(reviewSchedules).values({ orgId, watcherIds: [adminId, analystId], ...schedule });
    }
    // The completed assessment covers Information Security risks, the module it assesses.
    const infoSecRiskIds = riskIds.filter((_, index) => RISKS[index]!.modules.includes(IS));
    await seedAssessmentDemo(tx, harbor, { riskIds: infoSecRiskIds, inventoryIds }, now);
    await seedLinkedChain(tx, orgId, riskIds, controls, now);
  });
}

/**
 * The linked chain of the demo register: the open phishing incident realised the phishing risk; the
 * closed port-scan incident (closed with its root cause) realised the partner-network risk, whose
 * scores are therefore to revisit; the MFA and wire controls relate to the bank's triggers.
 */
async function seedLinkedChain(
  tx: Db,
  orgId: string,
  riskIds: string[],
  controls: { id: string }[],
  now: Date,
) {
  const incident = async (title: string) =>
    (
      await tx
        .select({ id: tickets.id, slug: tickets.slug })
        .from(tickets)
        .where(and(eq(tickets.orgId, orgId), eq(tickets.kind, 'incident'), eq(tickets.title, title)))
    )[0];
  const phishing = await incident('Phishing campaign against tellers');
  const scan = await incident('Port scan from a partner network');
  const phishingRisk = riskIds[RISKS.findIndex((risk) => risk.name.startsWith('Phishing'))]!;
  const revisitIndex = RISKS.findIndex((risk) => risk.modules.includes('THIRD_PARTY_RISK'));
  const revisitRisk = riskIds[revisitIndex]!;
  if (phishing) await tx.insert(riskIncidentLinks).values({ riskId: phishingRisk, ticketId: phishing.id });
  if (scan) {
    await tx.insert(riskIncidentLinks).values({ riskId: revisitRisk, ticketId: scan.id });
    const since = new Date(now.getTime() - 3 * 24 * 3_600_000);
    await tx
      .update(risks)
      .set({ revisitScores: { since: since.toISOString(), incidents: [{ id: scan.id, slug: scan.slug }] } })
      .where(eq(risks.id, revisitRisk));
    await insertHistory(tx, { riskId: revisitRisk, kind: 'REVISIT', details: { incident: scan.slug } });
  }
  const trigger = async (name: string) =>
    (
      await tx
        .select({ id: triggers.id })
        .from(triggers)
        .where(and(eq(triggers.orgId, orgId), eq(triggers.name, name)))
    )[0]?.id;
  const related: [number, string[]][] = [
    [
      CONTROLS.findIndex((control) => control.name.startsWith('Multi-factor')),
      ['Brute-force logins', 'Failed Windows logins'],
    ],
    [CONTROLS.findIndex((control) => control.name.startsWith('Dual control')), ['Large wire transfers']],
  ];
  for (const [index, names] of related) {
    const ids = (await Promise.all(names.map(trigger))).filter((id): id is string => Boolean(id));
    if (index >= 0 && ids.length > 0) {
      await tx.update(riskControls).set({ triggerIds: ids }).where(eq(riskControls.id, controls[index]!.id));
    }
  }
}
