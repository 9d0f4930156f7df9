import type { Db } from '../../db/client';
import { activityLog } from './tables';

export interface AuditEntry {
  orgId?: string | null;
  actorUserId?: string | null;
  /** Dotted verb, e.g. `user.login`, `org.created`. */
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  ip?: string;
}

/** Writes one activity-log row; pass the transaction when the action itself is in one. */
export async function recordActivity(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(activityLog).values({
    orgId: entry.orgId ?? null,
    actorUserId: entry.actorUserId ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details ?? {},
    ip: entry.ip,
  });
}
