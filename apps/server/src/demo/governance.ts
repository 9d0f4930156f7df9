import type { ControlAnswerStatus } from '@vigil/contracts';
import type { Db } from '../db/client';
import { crosswalkSuggestions } from '../modules/governance/crosswalk';
import { libraryEntry } from '../modules/governance/library';
import {
  insertEvidence,
  insertFramework,
  insertPeriod,
  listControls,
  suggestAnswer,
  updateFramework,
  updatePeriod,
  upsertAnswer,
} from '../modules/governance/repo';

const CYCLE: ControlAnswerStatus[] = [
  'IMPLEMENTED',
  'IMPLEMENTED',
  'PARTIALLY_IMPLEMENTED',
  'NOT_IMPLEMENTED',
];

/** The CAT answer of a component at a maturity level: met up to Intermediate in places, then not. */
function catStatus(ref: string, index: number): ControlAnswerStatus {
  if (ref.endsWith('.B')) return 'IMPLEMENTED';
  if (ref.endsWith('.E')) return index % 3 === 0 ? 'PARTIALLY_IMPLEMENTED' : 'IMPLEMENTED';
  if (ref.endsWith('.I')) return index % 2 === 0 ? 'NOT_IMPLEMENTED' : 'PARTIALLY_IMPLEMENTED';
  return 'NOT_IMPLEMENTED';
}

async function adopt(db: Db, orgId: string, key: string, createdBy: string) {
  const entry = libraryEntry(key)!;
  const id = await insertFramework(
    db,
    orgId,
    { libraryKey: key, source: 'library', createdBy },
    entry.template,
  );
  return { id, controls: (await listControls(db, orgId, id)).map(({ row }) => row) };
}

/**
 * First Harbor works NIST CSF 2.0 this year (every other subcategory answered, with owners, notes and
 * evidence) and keeps last year's FFIEC CAT assessment, finalized, with its inherent risk profile;
 * the CAT answers wait on the other subcategories as suggestions to review.
 */
export async function seedGovernanceDemo(
  db: Db,
  harbor: { orgId: string; analystId: string; adminId: string },
  now = new Date(),
) {
  const { orgId, analystId, adminId } = harbor;
  const year = now.getUTCFullYear();

  const csf = await adopt(db, orgId, 'nist-csf-2.0', adminId);
  await updateFramework(db, orgId, csf.id, { targetTier: 'Repeatable' });
  const current = await insertPeriod(db, {
    orgId,
    frameworkId: csf.id,
    name: `CSF ${year}`,
    startsOn: `${year}-01-01`,
    endsOn: `${year}-12-31`,
    createdBy: adminId,
  });
  await updatePeriod(db, orgId, current.id, { tiers: { framework: 'Risk Informed' } });
  for (const [index, control] of csf.controls.entries()) {
    if (index % 2 === 1) continue;
    await upsertAnswer(db, {
      periodId: current.id,
      controlId: control.id,
      orgId,
      status: CYCLE[(index / 2) % CYCLE.length]!,
      ownerId: index % 4 === 0 ? adminId : analystId,
      notes: index === 0 ? 'Mission and risk appetite reviewed by the board in January.' : '',
      modifiedBy: analystId,
      modifiedOn: now,
    });
  }
  const [first] = csf.controls;
  await insertEvidence(db, {
    orgId,
    periodId: current.id,
    controlId: first!.id,
    kind: 'link',
    name: 'Board minutes: cybersecurity strategy',
    url: 'https://intranet.firstharbor.example/board/minutes',
    createdBy: adminId,
  });

  const cat = await adopt(db, orgId, 'ffiec-cat', adminId);
  const previous = await insertPeriod(db, {
    orgId,
    frameworkId: cat.id,
    name: `CAT ${year - 1}`,
    startsOn: `${year - 1}-01-01`,
    endsOn: `${year - 1}-12-31`,
    createdBy: adminId,
  });
  for (const [index, control] of cat.controls.entries()) {
    await upsertAnswer(db, {
      periodId: previous.id,
      controlId: control.id,
      orgId,
      status: catStatus(control.ref, index),
      ownerId: analystId,
      notes: '',
      modifiedBy: analystId,
      modifiedOn: now,
    });
  }
  await updatePeriod(db, orgId, previous.id, {
    state: 'FINALIZED',
    finalizedOn: now,
    finalizedBy: adminId,
    tiers: { framework: 'Evolving' },
    riskProfile: { TC: 'Minimal', DC: 'Moderate', OMP: 'Moderate', OC: 'Minimal', ET: 'Least' },
  });
  // Moving from CAT to CSF 2.0: last year's CAT answers wait as suggestions on the subcategories not
  // answered yet this year.
  const suggestions = crosswalkSuggestions(
    'ffiec-cat',
    cat.controls.map((control, index) => ({ ref: control.ref, status: catStatus(control.ref, index) })),
  );
  for (const control of csf.controls) {
    const suggestion = suggestions.get(control.ref);
    if (!suggestion) continue;
    await suggestAnswer(db, {
      orgId,
      periodId: current.id,
      controlId: control.id,
      status: suggestion.status,
      from: `CAT ${year - 1} (FFIEC Cybersecurity Assessment Tool: ${suggestion.from.join(', ')})`,
    });
  }
  return { csfId: csf.id, catId: cat.id, currentPeriodId: current.id, catPeriodId: previous.id };
}
