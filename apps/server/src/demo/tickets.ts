import { TICKET_SEARCH_EVENTS_KEPT, type TicketKind, type TicketState } from '@vigil/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alerts } from '../modules/alerts/tables';
import { searchEvents } from '../modules/events/service';
import { activityNotes } from '../modules/metadata/tables';
import { ticketDrafts, ticketSearches, ticketTemplates } from '../modules/tickets/tables';
import {
  insertComment,
  insertFile,
  insertHistory,
  insertLink,
  insertTicket,
  replaceWatchers,
  type TicketRow,
} from '../modules/tickets/repo';

const HOUR = 3_600_000;

interface DemoTicket {
  key: string;
  kind: TicketKind;
  title: string;
  description: string;
  state: TicketState;
  owner?: 'analyst' | 'admin';
  watchers?: ('analyst' | 'admin')[];
  resolution?: string;
  summaryNote?: string;
  externalId?: string;
  /** Hours from now; negative is in the past. */
  dueInHours?: number;
  slaInHours?: number;
  hoursAgo: number;
  parent?: string;
  links?: string[];
  comments?: { by: 'analyst' | 'admin'; body: string }[];
  /** Attached by the owner (or the analyst) an hour after creation. */
  files?: { name: string; contentType: string; content: string }[];
}

const HARBOR_TICKETS: DemoTicket[] = [
  {
    key: 'travel',
    kind: 'incident',
    title: 'Impossible travel: jmartin',
    description:
      'jmartin signed in from Denver and Singapore within two hours. Escalated from the alert inbox.',
    state: 'ANALYSIS',
    owner: 'analyst',
    watchers: ['admin'],
    slaInHours: 6,
    dueInHours: 24,
    hoursAgo: 29,
    comments: [
      { by: 'analyst', body: 'The Singapore session used a residential proxy. Asked jmartin to confirm.' },
      { by: 'admin', body: 'Keep the account locked until he calls the service desk.' },
    ],
    files: [
      {
        name: 'jmartin-sign-ins.csv',
        contentType: 'text/csv',
        content:
          'time,user,city,ip,result\n' +
          '2026-03-01T07:58:12Z,jmartin,Denver,198.51.100.23,success\n' +
          '2026-03-01T09:41:03Z,jmartin,Singapore,203.0.113.77,success\n',
      },
      {
        name: 'proxy-lookup.txt',
        contentType: 'text/plain',
        content: '203.0.113.77: residential proxy network, listed since 2025-11.\n',
      },
    ],
  },
  {
    key: 'phishing',
    kind: 'incident',
    title: 'Phishing campaign against tellers',
    description:
      'Several tellers reported e-mails from a look-alike domain asking to confirm their passwords.',
    state: 'TRIAGE',
    slaInHours: 4,
    hoursAgo: 2,
    watchers: ['admin'],
  },
  {
    key: 'wires',
    kind: 'incident',
    title: 'Unusual wire transfers from a dormant account',
    description: 'Three outgoing wires above 10,000 USD from an account without activity for a year.',
    state: 'REMEDIATION',
    owner: 'admin',
    slaInHours: 2,
    externalId: 'FRD-2291',
    summaryNote: 'Account frozen; the customer is being contacted through the branch.',
    hoursAgo: 50,
  },
  {
    key: 'malware',
    kind: 'incident',
    title: 'Malware on teller-07',
    description: 'Endpoint protection quarantined a trojan on teller-07.',
    state: 'RESOLVED',
    owner: 'analyst',
    resolution: 'Workstation reimaged; no lateral movement found.',
    hoursAgo: 120,
  },
  {
    key: 'scan',
    kind: 'incident',
    title: 'Port scan from a partner network',
    description: 'A partner range scanned the DMZ during their maintenance window.',
    state: 'CLOSED',
    owner: 'analyst',
    resolution: 'Announced by the partner; no action needed.',
    hoursAgo: 240,
  },
  {
    key: 'duplicate',
    kind: 'incident',
    title: 'Failed logins on svc_backup',
    description: 'Raised twice for the same expired service password.',
    state: 'INVALID',
    hoursAgo: 200,
    links: ['travel'],
  },
  {
    key: 'reset',
    kind: 'task',
    title: "Reset jmartin's credentials and tokens",
    description: 'Reset the password, revoke sessions and re-enrol the security key.',
    state: 'OPEN',
    owner: 'analyst',
    dueInHours: 8,
    hoursAgo: 28,
    parent: 'travel',
  },
  {
    key: 'block',
    kind: 'task',
    title: 'Block the look-alike domain at the mail gateway',
    description: '',
    state: 'OPEN',
    dueInHours: 12,
    hoursAgo: 1,
    parent: 'phishing',
  },
  {
    key: 'review',
    kind: 'task',
    title: 'Quarterly review of privileged accounts',
    description: 'Confirm every domain administrator still needs the role.',
    state: 'CLOSED',
    owner: 'admin',
    hoursAgo: 300,
  },
];

const PRAIRIE_TICKETS: DemoTicket[] = [
  {
    key: 'atm',
    kind: 'incident',
    title: 'ATM skimming reported at the Main Street branch',
    description: 'A customer reported a loose card reader.',
    state: 'TRIAGE',
    slaInHours: 8,
    hoursAgo: 5,
  },
  {
    key: 'patch',
    kind: 'task',
    title: 'Patch the core banking web servers',
    description: '',
    state: 'OPEN',
    dueInHours: 72,
    hoursAgo: 10,
  },
];

async function seedTickets(
  db: Db,
  orgId: string,
  people: Record<'analyst' | 'admin', string>,
  demo: DemoTicket[],
): Promise<Map<string, TicketRow>> {
  const now = Date.now();
  const rows = new Map<string, TicketRow>();
  for (const ticket of demo) {
    const createdOn = new Date(now - ticket.hoursAgo * HOUR);
    const at = (hours: number | undefined) => (hours === undefined ? null : new Date(now + hours * HOUR));
    const row = await insertTicket(db, orgId, ticket.kind, {
      title: ticket.title,
      description: ticket.description,
      state: ticket.state,
      ownerId: ticket.owner ? people[ticket.owner] : null,
      resolution: ticket.resolution ?? null,
      summaryNote: ticket.summaryNote ?? '',
      externalId: ticket.externalId ?? null,
      dueDate: at(ticket.dueInHours),
      slaDate: at(ticket.slaInHours),
      parentId: ticket.parent ? rows.get(ticket.parent)!.id : null,
      createdBy: people.analyst,
      createdOn,
      modifiedOn: createdOn,
    });
    rows.set(ticket.key, row);
    await replaceWatchers(
      db,
      row.id,
      (ticket.watchers ?? []).map((who) => people[who]),
    );
    await insertHistory(db, { ticketId: row.id, actorId: people.analyst, action: 'created', at: createdOn });
    if (ticket.state !== (ticket.kind === 'incident' ? 'TRIAGE' : 'OPEN')) {
      await insertHistory(db, {
        ticketId: row.id,
        actorId: ticket.owner ? people[ticket.owner] : people.analyst,
        action: 'state-changed',
        details: { to: ticket.state, resolution: ticket.resolution ?? null },
        at: new Date(createdOn.getTime() + HOUR),
      });
    }
    for (const [index, comment] of (ticket.comments ?? []).entries()) {
      await insertComment(db, {
        ticketId: row.id,
        authorId: people[comment.by],
        body: comment.body,
        createdOn: new Date(createdOn.getTime() + (index + 2) * HOUR),
      });
    }
    const uploader = ticket.owner ? people[ticket.owner] : people.analyst;
    const added = [];
    for (const file of ticket.files ?? []) {
      const content = Buffer.from(file.content);
      added.push(
        await insertFile(db, {
          ticketId: row.id,
          name: file.name,
          contentType: file.contentType,
          size: content.length,
          content,
          createdBy: uploader,
          createdOn: new Date(createdOn.getTime() + HOUR),
        }),
      );
    }
    if (added.length > 0) {
      await insertHistory(db, {
        ticketId: row.id,
        actorId: uploader,
        action: 'file-added',
        details: { files: added },
        at: new Date(createdOn.getTime() + HOUR),
      });
    }
    for (const other of ticket.links ?? []) await insertLink(db, row.id, rows.get(other)!.id, people.analyst);
  }
  return rows;
}

/**
 * The impossible-travel incident's activity log (notes with log types and a reply) and a search of
 * the last week's denied connections, its first events kept with the ticket.
 */
async function seedTravelActivity(
  db: Db,
  harbor: { orgId: string; analystId: string; adminId: string },
  travel: TicketRow,
) {
  const at = (hours: number) => new Date(travel.createdOn.getTime() + hours * HOUR);
  const target = { orgId: harbor.orgId, objectType: 'incident', objectId: travel.id };
  const [first] = await db
    .insert(activityNotes)
    .values({
      ...target,
      logType: 'INVESTIGATION',
      body: 'Both sessions used a valid second factor: the phone may be compromised too.',
      authorId: harbor.analystId,
      createdOn: at(2),
    })
    .returning();
  await db.insert(activityNotes).values([
    {
      ...target,
      parentId: first!.id,
      logType: 'NOTE',
      body: 'Ask the service desk to re-enrol his authenticator when he calls.',
      authorId: harbor.adminId,
      createdOn: at(3),
    },
    {
      ...target,
      logType: 'COMMUNICATION',
      body: 'Left a voicemail for jmartin and e-mailed his manager.',
      authorId: harbor.analystId,
      createdOn: at(4),
    },
  ]);
  const found = await searchEvents(
    db,
    { orgId: harbor.orgId, userId: harbor.analystId },
    {
      query: 'deny',
      intervalType: '7D',
      filters: [],
      sortField: 'timestamp',
      sortOrder: 'desc',
      pageSize: TICKET_SEARCH_EVENTS_KEPT,
      pageNumber: 1,
    },
  );
  await db.insert(ticketSearches).values({
    ticketId: travel.id,
    query: 'deny',
    begin: new Date(found.begin),
    end: new Date(found.end),
    total: found.total,
    events: found.items as unknown as Record<string, unknown>[],
    createdBy: harbor.analystId,
    createdOn: at(2),
  });
}

/**
 * Incidents in every state and tasks (some subtasks of incidents) for First Harbor Bank, with owners,
 * watchers, comments, files and history, an activity log and a saved search on the impossible-travel
 * incident, a draft, and a phishing ticket template; its escalated demo alerts belong to the impossible-travel incident.
 * Prairie Credit Union gets an incident and a task of its own.
 */
export async function seedTicketsDemo(
  db: Db,
  harbor: { orgId: string; analystId: string; adminId: string },
  prairie: { orgId: string; analystId: string; adminId: string },
) {
  const harborTickets = await seedTickets(
    db,
    harbor.orgId,
    { analyst: harbor.analystId, admin: harbor.adminId },
    HARBOR_TICKETS,
  );
  await seedTickets(
    db,
    prairie.orgId,
    { analyst: prairie.analystId, admin: prairie.adminId },
    PRAIRIE_TICKETS,
  );
  await db.insert(ticketTemplates).values({
    orgId: harbor.orgId,
    name: 'Phishing report',
    title: 'Phishing e-mail reported',
    description: 'Who reported it, when it arrived, the sender and any links or attachments.',
    tasks: [
      { title: 'Block the sender and links at the mail gateway', description: '' },
      { title: 'Find and remove the message from every mailbox', description: '' },
      { title: 'Reset the passwords of anyone who clicked', description: 'Check the sign-in log first.' },
    ],
    watcherIds: [harbor.adminId],
    createdBy: harbor.adminId,
  });
  const travel = harborTickets.get('travel')!;
  await seedTravelActivity(db, harbor, travel);
  await db.insert(ticketDrafts).values({
    orgId: harbor.orgId,
    kind: 'incident',
    title: 'Card skimmer found at the Main Street ATM',
    description:
      'Branch staff found a skimmer this morning. Waiting for the camera footage before opening it.',
    createdBy: harbor.analystId,
  });
  const escalated = await db
    .update(alerts)
    .set({ ticketId: travel.id })
    .where(and(eq(alerts.orgId, harbor.orgId), eq(alerts.state, 'ESCALATED'), isNull(alerts.ticketId)))
    .returning({ id: alerts.id });
  if (escalated.length > 0) {
    await insertHistory(db, {
      ticketId: travel.id,
      actorId: harbor.analystId,
      action: 'alerts-escalated',
      details: { alertIds: escalated.map((alert) => alert.id) },
      at: new Date(travel.createdOn.getTime() + 60_000),
    });
  }
}
