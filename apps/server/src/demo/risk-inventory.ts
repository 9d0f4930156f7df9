import {
  INVENTORY_QUESTIONS,
  inventoryScores,
  publicIdOf,
  questionsOf,
  recommendedRiskImpact,
  type InventoryAnswer,
  type InventoryKind,
  type QuestionSet,
  type SystemType,
} from '@vigil/contracts';
import type { Db } from '../db/client';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { impactScoresOfRisks } from '../modules/risk/inventory';
import { nextNumber, type Scope } from '../modules/risk/repo';
import { riskInventoryItems, riskInventoryLineItems, risks, riskSystemLinks } from '../modules/risk/tables';

interface DemoItem {
  kind: InventoryKind;
  name: string;
  systemType: SystemType;
  /** YES answers of the sensitivity and criticality sets (0-4), and of due diligence (0-8) for vendors. */
  yes: [number, number, number?];
  /** Leaves the parameter, access and security-management sets unanswered. */
  partly?: boolean;
  vendor?: number;
  assetType?: number;
  lines?: string[];
  /** Positions of the register's risks that bear on it. */
  risks?: number[];
}

const ITEMS: DemoItem[] = [
  {
    kind: 'SYSTEM',
    name: 'Core banking platform',
    systemType: 'HYBRID',
    yes: [4, 4],
    vendor: 0,
    assetType: 0,
    lines: ['Deposits', 'Loans', 'General ledger'],
    risks: [1, 8],
  },
  {
    kind: 'SYSTEM',
    name: 'Wire transfer system',
    systemType: 'ON_PREM',
    yes: [3, 4],
    assetType: 0,
    lines: ['Fedwire', 'SWIFT'],
    risks: [2],
  },
  {
    kind: 'APPLICATION',
    name: 'Online and mobile banking',
    systemType: 'CLOUD',
    yes: [4, 3],
    assetType: 3,
    lines: ['Web', 'iOS', 'Android'],
    risks: [0],
  },
  {
    kind: 'SYSTEM',
    name: 'Card management system',
    systemType: 'OUTSOURCED',
    yes: [4, 3],
    vendor: 1,
    assetType: 3,
  },
  {
    kind: 'SYSTEM',
    name: 'Active Directory',
    systemType: 'ON_PREM',
    yes: [2, 4],
    assetType: 0,
    risks: [0, 5],
  },
  {
    kind: 'SYSTEM',
    name: 'E-mail and collaboration',
    systemType: 'SAAS',
    yes: [3, 2],
    assetType: 3,
    risks: [20],
  },
  { kind: 'APPLICATION', name: 'Loan origination', systemType: 'SAAS', yes: [3, 2], assetType: 3 },
  {
    kind: 'SYSTEM',
    name: 'Teller workstations',
    systemType: 'ON_PREM',
    yes: [2, 3],
    assetType: 1,
    risks: [5],
  },
  { kind: 'SYSTEM', name: 'Branch network', systemType: 'ON_PREM', yes: [1, 4], assetType: 2 },
  {
    kind: 'SYSTEM',
    name: 'Backup and recovery',
    systemType: 'HYBRID',
    yes: [3, 3],
    assetType: 0,
    risks: [1],
  },
  { kind: 'APPLICATION', name: 'Payroll and HR', systemType: 'SAAS', yes: [3, 1], vendor: 2, assetType: 3 },
  {
    kind: 'APPLICATION',
    name: 'Document imaging',
    systemType: 'ON_PREM',
    yes: [2, 1],
    assetType: 0,
    partly: true,
  },
  {
    kind: 'SYSTEM',
    name: 'SIEM and log collection',
    systemType: 'CLOUD',
    yes: [2, 2],
    vendor: 3,
    assetType: 3,
  },
  { kind: 'APPLICATION', name: 'Board portal', systemType: 'SAAS', yes: [1, 0], assetType: 3, partly: true },
  {
    kind: 'APPLICATION',
    name: 'Marketing website',
    systemType: 'CLOUD',
    yes: [0, 1],
    vendor: 3,
    assetType: 3,
  },
  {
    kind: 'VENDOR',
    name: 'Harbor Core Processing',
    systemType: 'OUTSOURCED',
    yes: [4, 4, 7],
    vendor: 0,
    lines: ['Core hosting', 'Item processing'],
    risks: [13],
  },
  {
    kind: 'VENDOR',
    name: 'CardLink Networks',
    systemType: 'OUTSOURCED',
    yes: [4, 3, 5],
    vendor: 1,
    lines: ['Debit card processing'],
    risks: [13, 15],
  },
  { kind: 'VENDOR', name: 'PayrollPro', systemType: 'SAAS', yes: [3, 1, 6], vendor: 2 },
  { kind: 'VENDOR', name: 'CloudHost Inc.', systemType: 'CLOUD', yes: [2, 3, 3], vendor: 3, risks: [15] },
  {
    kind: 'VENDOR',
    name: 'SecureShred Records',
    systemType: 'OTHER',
    yes: [3, 0, 4],
    vendor: 4,
    partly: true,
  },
];

/** Library items (no lists or people) the bank has not copied. */
const LIBRARY_ITEMS: DemoItem[] = [
  {
    kind: 'SYSTEM',
    name: 'Core banking platform (template)',
    systemType: 'HYBRID',
    yes: [4, 4],
    lines: ['Deposits', 'Loans'],
  },
  { kind: 'APPLICATION', name: 'Internet banking (template)', systemType: 'CLOUD', yes: [4, 3] },
  {
    kind: 'VENDOR',
    name: 'Critical technology service provider (template)',
    systemType: 'OUTSOURCED',
    yes: [4, 4, 0],
  },
];

function answersOf(item: DemoItem): Record<string, InventoryAnswer> {
  const fill = (set: QuestionSet, yes: number) =>
    INVENTORY_QUESTIONS[set].map((question, index) => [question, index < yes ? 'YES' : 'NO'] as const);
  const [sensitivity, criticality, diligence] = item.yes;
  return Object.fromEntries([
    ...fill('SENSITIVITY', sensitivity),
    ...fill('CRITICALITY', criticality),
    ...(item.partly
      ? []
      : [...fill('PARAMETER', 2), ...fill('ACCESS', 3), ...fill('SECURITY_MANAGEMENT', 2)]),
    ...(diligence === undefined ? [] : fill('DUE_DILIGENCE', diligence)),
  ]);
}

async function addItems(
  tx: Db,
  scope: Scope,
  items: DemoItem[],
  actorId: string,
  refs?: { vendorIds: string[]; assetTypeIds: string[]; ownerId: string; adminId: string; riskIds: string[] },
) {
  const library = 'library' in scope;
  const ids: string[] = [];
  for (const item of items) {
    const answers = answersOf(item);
    const number = await nextNumber(tx, scope, 'system');
    const [row] = await tx
      .insert(riskInventoryItems)
      .values({
        orgId: library ? null : scope.orgId,
        library,
        number,
        publicId: publicIdOf('system', number, library),
        kind: item.kind,
        name: item.name,
        systemType: item.systemType,
        goLiveDate: `20${String(15 + (number % 10)).padStart(2, '0')}-0${(number % 9) + 1}-01`,
        versionNumber: `${(number % 7) + 1}.${number % 4}`,
        dataLocation:
          item.systemType === 'ON_PREM' ? 'Main office data centre' : 'Provider data centres, United States',
        answers,
        ...inventoryScores(item.kind, answers),
        unanswered: questionsOf(item.kind).filter((question) => !answers[question]).length,
        ...(refs && {
          vendorId: item.vendor === undefined ? null : refs.vendorIds[item.vendor],
          assetTypeId: item.assetType === undefined ? null : refs.assetTypeIds[item.assetType],
          businessOwnerId: refs.ownerId,
          systemAdminId: refs.adminId,
          authorizedPeopleIds: [refs.ownerId, refs.adminId],
          userAdministratorIds: [refs.adminId],
        }),
        createdBy: actorId,
      })
      .returning();
    for (const [position, name] of (item.lines ?? []).entries()) {
      await tx.insert(riskInventoryLineItems).values({ itemId: row!.id, name, position });
    }
    if (refs) {
      for (const position of item.risks ?? []) {
        await tx.insert(riskSystemLinks).values({ riskId: refs.riskIds[position]!, itemId: row!.id });
      }
    }
    ids.push(row!.id);
  }
  return ids;
}

/**
 * The provider's inventory library and First Harbor's inventory: 15 systems and applications and 5
 * vendors with their answers (three left partly unanswered), line items, and links to the register's
 * risks.
 */
export async function seedInventoryDemo(
  tx: Db,
  harbor: { orgId: string; adminId: string; analystId: string },
  providerAdminId: string,
  lists: { vendorIds: string[]; assetTypeIds: string[]; riskIds: string[] },
) {
  await addItems(tx, { library: true }, LIBRARY_ITEMS, providerAdminId);
  const ids = await addItems(tx, { orgId: harbor.orgId }, ITEMS, harbor.adminId, {
    ...lists,
    ownerId: harbor.analystId,
    adminId: harbor.adminId,
  });
  // A risk whose potential impact differs from the one its linked systems recommend says why.
  const systemScores = await impactScoresOfRisks(tx, lists.riskIds);
  for (const [riskId, scores] of systemScores) {
    const recommended = recommendedRiskImpact(scores);
    if (!recommended) continue;
    await tx
      .update(risks)
      .set({ potentialImpactReason: 'Set by the risk owner from loss history rather than system scores.' })
      .where(
        and(
          eq(risks.id, riskId),
          isNull(risks.potentialImpactReason),
          ne(risks.potentialImpact, recommended),
        ),
      );
  }
  return ids;
}
