import type { Db } from '../db/client';
import { insertClassifier } from '../modules/classifiers/repo';

/**
 * Demo classifiers: a library classifier tagging every bank's core-banking events with their business
 * unit, and two of First Harbor Bank's own, one marking its backup service account's events and one
 * dropping the web proxy's load-balancer health checks. They act on events that arrive through the
 * pipeline (the demo trickle, the ingest API).
 */
export async function seedClassifiersDemo(db: Db, harborOrgId: string, createdBy: string) {
  await insertClassifier(db, null, {
    name: 'Core banking business unit',
    description: 'Core-banking transactions belong to retail banking unless a bank says otherwise.',
    query: 'data_source:"core-banking"',
    metadata: { business_unit: 'retail' },
    createdBy,
  });
  await insertClassifier(db, harborOrgId, {
    name: 'Backup service account',
    description: 'Nightly backups log in everywhere; anomaly detection would flag them every night.',
    query: 'user_name:svc_backup',
    metadata: { account_type: 'service', owner_team: 'infrastructure' },
    skipAnomalyDetection: true,
    createdBy,
  });
  await insertClassifier(db, harborOrgId, {
    name: 'Proxy health checks',
    description: 'Load-balancer probes of the web proxy carry no security value.',
    query: 'data_source:"web-proxy" AND "GET /health"',
    dropEvent: true,
    createdBy,
  });
}
