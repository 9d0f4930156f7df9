import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobDescriptors, userJobDescriptors, users } from './tables';

export type JobDescriptorRow = typeof jobDescriptors.$inferSelect;

/** The organisation's job descriptors by name, each with how many of its people hold it. */
export async function listJobDescriptors(db: Db, orgId: string) {
  return db
    .select({
      id: jobDescriptors.id,
      name: jobDescriptors.name,
      userCount: sql<number>`(select count(*)::int from ${userJobDescriptors} ujd join ${users} u on u.id = ujd.user_id where ujd.job_descriptor_id = job_descriptors.id and u.deleted_at is null)`,
    })
    .from(jobDescriptors)
    .where(eq(jobDescriptors.orgId, orgId))
    .orderBy(sql`lower(${jobDescriptors.name})`, asc(jobDescriptors.id));
}

export async function findJobDescriptor(db: Db, orgId: string, id: string): Promise<JobDescriptorRow | null> {
  const [row] = await db
    .select()
    .from(jobDescriptors)
    .where(and(eq(jobDescriptors.orgId, orgId), eq(jobDescriptors.id, id)))
    .limit(1);
  return row ?? null;
}

/** Another job descriptor of the organisation with this name, compared case-insensitively. */
export async function findJobDescriptorByName(db: Db, orgId: string, name: string) {
  const [row] = await db
    .select({ id: jobDescriptors.id })
    .from(jobDescriptors)
    .where(and(eq(jobDescriptors.orgId, orgId), sql`lower(${jobDescriptors.name}) = ${name.toLowerCase()}`))
    .limit(1);
  return row?.id ?? null;
}

export async function insertJobDescriptor(db: Db, orgId: string, name: string) {
  const [row] = await db.insert(jobDescriptors).values({ orgId, name }).returning();
  return row!;
}

export async function renameJobDescriptor(db: Db, orgId: string, id: string, name: string) {
  await db
    .update(jobDescriptors)
    .set({ name })
    .where(and(eq(jobDescriptors.orgId, orgId), eq(jobDescriptors.id, id)));
}

/** Deleting a job descriptor takes it from its holders (the link rows cascade). */
export async function deleteJobDescriptor(db: Db, orgId: string, id: string) {
  await db.delete(jobDescriptors).where(and(eq(jobDescriptors.orgId, orgId), eq(jobDescriptors.id, id)));
}

/** Of `ids`, those that are not job descriptors of the organisation. */
export async function unknownJobDescriptorIds(db: Db, orgId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: jobDescriptors.id })
    .from(jobDescriptors)
    .where(and(eq(jobDescriptors.orgId, orgId), inArray(jobDescriptors.id, ids)));
  const known = new Set(found.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

export async function setUserJobDescriptors(db: Db, userId: string, ids: string[]) {
  await db.delete(userJobDescriptors).where(eq(userJobDescriptors.userId, userId));
  if (ids.length > 0) {
    await db
      .insert(userJobDescriptors)
      .values([...new Set(ids)].map((jobDescriptorId) => ({ userId, jobDescriptorId })));
  }
}
