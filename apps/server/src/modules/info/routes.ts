import {
  infoNoteInputSchema,
  infoNoteSchema,
  orgInfoMetadataInputSchema,
  orgInfoMetadataSchema,
  sortInfoNotes,
  type InfoNote,
} from '@vigil/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type RouteAccess } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { users } from '../users/tables';
import { infoNotes, orgInfo } from './tables';

const tags = ['info panel'];
/** The panel is provider staff's, where the organisation has the infoPanel feature. */
const panelAccess: RouteAccess = {
  permission: ['TRAC_ADMIN', 'TRAC_ENGINEER', 'TRAC_USER'],
  feature: 'infoPanel',
};
const noteParams = orgParamsSchema.extend({ id: z.uuid() });

async function loadNotes(db: Db, orgId: string, id?: string): Promise<InfoNote[]> {
  const rows = await db
    .select({
      id: infoNotes.id,
      noteText: infoNotes.noteText,
      pinned: infoNotes.pinned,
      createdBy: infoNotes.createdBy,
      createdByName: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
      modifiedOn: infoNotes.modifiedOn,
    })
    .from(infoNotes)
    .innerJoin(users, eq(users.id, infoNotes.createdBy))
    .where(and(eq(infoNotes.orgId, orgId), id ? eq(infoNotes.id, id) : undefined));
  return sortInfoNotes(rows.map((row) => ({ ...row, modifiedOn: row.modifiedOn.toISOString() })));
}

async function loadNote(db: Db, orgId: string, id: string): Promise<InfoNote> {
  const [note] = await loadNotes(db, orgId, id);
  if (!note) throw notFound('note');
  return note;
}

export const infoRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/info/metadata',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Title and threat level of the organisation',
          description: 'Until first edited: the organisation name and All Clear (FOUR).',
          params: orgParamsSchema,
          response: { 200: orgInfoMetadataSchema },
        },
      },
      async (request) => {
        const { org } = accessOf(request);
        const [row] = await db.select().from(orgInfo).where(eq(orgInfo.orgId, org.id));
        return { orgId: org.id, title: row?.title ?? org.name, threatLevel: row?.threatLevel ?? 'FOUR' };
      },
    );

    app.put(
      '/api/org/:orgId/info/metadata',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Change the title and threat level',
          description: 'Title: required, trimmed, at most 100 characters.',
          params: orgParamsSchema,
          body: orgInfoMetadataInputSchema,
          response: { 200: orgInfoMetadataSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const values = { ...request.body, updatedBy: access.user.id, updatedAt: new Date() };
        const [before] = await db.select().from(orgInfo).where(eq(orgInfo.orgId, access.org.id));
        await db
          .insert(orgInfo)
          .values({ orgId: access.org.id, ...values })
          .onConflictDoUpdate({ target: orgInfo.orgId, set: values });
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'org.info_changed',
          details: {
            before: before ? { title: before.title, threatLevel: before.threatLevel } : null,
            after: request.body,
          },
          ip: request.ip,
        });
        return { orgId: access.org.id, ...request.body };
      },
    );

    app.get(
      '/api/org/:orgId/info/notes',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Notes about the organisation',
          description: 'Pinned first, then the most recently changed.',
          params: orgParamsSchema,
          response: { 200: z.array(infoNoteSchema) },
        },
      },
      async (request) => loadNotes(db, accessOf(request).org.id),
    );

    app.post(
      '/api/org/:orgId/info/notes',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Add a note',
          description: 'Text is trimmed and required.',
          params: orgParamsSchema,
          body: infoNoteInputSchema,
          response: { 201: infoNoteSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const [row] = await db
          .insert(infoNotes)
          .values({ orgId: access.org.id, createdBy: access.user.id, ...request.body })
          .returning({ id: infoNotes.id });
        return reply.status(201).send(await loadNote(db, access.org.id, row!.id));
      },
    );

    app.put(
      '/api/org/:orgId/info/notes/:id',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Edit a note',
          description: 'Only its author may change its text.',
          params: noteParams,
          body: infoNoteInputSchema.pick({ noteText: true }),
          response: { 200: infoNoteSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const note = await loadNote(db, access.org.id, request.params.id);
        if (note.createdBy !== access.user.id)
          throw accessDenied('PERMISSION_DENIED', 'Only the author edits a note');
        await db
          .update(infoNotes)
          .set({ noteText: request.body.noteText, modifiedOn: new Date() })
          .where(and(eq(infoNotes.orgId, access.org.id), eq(infoNotes.id, note.id)));
        return loadNote(db, access.org.id, note.id);
      },
    );

    app.put(
      '/api/org/:orgId/info/notes/:id/pin',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Pin or unpin a note',
          description: 'Pinned notes sit at the top.',
          params: noteParams,
          body: z.object({ pinned: z.boolean() }),
          response: { 200: infoNoteSchema },
        },
      },
      async (request) => {
        const { org } = accessOf(request);
        const updated = await db
          .update(infoNotes)
          .set({ pinned: request.body.pinned, modifiedOn: new Date() })
          .where(and(eq(infoNotes.orgId, org.id), eq(infoNotes.id, request.params.id)))
          .returning({ id: infoNotes.id });
        if (updated.length === 0) throw notFound('note');
        return loadNote(db, org.id, request.params.id);
      },
    );

    app.delete(
      '/api/org/:orgId/info/notes/:id',
      {
        config: { access: panelAccess },
        schema: {
          tags,
          summary: 'Delete a note',
          description: 'Open to every user of the panel.',
          params: noteParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const deleted = await db
          .delete(infoNotes)
          .where(and(eq(infoNotes.orgId, access.org.id), eq(infoNotes.id, request.params.id)))
          .returning({ noteText: infoNotes.noteText });
        if (deleted.length === 0) throw notFound('note');
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'org.info_note_deleted',
          targetType: 'info_note',
          targetId: request.params.id,
          details: { before: deleted[0] },
          ip: request.ip,
        });
        return reply.status(204).send(null);
      },
    );
  };
