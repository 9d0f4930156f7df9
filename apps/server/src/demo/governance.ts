import type { ControlAnswerStatus } from '@vigil/contracts';
import type { Db } from '../db/client';
import { evaluateSource, insertSource } from '../modules/governance/auto-evidence';
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
import {
  approveVersion,
  insertAcknowledgement,
  insertPolicy,
  insertVersion,
  updatePolicy,
} from '../modules/governance/policies-repo';
import { listTriggers } from '../modules/triggers/repo';

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
  return { id, controls: await listControls(db, orgId, id) };
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

  // Living evidence: continuous monitoring watched by an active trigger, incident response measured
  // against the SLA.
  const { items: running } = await listTriggers(
    db,
    orgId,
    { domain: 'security', state: 'ACTIVE', sortField: 'name', sortOrder: 'ASC' },
    { limit: 1, offset: 0 },
  );
  const controlOf = (ref: string) => csf.controls.find((control) => control.ref === ref)!;
  const automatic = [
    ...(running[0]
      ? [
          {
            controlId: controlOf('DE.CM-01').id,
            kind: 'TRIGGER_ACTIVE',
            triggerId: running[0].row.id,
            window: 24,
            threshold: null,
          },
        ]
      : []),
    {
      controlId: controlOf('RS.MA-01').id,
      kind: 'INCIDENTS_WITHIN_SLA',
      triggerId: null,
      window: 90,
      threshold: 80,
    },
  ];
  for (const source of automatic) {
    await evaluateSource(
      db,
      await insertSource(db, { orgId, periodId: current.id, createdBy: adminId, ...source }),
      now,
    );
  }

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
  const policyIds = await seedPolicies(db, harbor, now);
  return { csfId: csf.id, catId: cat.id, currentPeriodId: current.id, catPeriodId: previous.id, policyIds };
}

const DAY_MS = 86_400_000;

/**
 * Three policies: an information security policy approved and acknowledged by the analyst, reviewed a
 * while ago, with a second version awaiting approval; an acceptable use policy whose review is
 * overdue; and a CAT policy for the Cyber Risk Management and Oversight domain, approved.
 */
async function seedPolicies(
  db: Db,
  { orgId, analystId, adminId }: { orgId: string; analystId: string; adminId: string },
  now: Date,
) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const policies = [
    {
      kind: 'CUSTOM',
      name: 'Information Security Policy',
      description: 'How First Harbor protects member and bank information.',
      reviewEveryMonths: 12,
      reviewedDaysAgo: 60,
      versions: [
        'Every system holding member data is inventoried, patched within 30 days and monitored by Vigil.',
        'Every system holding member data is inventoried, patched within 14 days and monitored by Vigil; ' +
          'critical patches within 72 hours.',
      ],
      approved: 1,
      acknowledgedBy: [analystId],
    },
    {
      kind: 'CUSTOM',
      name: 'Acceptable Use Policy',
      description: 'What staff may do with bank systems.',
      reviewEveryMonths: 6,
      reviewedDaysAgo: 400,
      versions: ['Bank systems are for bank business. Report lost devices to security at once.'],
      approved: 1,
      acknowledgedBy: [],
    },
    {
      kind: 'CAT',
      name: 'Cyber Risk Oversight Policy',
      description: 'The board oversees cyber risk (FFIEC CAT domain 1).',
      reviewEveryMonths: 12,
      reviewedDaysAgo: null,
      catRefs: ['D1'],
      versions: ['The board receives a cyber risk report each quarter and approves the program yearly.'],
      approved: 1,
      acknowledgedBy: [adminId],
    },
    {
      // Deleted last month: the list's Deleted view offers to restore it.
      kind: 'CUSTOM',
      name: 'Clean Desk Policy',
      description: 'Papers and screens are locked away when staff leave their desk.',
      reviewEveryMonths: 12,
      reviewedDaysAgo: null,
      deletedDaysAgo: 30,
      versions: ['Lock the screen when leaving the desk; keep member papers in locked drawers overnight.'],
      approved: 1,
      acknowledgedBy: [],
    },
  ];
  const ids: string[] = [];
  for (const policy of policies) {
    const row = await insertPolicy(db, {
      orgId,
      kind: policy.kind,
      name: policy.name,
      description: policy.description,
      ownerId: adminId,
      catRefs: policy.catRefs ?? [],
      reviewEveryMonths: policy.reviewEveryMonths,
      createdBy: adminId,
      createdOn: ago(500),
    });
    for (const [index, body] of policy.versions.entries()) {
      const version = await insertVersion(db, {
        orgId,
        policyId: row.id,
        number: index + 1,
        body,
        changeNote: index === 0 ? '' : 'Shorter patch windows',
        createdBy: adminId,
        createdOn: ago(450 - index * 400),
      });
      if (index + 1 <= policy.approved) {
        await approveVersion(db, version.id, adminId);
        for (const userId of policy.acknowledgedBy)
          await insertAcknowledgement(db, orgId, version.id, userId);
      }
    }
    if (policy.reviewedDaysAgo !== null) {
      await updatePolicy(db, orgId, row.id, {
        lastReviewedOn: ago(policy.reviewedDaysAgo).toISOString().slice(0, 10),
        lastReviewedBy: adminId,
      });
    }
    if (policy.deletedDaysAgo !== undefined) {
      await updatePolicy(db, orgId, row.id, { deletedOn: ago(policy.deletedDaysAgo) });
      continue;
    }
    ids.push(row.id);
  }
  return ids;
}
