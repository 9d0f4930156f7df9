import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  classifyThreatSubject,
  THREAT_RATINGS,
  type ThreatRating,
  type ThreatRatingValue,
  type ThreatSubject,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, validationFailed } from '../../platform/errors';
import type { Actor } from './sources';
import { threatRatings } from './tables';

type RatingRow = typeof threatRatings.$inferSelect;

const isRating = (value: string): value is ThreatRatingValue =>
  (THREAT_RATINGS as readonly string[]).includes(value);

const whereSubject = (orgId: string, subject: ThreatSubject) =>
  and(
    eq(threatRatings.orgId, orgId),
    eq(threatRatings.subjectType, subject.type),
    eq(sql`lower(${threatRatings.subject})`, subject.subject.toLowerCase()),
  );

function toJson(subject: ThreatSubject, row: RatingRow | undefined): ThreatRating {
  return {
    subject: subject.subject,
    subjectType: subject.type,
    signatureType: subject.signatureType,
    rating: row ? (row.rating as ThreatRatingValue) : null,
    ratedAt: row?.ratedAt.toISOString() ?? null,
    ignored: row?.ignored ?? false,
    ignoreUntil: row?.ignoreUntil?.toISOString() ?? null,
  };
}

/** The ratings of up to THREAT_RATING_LOOKUP_MAX subjects, in the order asked; unrated ones with rating null. */
export async function lookupThreatRatings(db: Db, orgId: string, values: string[]): Promise<ThreatRating[]> {
  const subjects = values.map(classifyThreatSubject);
  const keys = [...new Set(subjects.map((subject) => subject.subject.toLowerCase()))];
  const rows = await db
    .select()
    .from(threatRatings)
    .where(and(eq(threatRatings.orgId, orgId), inArray(sql`lower(${threatRatings.subject})`, keys)));
  const byKey = new Map(rows.map((row) => [`${row.subjectType} ${row.subject.toLowerCase()}`, row]));
  return subjects.map((subject) =>
    toJson(subject, byKey.get(`${subject.type} ${subject.subject.toLowerCase()}`)),
  );
}

export interface RateInput {
  subject: string;
  rating: string;
  /** Harmless-and-exclude: ignored until a time, or forever when `until` is null. */
  ignore?: { until: string | null };
}

/**
 * Rates a host or a signature (spec 1 and 2): HIGH, MEDIUM, LOW or HARMLESS, the last optionally
 * ignored until a time or forever. A bad rating answers 400 with the spec's key for the subject
 * type and the valid values.
 */
export async function rateThreat(db: Db, actor: Actor, input: RateInput): Promise<ThreatRating> {
  const { access } = actor;
  const subject = classifyThreatSubject(input.subject);
  const key = subject.type === 'SIGNATURE' ? 'ERROR_RATING_THREAT_SIGNATURE' : 'ERROR_RATING_THREAT_HOST';
  if (!isRating(input.rating)) {
    throw validationFailed(key, `${input.rating} is not a threat rating`, {
      field: 'rating',
      params: { value: input.rating },
      validValues: [...THREAT_RATINGS],
    });
  }
  if (input.ignore && input.rating !== 'HARMLESS') {
    throw validationFailed('THREAT_RATING_IGNORE_NOT_HARMLESS', 'Only a harmless rating can be ignored', {
      field: 'ignore',
    });
  }
  const values = {
    signatureType: subject.signatureType,
    rating: input.rating,
    ratedAt: new Date(),
    ratedBy: access.user.id,
    ignored: Boolean(input.ignore),
    ignoreUntil: input.ignore?.until ? new Date(input.ignore.until) : null,
  };
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(threatRatings).where(whereSubject(access.org.id, subject));
    const [row] = before
      ? await tx.update(threatRatings).set(values).where(eq(threatRatings.id, before.id)).returning()
      : await tx
          .insert(threatRatings)
          .values({ orgId: access.org.id, subjectType: subject.type, subject: subject.subject, ...values })
          .returning();
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'threat-rating.set',
      targetType: 'threat-rating',
      targetId: row!.id,
      details: {
        subject: subject.subject,
        subjectType: subject.type,
        before: before ? { rating: before.rating, ignored: before.ignored } : null,
        after: { rating: row!.rating, ignored: row!.ignored, ignoreUntil: row!.ignoreUntil },
      },
      ip: actor.ip,
    });
    return toJson(subject, row);
  });
}

/** Clears a rating; 404 with the spec's key when the subject is not rated. */
export async function clearThreatRating(db: Db, actor: Actor, value: string): Promise<void> {
  const { access } = actor;
  const subject = classifyThreatSubject(value);
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(threatRatings).where(whereSubject(access.org.id, subject)).returning();
    if (!row) {
      throw new AppError(
        'NotFoundException',
        subject.type === 'SIGNATURE' ? 'ERROR_UNRATING_THREAT_SIGNATURE' : 'ERROR_UNRATING_THREAT_HOST',
        `${subject.subject} is not rated`,
        { params: { subject: subject.subject } },
      );
    }
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'threat-rating.cleared',
      targetType: 'threat-rating',
      targetId: row.id,
      details: { subject: subject.subject, subjectType: subject.type, before: { rating: row.rating } },
      ip: actor.ip,
    });
  });
}
