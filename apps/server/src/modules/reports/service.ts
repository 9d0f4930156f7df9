import {
  nextReportRun,
  REPORT_PENDING_STATES,
  REPORT_TEMPLATE_MAX_CHARTS,
  resolveSearchRange,
  type Chart,
  type ChartData,
  type Report,
  type ReportRange,
  type ReportRequest,
  type ReportSchedule,
  type ReportLibraryCopyResult,
  type ReportScheduleActivate,
  type ReportTemplate,
  type reportScheduleInputSchema,
  type reportTemplateInputSchema,
} from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { accessContextOf, type AccessContext } from '../../platform/access';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import type { JobRunner } from '../../platform/jobs';
import type { SendMail } from '../../platform/mail';
import { PdfBuilder } from '../../platform/pdf/document';
import {
  assertProviderAdmin,
  auditFor,
  chartData,
  copyChartsInto,
  copyMissing,
  copyToEveryCustomer,
  visibleCharts,
  type Actor,
  type CopyCount,
} from '../dashboards/service';
import { loadOrgAccess } from '../users/access';
import { findUser, listUserEmails } from '../users/repo';
import { addChartSection } from './render';
import {
  claimDueSchedule,
  copiedScheduleIds,
  countLiveSchedulesOf,
  deleteReportRow,
  deleteTemplateRow,
  findReport,
  findReportContent,
  findSchedule,
  findScheduleById,
  findTemplate,
  findTemplateCopy,
  findVisibleTemplate,
  insertReport,
  insertSchedule,
  insertTemplate,
  liveLibrarySchedules,
  moveReport,
  setScheduleRun,
  staleReports,
  stillNotCopied,
  updateNotCopiedCopies,
  updateSchedule,
  updateTemplate,
  type ReportRow,
  type ReportView,
  type ScheduleView,
  type TemplateView,
} from './repo';

export const REPORT_BUILD_JOB = 'reports.build';
export const REPORT_SCHEDULE_TICK_JOB = 'reports.schedules.tick';
/** A report still requested this long after it was asked for has lost its build job: it is queued again. */
const LOST_JOB_AFTER_MS = 60_000;
/** A build that ran longer than its job may (the process stopped mid-build) starts over. */
const BUILD_EXPIRE_SECONDS = 900;

type ParsedTemplate = z.output<typeof reportTemplateInputSchema>;
type ParsedSchedule = z.output<typeof reportScheduleInputSchema>;

/** What starts report builds: the durable job queue (the demo builder runs builds in place instead). */
export type QueueBuild = (reportId: string) => Promise<void>;

export const queueOn =
  (jobs: JobRunner): QueueBuild =>
  async (reportId) =>
    void (await jobs.send(REPORT_BUILD_JOB, { reportId }, { singletonKey: reportId }));

const templateAudit = auditFor('report_template');
const reportAudit = auditFor('report');
const scheduleAudit = auditFor('report_schedule');

const templateNotFound = () =>
  new AppError('NotFoundException', 'REPORT_TEMPLATE_NOT_FOUND', 'Report template not found');
const reportNotFound = () => new AppError('NotFoundException', 'REPORT_NOT_FOUND', 'Report not found');
const scheduleNotFound = () =>
  new AppError('NotFoundException', 'REPORT_SCHEDULE_NOT_FOUND', 'Report schedule not found');

// ---------------------------------------------------------------------------------------------------
// Templates

export function templateJson(
  { row, createdByName }: TemplateView,
  charts: Map<string, Chart>,
): ReportTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    charts: row.chartIds.map((id) => {
      const chart = charts.get(id);
      return { id, name: chart?.name ?? '', type: chart?.type ?? '', live: chart?.state === 'ACTIVE' };
    }),
    library: row.library,
    copiedFromId: row.copiedFromId,
    createdByName,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** Templates as JSON, with the names of their charts. */
export async function templatesJson(db: Db, access: AccessContext, views: TemplateView[]) {
  const charts = await visibleCharts(db, access, [...new Set(views.flatMap((view) => view.row.chartIds))]);
  const byId = new Map(charts.map((chart) => [chart.id, chart]));
  return views.map((view) => templateJson(view, byId));
}

/** A template of the organisation or of the library. */
export async function getTemplate(db: Db, access: AccessContext, id: string): Promise<ReportTemplate> {
  const view = await findVisibleTemplate(db, access.org.id, id);
  if (!view) throw templateNotFound();
  return (await templatesJson(db, access, [view]))[0]!;
}

/**
 * A template the caller may change: the organisation's, or the library's for provider administrators
 * (403 LIBRARY_COPY_DENIED for others).
 */
async function changeableTemplate(db: Db, access: AccessContext, id: string) {
  const view = await findVisibleTemplate(db, access.org.id, id);
  if (!view) throw templateNotFound();
  if (view.row.library) await assertProviderAdmin(db, access);
  return view;
}

/**
 * The rules of spec 3 for a template: at least one chart, each once, each a live chart the
 * organisation sees; a library template, which every customer may copy, of library charts only.
 */
async function checkTemplate(db: Db, access: AccessContext, input: ParsedTemplate, library: boolean) {
  const { chartIds } = input;
  if (chartIds.length === 0) {
    throw validationFailed('REPORT_TEMPLATE_NEEDS_CHART', 'A template needs at least one chart', {
      field: 'chartIds',
    });
  }
  if (chartIds.length > REPORT_TEMPLATE_MAX_CHARTS) {
    throw validationFailed('REPORT_TEMPLATE_TOO_MANY_CHARTS', 'Too many charts', {
      field: 'chartIds',
      params: { max: REPORT_TEMPLATE_MAX_CHARTS },
    });
  }
  if (new Set(chartIds).size !== chartIds.length) {
    throw validationFailed('REPORT_TEMPLATE_DUPLICATE_CHART', 'A chart appears twice', { field: 'chartIds' });
  }
  const live = new Set(
    (await visibleCharts(db, access, chartIds))
      .filter((chart) => chart.state === 'ACTIVE' && (!library || chart.library))
      .map((chart) => chart.id),
  );
  const missing = chartIds.find((id) => !live.has(id));
  if (missing) {
    throw validationFailed('REPORT_TEMPLATE_CHART_MISSING', 'A chart does not exist', {
      field: 'chartIds',
      params: { id: missing },
    });
  }
}

const templateSnapshot = (input: { name: string; description: string; chartIds: string[] }) => ({
  name: input.name,
  description: input.description,
  chartIds: input.chartIds,
});

export async function createTemplate(db: Db, actor: Actor, input: ParsedTemplate) {
  const { access } = actor;
  if (input.library) await assertProviderAdmin(db, access);
  await checkTemplate(db, access, input, input.library);
  const id = await db.transaction(async (tx) => {
    const row = await insertTemplate(tx, input.library ? null : access.org.id, {
      ...templateSnapshot(input),
      createdBy: access.user.id,
    });
    await templateAudit(tx, actor, 'created', row.id, { after: templateSnapshot(row) });
    return row.id;
  });
  return getTemplate(db, access, id);
}

export async function updateTemplateFields(db: Db, actor: Actor, id: string, input: ParsedTemplate) {
  const { access } = actor;
  const before = await changeableTemplate(db, access, id);
  const owner = before.row.orgId;
  await checkTemplate(db, access, input, before.row.library);
  await db.transaction(async (tx) => {
    const row = await updateTemplate(tx, owner, id, templateSnapshot(input));
    if (!row) throw templateNotFound();
    await templateAudit(tx, actor, 'updated', id, {
      before: templateSnapshot(before.row),
      after: templateSnapshot(row),
    });
  });
  return getTemplate(db, access, id);
}

/**
 * Deletes a template no live schedule uses (for a library template: no library schedule and no copy
 * an organisation has not activated yet); the reports built from it keep their PDFs.
 */
export async function deleteTemplate(db: Db, actor: Actor, id: string) {
  const { access } = actor;
  const owner = (await changeableTemplate(db, access, id)).row.orgId;
  await db.transaction(async (tx) => {
    if ((await countLiveSchedulesOf(tx, owner, id)) > 0) {
      throw conflict('REPORT_TEMPLATE_IN_USE', 'A report schedule uses this template');
    }
    const row = await deleteTemplateRow(tx, owner, id);
    if (!row) throw templateNotFound();
    await templateAudit(tx, actor, 'deleted', id, { before: templateSnapshot(row) });
  });
}

// ---------------------------------------------------------------------------------------------------
// On-demand reports

export function reportJson({ row, requestedByName }: ReportView): Report {
  return {
    id: row.id,
    templateId: row.templateId,
    scheduleId: row.scheduleId,
    name: row.name,
    range: row.range as ReportRange,
    begin: row.begin.toISOString(),
    end: row.end.toISOString(),
    state: row.state as Report['state'],
    errorKey: row.errorKey,
    size: row.size,
    requestedByName,
    requestedOn: row.requestedOn.toISOString(),
    completedOn: row.completedOn?.toISOString() ?? null,
  };
}

export async function getReport(db: Db, orgId: string, id: string): Promise<Report> {
  const view = await findReport(db, orgId, id);
  if (!view) throw reportNotFound();
  return reportJson(view);
}

/** Adds a report of a template over a range resolved now; answers it (REQUESTED) once its row is written. */
async function addReport(
  db: Db,
  template: { id: string; name: string },
  orgId: string,
  range: ReportRange,
  requestedBy: string | null,
  scheduleId: string | null,
  now: Date,
): Promise<ReportRow> {
  const { begin, end } = resolveSearchRange(range, now);
  return insertReport(db, {
    orgId,
    templateId: template.id,
    scheduleId,
    name: template.name,
    range,
    begin,
    end,
    state: 'REQUESTED',
    requestedBy,
  });
}

export async function requestReport(
  db: Db,
  queue: QueueBuild,
  actor: Actor,
  input: ReportRequest,
  now = new Date(),
): Promise<Report> {
  const { access } = actor;
  const template = await findTemplate(db, access.org.id, input.templateId);
  if (!template) {
    throw validationFailed('REPORT_TEMPLATE_NOT_FOUND', 'Report template not found', { field: 'templateId' });
  }
  const row = await db.transaction(async (tx) => {
    const added = await addReport(tx, template.row, access.org.id, input.range, access.user.id, null, now);
    await reportAudit(tx, actor, 'requested', added.id, { templateId: template.row.id, range: input.range });
    return added;
  });
  await queue(row.id);
  return getReport(db, access.org.id, row.id);
}

export async function deleteReport(db: Db, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const row = await deleteReportRow(tx, actor.access.org.id, id);
    if (!row) throw reportNotFound();
    await reportAudit(tx, actor, 'deleted', id, { name: row.name, state: row.state });
  });
}

/** The PDF of a completed report. */
export async function reportPdf(db: Db, orgId: string, id: string) {
  const row = await findReportContent(db, orgId, id);
  if (!row) throw reportNotFound();
  if (row.state !== 'COMPLETED' || !row.content) {
    throw conflict('REPORT_NOT_READY', 'The report is not completed');
  }
  return { name: row.name, content: row.content };
}

// ---------------------------------------------------------------------------------------------------
// Building

const RANGE_LABELS: Record<ReportRange, string> = {
  '1H': 'Last hour',
  '3H': 'Last 3 hours',
  '12H': 'Last 12 hours',
  '24H': 'Last 24 hours',
  '7D': 'Last 7 days',
  '30D': 'Last 30 days',
  '90D': 'Last 90 days',
  THIS_WEEK: 'This week',
  LAST_WEEK: 'Last week',
  THIS_MONTH: 'This month',
  LAST_MONTH: 'Last month',
  ALL_TIME: 'All time',
};

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The requester's access in the report's organisation now: reports show what they may see. */
async function requesterAccess(db: Db, row: ReportRow): Promise<AccessContext> {
  const user = row.requestedBy ? await findUser(db, row.requestedBy) : null;
  const orgAccess = user?.active && !user.deletedAt ? await loadOrgAccess(db, user, row.orgId) : null;
  if (!user || !orgAccess) throw new Error('The requester can no longer act in the organisation');
  const [email = ''] = await listUserEmails(db, user.id);
  return accessContextOf({ ...user, email }, orgAccess);
}

/** The report's PDF: a cover, then each chart's title, picture and data table. */
export async function renderReport(
  access: AccessContext,
  report: Pick<ReportRow, 'name' | 'range' | 'begin' | 'end'>,
  sections: { chart: Chart; data: ChartData | null }[],
  now: Date,
): Promise<Buffer> {
  const pdf = new PdfBuilder({ title: report.name, author: access.org.name });
  pdf.cover({
    title: report.name,
    subtitle: 'Report',
    facts: [
      { label: 'Organisation', value: access.org.name },
      {
        label: 'Range',
        value: `${RANGE_LABELS[report.range as ReportRange]} (${utc(report.begin)} to ${utc(report.end)})`,
      },
      { label: 'Generated', value: utc(now) },
      { label: 'Requested by', value: `${access.user.firstName} ${access.user.lastName}` },
    ],
  });
  for (const { chart, data } of sections) {
    if (data) addChartSection(pdf, chart, data);
    else
      pdf.heading(chart.name).paragraph('This chart was deleted or cannot be shown to you.', { muted: true });
  }
  return pdf.finish();
}

/** The data of each chart of a template for the requester; null for charts gone or not theirs to see. */
async function gatherData(db: Db, access: AccessContext, chartIds: string[], report: ReportRow) {
  const charts = new Map((await visibleCharts(db, access, chartIds)).map((chart) => [chart.id, chart]));
  const sections: { chart: Chart; data: ChartData | null }[] = [];
  for (const id of chartIds) {
    const chart = charts.get(id);
    if (!chart) continue;
    let data: ChartData | null = null;
    if (chart.state === 'ACTIVE') {
      try {
        data = await chartData(db, access, id, {
          begin: report.begin.toISOString(),
          end: report.end.toISOString(),
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 403) throw error;
      }
    }
    sections.push({ chart, data });
  }
  return sections;
}

export interface BuildDeps {
  sendMail?: SendMail;
  log?: FastifyBaseLogger;
}

/**
 * Builds a report: WAITING_FOR_DATA while its charts' data is read, BUILDING while the PDF is drawn,
 * then COMPLETED with the PDF, or FAILED with REPORT_GENERATION_FAILED. A scheduled report is then
 * e-mailed to the schedule's recipients. Does nothing for a report another worker took or deleted.
 */
export async function buildReport(db: Db, reportId: string, deps: BuildDeps = {}, now = new Date()) {
  // Only one worker takes a report, however often its job was queued.
  const row = await moveReport(db, reportId, ['REQUESTED'], { state: 'WAITING_FOR_DATA' });
  if (!row) return;
  let pdf: Buffer | null = null;
  try {
    const access = await requesterAccess(db, row);
    const template = row.templateId ? await findTemplate(db, row.orgId, row.templateId) : undefined;
    if (!template) throw new Error('The template was deleted');
    const sections = await gatherData(db, access, template.row.chartIds, row);
    if (!(await moveReport(db, reportId, ['WAITING_FOR_DATA'], { state: 'BUILDING' }))) return;
    pdf = await renderReport(access, row, sections, now);
    await moveReport(db, reportId, ['BUILDING'], {
      state: 'COMPLETED',
      content: pdf,
      size: pdf.length,
      completedOn: new Date(),
    });
  } catch (error) {
    deps.log?.error({ err: error, reportId }, 'report build failed');
    await moveReport(db, reportId, REPORT_PENDING_STATES, {
      state: 'FAILED',
      errorKey: 'REPORT_GENERATION_FAILED',
      completedOn: new Date(),
    });
  }
  if (row.scheduleId) await deliverScheduled(db, row, pdf, deps);
}

/** E-mails a scheduled report's PDF to the schedule's recipients and notes how the run ended. */
async function deliverScheduled(db: Db, row: ReportRow, pdf: Buffer | null, deps: BuildDeps) {
  const schedule = await findScheduleById(db, row.scheduleId!);
  if (!schedule) return;
  // A schedule not copied into the organisation (or a library one) has no recipients of its own.
  if (pdf && deps.sendMail && schedule.orgId === row.orgId && schedule.state !== 'NOT_COPIED') {
    const fileName = `${row.name.replace(/[^\w .-]+/g, '_')}.pdf`;
    for (const to of schedule.recipients) {
      await deps.sendMail({
        to,
        subject: `Vigil report: ${row.name}`,
        text:
          `Your scheduled report "${row.name}" (${RANGE_LABELS[row.range as ReportRange]}, ` +
          `${utc(row.begin)} to ${utc(row.end)}) is attached.`,
        attachments: [
          { filename: fileName, contentType: 'application/pdf', content: pdf.toString('base64') },
        ],
      });
    }
  }
  await setScheduleRun(db, schedule.id, { lastRunState: pdf ? 'COMPLETED' : 'FAILED' });
}

// ---------------------------------------------------------------------------------------------------
// Schedules

export function scheduleJson({ row, templateName, createdByName }: ScheduleView): ReportSchedule {
  return {
    id: row.id,
    templateId: row.templateId,
    templateName,
    range: row.range as ReportRange,
    frequency: row.frequency as ReportSchedule['frequency'],
    recipients: row.recipients,
    state: row.state as ReportSchedule['state'],
    library: row.library,
    copiedFromId: row.copiedFromId,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    lastRunState: row.lastRunState as ReportSchedule['lastRunState'],
    createdByName,
    createdOn: row.createdOn.toISOString(),
  };
}

async function getSchedule(db: Db, orgId: string | null, id: string) {
  const view = await findSchedule(db, orgId, id);
  if (!view) throw scheduleNotFound();
  return scheduleJson(view);
}

const scheduleSnapshot = (input: {
  templateId: string;
  range: string;
  frequency: string;
  recipients: string[];
}) => ({
  templateId: input.templateId,
  range: input.range,
  frequency: input.frequency,
  recipients: input.recipients,
});

async function assertTemplate(db: Db, orgId: string | null, templateId: string) {
  if (!(await findTemplate(db, orgId, templateId))) {
    throw validationFailed('REPORT_TEMPLATE_NOT_FOUND', 'Report template not found', { field: 'templateId' });
  }
}

const uniqueRecipients = (recipients: string[]) => [
  ...new Set(recipients.map((address) => address.trim().toLowerCase())),
];

/**
 * An organisation's schedule e-mails 1 to 50 recipients; a library schedule none, since each
 * organisation that copies it names its own.
 */
function checkRecipients(input: ParsedSchedule, library: boolean) {
  if (library && input.recipients.length > 0) {
    throw validationFailed(
      'REPORT_LIBRARY_SCHEDULE_RECIPIENTS',
      'A library schedule has no recipients: each organisation adds its own',
      { field: 'recipients' },
    );
  }
  if (!library && input.recipients.length === 0) {
    throw validationFailed('REPORT_SCHEDULE_NEEDS_RECIPIENT', 'A schedule needs at least one recipient', {
      field: 'recipients',
    });
  }
}

const notCopied = () =>
  conflict(
    'REPORT_SCHEDULE_NOT_COPIED',
    'This library schedule is not copied into the organisation yet: copy it first',
  );

/** A schedule the caller may change: the organisation's, or the library's for provider administrators. */
async function changeableSchedule(db: Db, access: AccessContext, id: string) {
  const view = (await findSchedule(db, access.org.id, id)) ?? (await findSchedule(db, null, id));
  if (!view) throw scheduleNotFound();
  if (view.row.library) await assertProviderAdmin(db, access);
  return view;
}

export async function createSchedule(db: Db, actor: Actor, input: ParsedSchedule, now = new Date()) {
  const { access } = actor;
  const { library } = input;
  if (library) await assertProviderAdmin(db, access);
  checkRecipients(input, library);
  const owner = library ? null : access.org.id;
  await assertTemplate(db, owner, input.templateId);
  const id = await db.transaction(async (tx) => {
    const row = await insertSchedule(tx, {
      orgId: owner,
      library,
      ...scheduleSnapshot(input),
      recipients: uniqueRecipients(input.recipients),
      state: 'ACTIVE',
      // A library schedule never runs itself.
      nextRunAt: library ? null : nextReportRun(input.frequency, now),
      createdBy: access.user.id,
    });
    await scheduleAudit(tx, actor, 'created', row.id, { after: scheduleSnapshot(row) });
    return row.id;
  });
  return getSchedule(db, owner, id);
}

export async function updateScheduleFields(
  db: Db,
  actor: Actor,
  id: string,
  input: ParsedSchedule,
  now = new Date(),
) {
  const { access } = actor;
  const before = await changeableSchedule(db, access, id);
  const { library } = before.row;
  if (before.row.state === 'NOT_COPIED') throw notCopied();
  checkRecipients(input, library);
  const owner = before.row.orgId;
  await assertTemplate(db, owner, input.templateId);
  await db.transaction(async (tx) => {
    const frequencyChanged = before.row.frequency !== input.frequency;
    const changes = {
      ...scheduleSnapshot(input),
      recipients: uniqueRecipients(input.recipients),
    };
    await updateSchedule(tx, owner, id, {
      ...changes,
      ...(frequencyChanged && !library && { nextRunAt: nextReportRun(input.frequency, now) }),
    });
    // The copies no organisation has activated yet follow the library schedule.
    if (library) await updateNotCopiedCopies(tx, id, { ...changes, recipients: [] });
    await scheduleAudit(tx, actor, 'updated', id, {
      before: scheduleSnapshot(before.row),
      after: scheduleSnapshot(input),
    });
  });
  return getSchedule(db, owner, id);
}

const SCHEDULE_MOVES = {
  pause: { from: 'ACTIVE', to: 'PAUSED' },
  resume: { from: 'PAUSED', to: 'ACTIVE' },
} as const;

/** Pauses an active schedule or resumes a paused one (its next run then counts from now). */
export async function moveSchedule(
  db: Db,
  actor: Actor,
  id: string,
  move: keyof typeof SCHEDULE_MOVES,
  now = new Date(),
) {
  const { access } = actor;
  const { from, to } = SCHEDULE_MOVES[move];
  const before = await findSchedule(db, access.org.id, id);
  if (!before) throw scheduleNotFound();
  if (before.row.state === 'NOT_COPIED') throw notCopied();
  if (before.row.state !== from) {
    throw conflict('REPORT_SCHEDULE_STATE_INVALID', `A ${before.row.state} schedule cannot become ${to}`, {
      params: { from: before.row.state, to },
    });
  }
  await db.transaction(async (tx) => {
    await updateSchedule(tx, access.org.id, id, {
      state: to,
      ...(to === 'ACTIVE' && {
        nextRunAt: nextReportRun(before.row.frequency as ParsedSchedule['frequency'], now),
      }),
    });
    await scheduleAudit(tx, actor, move === 'pause' ? 'paused' : 'resumed', id, { from, to });
  });
  return getSchedule(db, access.org.id, id);
}

/**
 * Deletes a schedule (DELETED; a NOT_COPIED one is dismissed and stays skipped by later copies). A
 * library schedule (provider administrators) takes along its copies no organisation activated yet.
 */
export async function deleteSchedule(db: Db, actor: Actor, id: string) {
  const { access } = actor;
  const before = await changeableSchedule(db, access, id);
  const { library } = before.row;
  await db.transaction(async (tx) => {
    await updateSchedule(tx, before.row.orgId, id, { state: 'DELETED', nextRunAt: null });
    if (library) await updateNotCopiedCopies(tx, id, { state: 'DELETED' });
    await scheduleAudit(tx, actor, 'deleted', id, { before: scheduleSnapshot(before.row) });
  });
}

/**
 * "Copy to my organisation": a NOT_COPIED library schedule becomes the organisation's ACTIVE
 * schedule with its own recipients, building the organisation's copy of the library template (made
 * now, with copies of its charts, unless the organisation holds a copy already). 409
 * REPORT_SCHEDULE_STATE_INVALID for a schedule in another state.
 */
export async function activateSchedule(
  db: Db,
  actor: Actor,
  id: string,
  input: ReportScheduleActivate,
  now = new Date(),
) {
  const { access } = actor;
  const orgId = access.org.id;
  const before = await findSchedule(db, orgId, id);
  if (!before) throw scheduleNotFound();
  if (before.row.state !== 'NOT_COPIED') {
    throw conflict('REPORT_SCHEDULE_STATE_INVALID', `A ${before.row.state} schedule cannot become ACTIVE`, {
      params: { from: before.row.state, to: 'ACTIVE' },
    });
  }
  const library = await findTemplate(db, null, before.row.templateId);
  if (!library) throw validationFailed('REPORT_TEMPLATE_NOT_FOUND', 'Report template not found');
  await db.transaction(async (tx) => {
    let template = await findTemplateCopy(tx, orgId, library.row.id);
    if (!template) {
      const copies = await copyChartsInto(tx, library.row.chartIds, orgId, access.user.id);
      const chartIds = library.row.chartIds.filter((chartId) => copies.has(chartId));
      if (chartIds.length === 0) {
        throw validationFailed('REPORT_TEMPLATE_NEEDS_CHART', 'A template needs at least one chart');
      }
      template = await insertTemplate(tx, orgId, {
        name: library.row.name,
        description: library.row.description,
        chartIds: chartIds.map((chartId) => copies.get(chartId)!),
        createdBy: access.user.id,
        copiedFromId: library.row.id,
      });
      await templateAudit(tx, actor, 'copied', template.id, { fromLibraryId: library.row.id });
    }
    const row = await updateSchedule(
      tx,
      orgId,
      id,
      {
        templateId: template.id,
        recipients: uniqueRecipients(input.recipients),
        state: 'ACTIVE',
        nextRunAt: nextReportRun(before.row.frequency as ParsedSchedule['frequency'], now),
        createdBy: access.user.id,
      },
      // Two admins copying at once: the second finds it ACTIVE already.
      stillNotCopied,
    );
    if (!row) {
      throw conflict('REPORT_SCHEDULE_STATE_INVALID', 'The schedule was copied meanwhile', {
        params: { from: 'ACTIVE', to: 'ACTIVE' },
      });
    }
    await scheduleAudit(tx, actor, 'copied', id, {
      fromLibraryId: before.row.copiedFromId,
      after: scheduleSnapshot(row),
    });
  });
  return getSchedule(db, orgId, id);
}

/**
 * Copies the live library schedules an organisation holds no copy of into it as NOT_COPIED rows, in
 * the caller's transaction: they never run until the organisation activates them.
 */
export async function copyLibrarySchedulesInto(
  tx: Db,
  actor: Actor,
  org: { id: string },
): Promise<CopyCount> {
  const library = await liveLibrarySchedules(tx);
  return copyMissing(library, await copiedScheduleIds(tx, org.id), async (schedule) => {
    const row = await insertSchedule(tx, {
      orgId: org.id,
      library: false,
      copiedFromId: schedule.id,
      templateId: schedule.templateId,
      range: schedule.range,
      frequency: schedule.frequency,
      recipients: [],
      state: 'NOT_COPIED',
      nextRunAt: null,
      createdBy: actor.access.user.id,
    });
    await scheduleAudit(tx, actor, 'library-offered', row.id, { fromLibraryId: schedule.id }, org.id);
  });
}

/** Copies the library schedules to every customer organisation, skipping those already copied. */
export async function copyScheduleLibraryToCustomers(db: Db, actor: Actor): Promise<ReportLibraryCopyResult> {
  return copyToEveryCustomer(db, actor, scheduleAudit, (tx, org) => copyLibrarySchedulesInto(tx, actor, org));
}

/**
 * Starts the report of every schedule that is due, each in its own transaction, and moves the
 * schedule to its next run; then starts over builds cut short by a stop and queues again reports
 * whose build job was lost (or never sent: the demo data's). A report queued twice is built once.
 */
export async function runDueSchedules(db: Db, queue: QueueBuild, now = new Date()): Promise<number> {
  let started = 0;
  for (;;) {
    const reportId = await db.transaction(async (tx) => {
      const schedule = await claimDueSchedule(tx, now);
      if (!schedule) return null;
      const template = await findTemplate(tx, schedule.orgId, schedule.templateId);
      const report = await addReport(
        tx,
        template!.row,
        schedule.orgId!,
        schedule.range as ReportRange,
        schedule.createdBy,
        schedule.id,
        now,
      );
      await setScheduleRun(tx, schedule.id, {
        lastRunAt: now,
        lastRunState: 'PENDING',
        nextRunAt: nextReportRun(schedule.frequency as ParsedSchedule['frequency'], now),
      });
      return report.id;
    });
    if (!reportId) break;
    await queue(reportId);
    started++;
  }
  const stuckBefore = new Date(now.getTime() - BUILD_EXPIRE_SECONDS * 1000);
  for (const { id } of await staleReports(db, ['WAITING_FOR_DATA', 'BUILDING'], stuckBefore)) {
    await moveReport(db, id, ['WAITING_FOR_DATA', 'BUILDING'], { state: 'REQUESTED' });
  }
  for (const { id } of await staleReports(db, ['REQUESTED'], new Date(now.getTime() - LOST_JOB_AFTER_MS))) {
    await queue(id);
  }
  return started;
}

/** The build job and the schedule tick (every minute). */
export function defineReportJobs(jobs: JobRunner, db: Db, sendMail: SendMail) {
  jobs.define<{ reportId: string }>({
    name: REPORT_BUILD_JOB,
    retry: { retryLimit: 2, retryDelay: 30 },
    expireInSeconds: BUILD_EXPIRE_SECONDS,
    handler: async ({ reportId }) => buildReport(db, reportId, { sendMail, log: jobs.logger }),
  });
  jobs.define({
    name: REPORT_SCHEDULE_TICK_JOB,
    cron: '* * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 600,
    handler: async () => void (await runDueSchedules(db, queueOn(jobs))),
  });
}
