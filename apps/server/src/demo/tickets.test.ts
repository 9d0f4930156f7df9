import { INCIDENT_STATES } from '@vigil/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { alerts } from '../modules/alerts/tables';
import { insertTicket } from '../modules/tickets/repo';
import { checkedContentType } from '../modules/tickets/file-types';
import { activityNotes } from '../modules/metadata/tables';
import {
  ticketComments,
  ticketDrafts,
  ticketFiles,
  tickets,
  ticketSearches,
  ticketTemplates,
} from '../modules/tickets/tables';
import { seedTicketsDemo } from './tickets';

let database: Database;
let harborOrgId: string;
let prairieOrgId: string;
let escalatedId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  harborOrgId = (await seedOrg(db)).id;
  prairieOrgId = (await seedOrg(db)).id;
  const people = async (orgId: string) => ({
    orgId,
    analystId: (await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_EDIT'] })).id,
    adminId: (await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_EDIT'] })).id,
  });
  const [alert] = await db
    .insert(alerts)
    .values({
      orgId: harborOrgId,
      kind: 'TRIGGER',
      title: 'Impossible travel',
      severity: 'HIGH',
      state: 'ESCALATED',
    })
    .returning();
  escalatedId = alert!.id;
  await seedTicketsDemo(db, await people(harborOrgId), await people(prairieOrgId));
});
afterAll(() => database.close());

describe('demo tickets', () => {
  it('give First Harbor incidents in every state, tasks and subtasks, with comments', async () => {
    const db = database.db;
    const rows = await db.select().from(tickets).where(eq(tickets.orgId, harborOrgId));
    const incidents = rows.filter((row) => row.kind === 'incident');
    expect(new Set(incidents.map((row) => row.state))).toEqual(new Set(INCIDENT_STATES));
    expect(incidents.map((row) => row.slug).sort()).toEqual([
      'INC-1',
      'INC-2',
      'INC-3',
      'INC-4',
      'INC-5',
      'INC-6',
    ]);
    expect(incidents.filter((row) => row.state === 'RESOLVED').every((row) => row.resolution)).toBe(true);
    const travel = incidents.find((row) => row.slug === 'INC-1')!;
    const subtask = rows.find((row) => row.slug === 'TASK-1')!;
    expect(subtask.parentId).toBe(travel.id);
    expect(await db.select().from(ticketComments).where(eq(ticketComments.ticketId, travel.id))).toHaveLength(
      2,
    );
    const [alert] = await db.select().from(alerts).where(eq(alerts.id, escalatedId));
    expect(alert!.ticketId).toBe(travel.id);
  });

  it('attach files to the impossible-travel incident that pass the upload check', async () => {
    const db = database.db;
    const [travel] = await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.orgId, harborOrgId), eq(tickets.slug, 'INC-1')));
    const files = await db.select().from(ticketFiles).where(eq(ticketFiles.ticketId, travel!.id));
    expect(files.map((file) => file.name).sort()).toEqual(['jmartin-sign-ins.csv', 'proxy-lookup.txt']);
    for (const file of files) {
      expect(checkedContentType(file.name, file.content)).toBe(file.contentType);
      expect(file.size).toBe(file.content.length);
    }
  });

  it('give First Harbor a ticket template with tasks', async () => {
    const templates = await database.db
      .select()
      .from(ticketTemplates)
      .where(eq(ticketTemplates.orgId, harborOrgId));
    expect(templates.map((template) => [template.name, template.tasks.length])).toEqual([
      ['Phishing report', 3],
    ]);
  });

  it('leave the slug counters where new tickets continue', async () => {
    const db = database.db;
    const next = await insertTicket(db, harborOrgId, 'incident', { title: 'Next', state: 'TRIAGE' });
    expect(next.slug).toBe('INC-7');
    const prairie = await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.orgId, prairieOrgId), eq(tickets.kind, 'incident')));
    expect(prairie.map((row) => row.slug)).toEqual(['INC-1']);
  });

  it('give the impossible-travel incident notes with a reply and a search, and First Harbor a draft', async () => {
    const db = database.db;
    const [travel] = await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.orgId, harborOrgId), eq(tickets.slug, 'INC-1')));
    const notes = await db.select().from(activityNotes).where(eq(activityNotes.objectId, travel!.id));
    const top = notes.filter((note) => !note.parentId);
    expect(top.map((note) => note.logType).sort()).toEqual(['COMMUNICATION', 'INVESTIGATION']);
    expect(notes.filter((note) => note.parentId).map((note) => note.parentId)).toEqual([
      top.find((note) => note.logType === 'INVESTIGATION')!.id,
    ]);
    expect(notes.every((note) => note.orgId === harborOrgId && note.objectType === 'incident')).toBe(true);
    const searches = await db.select().from(ticketSearches).where(eq(ticketSearches.ticketId, travel!.id));
    expect(searches.map((search) => search.query)).toEqual(['deny']);
    const drafts = await db.select().from(ticketDrafts).where(eq(ticketDrafts.orgId, harborOrgId));
    expect(drafts.map((draft) => draft.kind)).toEqual(['incident']);
  });
});
