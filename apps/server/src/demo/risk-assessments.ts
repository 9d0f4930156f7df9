import { publicIdOf, recommendedAggregate, type AssessmentKind } from '@vigil/contracts';
import type { Db } from '../db/client';
import { coveredItems } from '../modules/risk/assessments';
import { nextNumber } from '../modules/risk/repo';
import { riskAssessments } from '../modules/risk/tables';

const DAY_MS = 86_400_000;

/**
 * First Harbor's two assessments: last year's risk assessment of its key risks, completed and
 * published (its PDF is exported from the assessments page), and this year's inventory assessment of
 * its core systems and vendors, saved as a draft without its executive summary yet.
 */
export async function seedAssessmentDemo(
  tx: Db,
  harbor: { orgId: string; adminId: string },
  ids: { riskIds: string[]; inventoryIds: string[] },
  now: Date,
) {
  const { orgId, adminId } = harbor;
  const add = async (
    kind: AssessmentKind,
    name: string,
    itemIds: string[],
    values: Partial<typeof riskAssessments.$inferInsert>,
  ) => {
    const number = await nextNumber(tx, { orgId }, 'assessment');
    await tx.insert(riskAssessments).values({
      orgId,
      number,
      publicId: publicIdOf('assessment', number),
      kind,
      name,
      itemIds,
      createdBy: adminId,
      ...values,
    });
  };

  const riskIds = ids.riskIds.slice(0, 8);
  const items = await coveredItems(tx, orgId, 'RISK', riskIds);
  const completedOn = new Date(now.getTime() - 60 * DAY_MS);
  await add('RISK', 'Annual information security risk assessment', riskIds, {
    module: 'INFORMATION_SECURITY',
    state: 'COMPLETED',
    executiveSummary:
      'Phishing and ransomware remain the bank’s most severe risks. Multi-factor authentication for ' +
      'remote access and the new backup regime lowered residual risk on most of the register; vendor ' +
      'concentration in core processing is accepted and watched through quarterly reviews.',
    inherentRisk: recommendedAggregate(items.map((item) => item.inherentRisk)),
    residualRisk: recommendedAggregate(items.map((item) => item.residualRisk)),
    completedItems: items,
    completedOn,
    completedBy: adminId,
    version: 3,
    createdOn: new Date(completedOn.getTime() - 14 * DAY_MS),
    modifiedOn: completedOn,
  });
  await add('INVENTORY', 'Core systems review', ids.inventoryIds.slice(0, 6), {
    module: 'SYSTEMS_AND_APPLICATIONS',
    state: 'SAVED',
    version: 2,
  });
}
