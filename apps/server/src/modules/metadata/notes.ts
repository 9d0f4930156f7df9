import {
  activityNoteInputSchema,
  type ActivityLogType,
  type ActivityNote,
  type ActivityNoteInput,
  type ActivityReply,
} from '@vigil/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { validationFailed } from '../../platform/errors';
import { users } from '../users/tables';
import { activityNotes } from './tables';

/** The object a note is kept on: its type (incident, task, ...) and id, within one organisation. */
export interface NoteTarget {
  orgId: string;
  objectType: string;
  objectId: string;
}

type NoteRow = typeof activityNotes.$inferSelect;

const toReply = (row: NoteRow, authorName: string | null): ActivityReply => ({
  id: row.id,
  parentId: row.parentId,
  logType: row.logType as ActivityLogType,
  body: row.body,
  authorId: row.authorId,
  authorName,
  createdOn: row.createdOn.toISOString(),
});

/** The object's timeline: top-level notes, newest first, each with its replies oldest first. */
export async function listNotes(db: Db, target: NoteTarget): Promise<ActivityNote[]> {
  const rows = await db
    .select({
      row: activityNotes,
      authorName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(activityNotes)
    .leftJoin(users, eq(users.id, activityNotes.authorId))
    .where(
      and(
        eq(activityNotes.orgId, target.orgId),
        eq(activityNotes.objectType, target.objectType),
        eq(activityNotes.objectId, target.objectId),
      ),
    )
    .orderBy(asc(activityNotes.createdOn), asc(activityNotes.id));
  const notes = new Map<string, ActivityNote>();
  for (const { row, authorName } of rows) {
    if (!row.parentId) notes.set(row.id, { ...toReply(row, authorName), replies: [] });
  }
  for (const { row, authorName } of rows) {
    if (row.parentId) notes.get(row.parentId)?.replies.push(toReply(row, authorName));
  }
  return [...notes.values()].reverse();
}

/**
 * Adds a note to the object's timeline in the caller's transaction, with an audit row. A reply names
 * a top-level note of the same object (400 ACTIVITY_NOTE_INVALID_PARENT); a reply to a reply is
 * refused (400 ACTIVITY_NOTE_REPLY_TO_REPLY).
 */
export async function addNote(
  tx: Db,
  target: NoteTarget,
  author: { userId: string; ip?: string },
  input: ActivityNoteInput,
): Promise<NoteRow> {
  const values = activityNoteInputSchema.parse(input);
  if (values.parentId) {
    const [parent] = await tx
      .select()
      .from(activityNotes)
      .where(
        and(
          eq(activityNotes.orgId, target.orgId),
          eq(activityNotes.objectType, target.objectType),
          eq(activityNotes.objectId, target.objectId),
          eq(activityNotes.id, values.parentId),
        ),
      );
    if (!parent) {
      throw validationFailed(
        'ACTIVITY_NOTE_INVALID_PARENT',
        'The note replied to is not a note of this object',
        {
          field: 'parentId',
        },
      );
    }
    if (parent.parentId) {
      throw validationFailed('ACTIVITY_NOTE_REPLY_TO_REPLY', 'Replies answer a top-level note', {
        field: 'parentId',
      });
    }
  }
  const [row] = await tx
    .insert(activityNotes)
    .values({
      ...target,
      parentId: values.parentId,
      logType: values.logType,
      body: values.body,
      authorId: author.userId,
    })
    .returning();
  await recordActivity(tx, {
    orgId: target.orgId,
    actorUserId: author.userId,
    action: values.parentId ? 'activity-note.replied' : 'activity-note.added',
    targetType: target.objectType,
    targetId: target.objectId,
    details: { noteId: row!.id, parentId: values.parentId, logType: values.logType },
    ip: author.ip,
  });
  return row!;
}
