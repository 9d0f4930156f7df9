import type { Db } from '../db/client';
import { insertSavedQuery } from '../modules/saved-queries/repo';
import { insertTrigger } from '../modules/triggers/repo';

const MINUTE = 60_000;

/** A bank's own "Large wire transfers" saved query: outgoing wires above 100,000. */
export const insertLargeWiresQuery = (db: Db, orgId: string, createdBy: string) =>
  insertSavedQuery(db, {
    orgId,
    name: 'Large wire transfers',
    description: 'Outgoing wires above 100,000.',
    query: 'transactionType:wire AND amount:>100000',
    aggregation: null,
    primaryField: null,
    library: false,
    createdBy,
  });

/**
 * Two triggers for First Harbor Bank on saved queries of its own: brute-force logins (five failed
 * Windows sign-ins in ten minutes) and large wire transfers (every wire above 100,000, fraud domain,
 * which the bank's fraud product opens). The names are those the demo alerts refer to.
 */
export async function seedTriggersDemo(db: Db, harborOrgId: string, createdBy: string) {
  const failedLogins = await insertSavedQuery(db, {
    orgId: harborOrgId,
    name: 'Failed Windows logins',
    description: 'Failed sign-ins reported by Windows security logs.',
    query: 'data_source:windows-security AND outcome:failure',
    aggregation: null,
    primaryField: 'user_name',
    library: false,
    createdBy,
  });
  const largeWires = await insertLargeWiresQuery(db, harborOrgId, createdBy);
  const now = Date.now();
  await insertTrigger(db, {
    orgId: harborOrgId,
    domain: 'security',
    name: 'Brute-force logins',
    description: 'Five or more failed Windows sign-ins within ten minutes.',
    type: 'THRESHOLD',
    savedQueryId: failedLogins.id,
    intervalSeconds: 600,
    minMatch: 5,
    severity: 'HIGH',
    importantFields: ['user_name', 'src_ip'],
    labels: ['identity'],
    createdBy,
    nextRunAt: new Date(now + 10 * MINUTE),
    lastWindowEnd: new Date(now),
  });
  await insertTrigger(db, {
    orgId: harborOrgId,
    domain: 'fraud',
    name: 'Large wire transfer',
    description: 'Every outgoing wire above 100,000.',
    type: 'EVERY_EVENT',
    savedQueryId: largeWires.id,
    intervalSeconds: 300,
    severity: 'MEDIUM',
    labels: ['payments'],
    createdBy,
    nextRunAt: new Date(now + 5 * MINUTE),
    lastWindowEnd: new Date(now),
  });
}
