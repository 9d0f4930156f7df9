import { eq, sql } from 'drizzle-orm';
import type { AlertState } from '@vigil/contracts';
import type { Db } from '../db/client';
import { rowsOf } from '../modules/events/repo';
import { alerts, alertStateChanges } from '../modules/alerts/tables';
import { triggers } from '../modules/triggers/tables';

const HOUR = 3_600_000;

interface DemoAlert {
  trigger: string;
  domain: 'security' | 'fraud';
  title: string;
  severity: string;
  state: AlertState;
  hoursAgo: number;
  /** Which demo events the alert points at. */
  events: string;
  reason?: string;
  notes?: string;
  fraudType?: string;
  fraudCertainty?: string;
}

const FAILED_LOGONS = `data_source = 'windows-security' AND fields->>'outcome' = 'failure'`;
const LOGONS = `data_source = 'windows-security' AND fields->>'outcome' = 'success'`;
const WIRES = `data_source = 'core-banking' AND fields->>'transactionType' = 'wire'`;
const PAYMENTS = `data_source = 'core-banking'`;

const DEMO_ALERTS: DemoAlert[] = [
  {
    trigger: 'Brute-force logins',
    domain: 'security',
    title: 'Brute-force logins: 14 failures for jmartin',
    severity: 'HIGH',
    state: 'NEW',
    hoursAgo: 1,
    events: FAILED_LOGONS,
  },
  {
    trigger: 'Brute-force logins',
    domain: 'security',
    title: 'Brute-force logins: 9 failures for svc_backup',
    severity: 'HIGH',
    state: 'NEW',
    hoursAgo: 3,
    events: FAILED_LOGONS,
  },
  {
    trigger: 'Impossible travel',
    domain: 'security',
    title: 'Impossible travel: dlee from Chicago and Lagos within 40 minutes',
    severity: 'CRITICAL',
    state: 'NEW',
    hoursAgo: 2,
    events: LOGONS,
  },
  {
    trigger: 'Brute-force logins',
    domain: 'security',
    title: 'Brute-force logins: 11 failures for dlee',
    severity: 'HIGH',
    state: 'ACKED',
    hoursAgo: 20,
    events: FAILED_LOGONS,
  },
  {
    trigger: 'Impossible travel',
    domain: 'security',
    title: 'Impossible travel: jmartin from Denver and Singapore within 2 hours',
    severity: 'CRITICAL',
    state: 'ESCALATED',
    hoursAgo: 30,
    events: LOGONS,
  },
  {
    trigger: 'Brute-force logins',
    domain: 'security',
    title: 'Brute-force logins: 6 failures for svc_backup',
    severity: 'MEDIUM',
    state: 'DISMISSED',
    hoursAgo: 50,
    events: FAILED_LOGONS,
    reason: 'TRUE_POSITIVE_BENIGN',
    notes: 'Backup job retried with an expired password.',
  },
  {
    trigger: 'Impossible travel',
    domain: 'security',
    title: 'Impossible travel: dlee from Boston and Dublin within 3 hours',
    severity: 'HIGH',
    state: 'DISMISSED',
    hoursAgo: 70,
    events: LOGONS,
    reason: 'OTHER',
    notes: 'Travel approved: VPN exit node in Dublin.',
  },
  {
    trigger: 'Large wire transfer',
    domain: 'fraud',
    title: 'Large wire transfer: 182,400.00 USD to a first-time beneficiary',
    severity: 'HIGH',
    state: 'NEW',
    hoursAgo: 1,
    events: WIRES,
  },
  {
    trigger: 'New payee then transfer',
    domain: 'fraud',
    title: 'New payee then transfer within 10 minutes on ACCT-448120',
    severity: 'HIGH',
    state: 'NEW',
    hoursAgo: 4,
    events: PAYMENTS,
  },
  {
    trigger: 'Large wire transfer',
    domain: 'fraud',
    title: 'Large wire transfer: 96,750.00 USD outside business hours',
    severity: 'MEDIUM',
    state: 'ACKED',
    hoursAgo: 26,
    events: WIRES,
  },
  {
    trigger: 'New payee then transfer',
    domain: 'fraud',
    title: 'New payee then transfer within 4 minutes on ACCT-201977',
    severity: 'CRITICAL',
    state: 'FRAUD_FLAGGED',
    hoursAgo: 40,
    events: PAYMENTS,
    fraudType: 'ACCOUNT_TAKEOVER',
    fraudCertainty: 'CONFIRMED',
  },
  {
    trigger: 'Large wire transfer',
    domain: 'fraud',
    title: 'Large wire transfer: 240,000.00 USD to a mule account',
    severity: 'CRITICAL',
    state: 'FRAUD_FLAGGED',
    hoursAgo: 55,
    events: WIRES,
    fraudType: 'WIRE_FRAUD',
    fraudCertainty: 'SUSPECTED',
  },
  {
    trigger: 'Large wire transfer',
    domain: 'fraud',
    title: 'Large wire transfer: 120,000.00 USD, payroll run',
    severity: 'MEDIUM',
    state: 'DISMISSED',
    hoursAgo: 80,
    events: WIRES,
    reason: 'FALSE_POSITIVE',
  },
];

/**
 * Alerts in every state for First Harbor Bank, on its demo triggers when they exist (else none), each
 * pointing at a few demo events of its kind, with the history of how it reached its state.
 */
export async function seedAlertsDemo(db: Db, harborOrgId: string, analystUserId: string) {
  const known = await db
    .select({ id: triggers.id, name: triggers.name })
    .from(triggers)
    .where(eq(triggers.orgId, harborOrgId));
  const triggerIds = new Map(known.map((row) => [row.name, row.id]));
  const now = Date.now();
  for (const [index, demo] of DEMO_ALERTS.entries()) {
    const firedAt = new Date(now - demo.hoursAgo * HOUR);
    const matched = rowsOf<{ id: string; ts: string }>(
      await db.execute(sql`SELECT id::text AS id, ts FROM events
        WHERE org_id = ${harborOrgId} AND ts <= ${firedAt.toISOString()}::timestamptz AND ${sql.raw(demo.events)}
        ORDER BY ts DESC OFFSET ${index} LIMIT 3`),
    );
    const changedAt = new Date(firedAt.getTime() + HOUR / 2);
    const [row] = await db
      .insert(alerts)
      .values({
        orgId: harborOrgId,
        domain: demo.domain,
        kind: 'TRIGGER',
        triggerId: triggerIds.get(demo.trigger) ?? null,
        title: demo.title,
        severity: demo.severity,
        state: demo.state,
        firedAt,
        matchCount: matched.length,
        groupKey: `demo:${demo.trigger}`,
        events: matched.map((event) => ({ id: event.id, ts: new Date(event.ts).toISOString() })),
        ...(demo.state !== 'NEW' && { stateChangedAt: changedAt, stateChangedBy: analystUserId }),
        ...(demo.state === 'ESCALATED' && { escalatedAt: changedAt }),
        ...(demo.state === 'DISMISSED' && {
          dismissedAt: changedAt,
          dismissalReason: demo.reason,
          dismissalNotes: demo.notes ?? null,
        }),
        ...(demo.state === 'FRAUD_FLAGGED' && {
          flaggedAt: changedAt,
          fraudType: demo.fraudType,
          fraudCertainty: demo.fraudCertainty,
        }),
      })
      .returning();
    if (demo.state !== 'NEW') {
      await db.insert(alertStateChanges).values({
        alertId: row!.id,
        fromState: 'NEW',
        toState: demo.state,
        changedBy: analystUserId,
        changedAt,
        reason: demo.reason ?? demo.fraudType ?? null,
        notes: demo.notes ?? null,
      });
    }
  }
}
