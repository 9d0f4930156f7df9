import {
  CONTROL_ANSWER_STATUSES,
  evidenceReportElementsFor,
  INCIDENT_OPEN_STATES,
  MAX_PAGE_SIZE,
  RISK_LEVELS,
  riskListQuerySchema,
  ticketListQuerySchema,
  type EvidenceReportElement,
  type PolicyKind,
  type PolicySummary,
  type Risk,
  type Ticket,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { validationFailed } from '../../platform/errors';
import { PdfBuilder } from '../../platform/pdf/document';
import { listRisks, modulesOf, orgScope } from '../risk/service';
import { listTickets } from '../tickets/service';
import { describeSource, listAutoEvidence } from './auto-evidence';
import { listPolicies } from './policies';
import { getFramework, getPeriod, listPeriodAnswers } from './service';
import { counted } from './wording';

const STATUS_LABELS = {
  IMPLEMENTED: 'Implemented',
  PARTIALLY_IMPLEMENTED: 'Partially',
  NOT_IMPLEMENTED: 'Not implemented',
  NOT_APPLICABLE: 'N/A',
} as const;

/** The organisation's incidents created from `since` on, newest first, read a page at a time. */
async function incidentsSince(db: Db, access: AccessContext, since: string): Promise<Ticket[]> {
  const found: Ticket[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const { items } = await listTickets(
      db,
      access,
      'incident',
      ticketListQuerySchema.parse({ sortBy: 'createdOn', desc: 'true', pageSize: MAX_PAGE_SIZE, pageNumber }),
    );
    for (const item of items) {
      if (item.createdOn.slice(0, 10) < since) return found;
      found.push(item);
    }
    if (items.length < MAX_PAGE_SIZE) return found;
  }
}

/** Every active risk of the register the caller may read. */
async function registerRisks(db: Db, access: AccessContext): Promise<Risk[]> {
  const risks: Risk[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const { items, total } = await listRisks(
      db,
      access,
      orgScope(access),
      riskListQuerySchema.parse({ pageSize: MAX_PAGE_SIZE, pageNumber }),
    );
    risks.push(...items);
    if (risks.length >= total || items.length === 0) return risks;
  }
}

/**
 * The evidence pack of an evaluation period for an examiner or a board, of the chosen elements (at
 * least one): the framework's status by section with its evidence, the automatic evidence, the risk
 * register summary, incident statistics for the period and the review status of the policies, read
 * as the requester (an element without its permission says it is not available).
 */
export async function evidenceReport(
  db: Db,
  access: AccessContext,
  periodId: string,
  elements: EvidenceReportElement[],
  now = new Date(),
) {
  const orgId = access.org.id;
  const period = await getPeriod(db, orgId, periodId);
  if (elements.length === 0) {
    throw validationFailed('GOVERNANCE_EVIDENCE_REPORT_NO_ELEMENTS', 'Choose at least one element', {
      field: 'elements',
    });
  }
  const chosen = new Set(elements);
  const allowed = new Set(evidenceReportElementsFor(access.permissions, modulesOf(access).length > 0));
  const [framework, answers, autoEvidence] = await Promise.all([
    getFramework(db, orgId, period.frameworkId),
    chosen.has('FRAMEWORK_STATUS') ? listPeriodAnswers(db, orgId, periodId) : [],
    chosen.has('AUTO_EVIDENCE') ? listAutoEvidence(db, orgId, periodId) : [],
  ]);
  const pdf = new PdfBuilder({ title: `Evidence report: ${framework.name}, ${period.name}` });
  pdf.cover({
    title: 'Evidence report',
    subtitle: `${framework.name}: ${period.name}`,
    facts: [
      { label: 'Organisation', value: access.org.name },
      { label: 'Evaluation period', value: `${period.startsOn} to ${period.endsOn}` },
      {
        label: 'State',
        value:
          period.state === 'FINALIZED'
            ? `Finalized on ${period.finalizedOn?.slice(0, 10)} by ${period.finalizedByName ?? 'unknown'}`
            : 'In progress',
      },
      { label: 'Generated', value: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC` },
    ],
  });

  if (chosen.has('FRAMEWORK_STATUS')) {
    const answerOf = new Map(answers.map((answer) => [answer.controlId, answer]));
    const parentOf = new Map(framework.sections.map((section) => [section.id, section.parentId]));
    const topOf = (sectionId: string): string => {
      let id = sectionId;
      for (let parent = parentOf.get(id); parent; parent = parentOf.get(id)) id = parent;
      return id;
    };
    const tally = (controls: typeof framework.controls) => {
      const counts = Object.fromEntries([...CONTROL_ANSWER_STATUSES, 'none'].map((status) => [status, 0]));
      let evidence = 0;
      for (const control of controls) {
        const answer = answerOf.get(control.id);
        counts[answer?.status ?? 'none']!++;
        evidence += answer?.evidence.length ?? 0;
      }
      return { counts, evidence };
    };
    const overall = tally(framework.controls);
    pdf.heading('Framework status');
    pdf.paragraph(
      `${period.answered} of ${counted(period.controlCount, 'control', 'controls')} answered. ` +
        CONTROL_ANSWER_STATUSES.map((status) => `${STATUS_LABELS[status]}: ${overall.counts[status]}`).join(
          ', ',
        ) +
        `. Evidence items: ${overall.evidence}.`,
    );
    const tops = framework.sections.filter((section) => section.parentId === null);
    pdf.table(
      [
        'Section',
        'Controls',
        ...CONTROL_ANSWER_STATUSES.map((status) => STATUS_LABELS[status]),
        'Not answered',
        'Evidence',
        'Tier / target',
      ],
      tops.map((section) => {
        const own = framework.controls.filter((control) => topOf(control.sectionId) === section.id);
        const { counts, evidence } = tally(own);
        return [
          `${section.ref} ${section.title}`,
          own.length,
          ...CONTROL_ANSWER_STATUSES.map((status) => counts[status]),
          counts.none,
          evidence,
          `${period.tiers[section.id] ?? '-'} / ${section.targetTier ?? framework.targetTier ?? '-'}`,
        ];
      }),
    );
    const gaps = framework.controls.filter((control) => {
      const status = answerOf.get(control.id)?.status;
      return status === 'NOT_IMPLEMENTED' || status === 'PARTIALLY_IMPLEMENTED';
    });
    if (gaps.length > 0) {
      pdf.heading('Controls not fully implemented', 2);
      pdf.table(
        ['Control', 'Status', 'Owner', 'Notes'],
        gaps.map((control) => {
          const answer = answerOf.get(control.id)!;
          return [control.ref, STATUS_LABELS[answer.status!], answer.ownerName, answer.notes];
        }),
      );
    }
  }

  if (chosen.has('AUTO_EVIDENCE')) {
    pdf.heading('Automatic evidence');
    if (autoEvidence.length === 0) {
      pdf.paragraph('No automatic evidence is set up in the period.', { muted: true });
    } else {
      const refOf = new Map(framework.controls.map((control) => [control.id, control.ref]));
      pdf.table(
        ['Control', 'Source', 'State', 'Reason', 'Evaluated'],
        autoEvidence.map((source) => {
          const latest = source.history[0];
          return [
            refOf.get(source.controlId),
            describeSource(source),
            latest?.state ?? 'Not evaluated',
            latest?.reason,
            latest?.evaluatedOn.slice(0, 16).replace('T', ' '),
          ];
        }),
      );
    }
  }

  if (chosen.has('RISK_REGISTER')) {
    pdf.heading('Risk register summary');
    if (!allowed.has('RISK_REGISTER')) {
      pdf.paragraph('The risk register is not available to the requester.', { muted: true });
    } else {
      const risks = await registerRisks(db, access);
      pdf.paragraph(
        `${counted(risks.length, 'active risk', 'active risks')}. Residual risk: ` +
          [...RISK_LEVELS]
            .reverse()
            .map(
              (level) =>
                `${level.toLowerCase()} ${risks.filter((risk) => risk.residualRisk.value === level).length}`,
            )
            .join(', ') +
          `, not scored ${risks.filter((risk) => risk.residualRisk.value === null).length}.`,
      );
      const key = risks.filter((risk) => risk.keyRisk);
      if (key.length > 0) {
        pdf.table(
          ['Key risk', 'Inherent', 'Residual', 'Response', 'Owner'],
          key.map((risk) => [
            `${risk.publicId} ${risk.name}`,
            risk.inherentRisk.value,
            risk.residualRisk.value,
            risk.response,
            risk.businessOwner?.name,
          ]),
        );
      }
    }
  }

  if (chosen.has('INCIDENT_STATISTICS')) {
    pdf.heading('Incident statistics');
    if (!allowed.has('INCIDENT_STATISTICS')) {
      pdf.paragraph('Incidents are not available to the requester.', { muted: true });
    } else {
      const incidents = (await incidentsSince(db, access, period.startsOn)).filter(
        (incident) => incident.createdOn.slice(0, 10) <= period.endsOn,
      );
      const open = incidents.filter(
        (incident) => INCIDENT_OPEN_STATES.includes(incident.state) || incident.state === 'REMEDIATION',
      );
      const late = open.filter((incident) => incident.slaDate !== null && new Date(incident.slaDate) < now);
      pdf.paragraph(
        `${counted(incidents.length, 'incident', 'incidents')} opened in the period; ` +
          `${incidents.length - open.length} resolved, closed or invalid; ${open.length} still open, ` +
          `${late.length} of them past their SLA date.`,
      );
      const byState = new Map<string, number>();
      for (const incident of incidents) byState.set(incident.state, (byState.get(incident.state) ?? 0) + 1);
      if (byState.size > 0) pdf.table(['State', 'Incidents'], [...byState]);
    }
  }

  if (chosen.has('POLICY_REVIEWS')) {
    pdf.heading('Review status');
    const kinds = (['CUSTOM', 'CAT'] as PolicyKind[]).filter((kind) =>
      access.permissions.has(`${kind}_POLICY_VIEW`),
    );
    const policies: PolicySummary[] = (
      await Promise.all(kinds.map((kind) => listPolicies(db, access, kind)))
    ).flat();
    if (policies.length === 0) {
      pdf.paragraph('No policies are available to the requester.', { muted: true });
    } else {
      const overdue = policies.filter((policy) => policy.reviewOverdue).length;
      pdf.paragraph(`${counted(policies.length, 'policy', 'policies')}; ${overdue} overdue for review.`);
      pdf.table(
        ['Policy', 'Current version', 'Last reviewed', 'Next review', 'Acknowledged'],
        policies.map((policy) => [
          `${policy.name}${policy.kind === 'CAT' ? ' (CAT)' : ''}`,
          policy.currentVersion ? `v${policy.currentVersion.number}` : 'not approved',
          policy.lastReviewedOn ?? '-',
          `${policy.nextReviewOn ?? '-'}${policy.reviewOverdue ? ' (overdue)' : ''}`,
          policy.currentVersion ? `${policy.acknowledgedCount} of ${policy.audienceCount}` : '-',
        ]),
      );
    }
  }
  return { name: `evidence-${framework.name}-${period.name}.pdf`, content: await pdf.finish() };
}
