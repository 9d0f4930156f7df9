import type { EventInput } from '@vigil/contracts';
import type { Db } from '../db/client';
import { insertEvents } from '../modules/events/store';
import { insertSavedQuery } from '../modules/saved-queries/repo';
import { insertLibraryGroup } from '../modules/triggers/library-repo';
import { insertLibraryCopy } from '../modules/triggers/library';
import { insertTrigger, type NewTrigger } from '../modules/triggers/repo';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The library queries the library triggers run, on the field names of the demo events. */
const QUERIES = {
  failedSignIns: {
    name: 'Failed sign-ins',
    description: 'Windows sign-ins that failed (event 4625).',
    query: 'outcome:failure',
  },
  homeSignIns: {
    name: 'Sign-ins from the home country',
    description: 'Successful sign-ins located in the United States.',
    query: 'outcome:success AND geo_country:US',
  },
  foreignSignIns: {
    name: 'Sign-ins from abroad',
    description: 'Successful sign-ins located outside the United States.',
    query: 'outcome:success AND _exists_:geo_country AND NOT geo_country:US',
  },
  largeWires: {
    name: 'Wires above 100,000',
    description: 'Outgoing wire transfers above 100,000.',
    query: 'transactionType:wire AND amount:>100000',
  },
  newPayees: {
    name: 'New payee added',
    description: 'A beneficiary added to an account in online or mobile banking.',
    query: 'action:payee_added',
  },
  transfers: {
    name: 'Outgoing transfers',
    description: 'Wire, ACH and person-to-person transfers.',
    query: 'transactionType:wire OR transactionType:ach OR transactionType:p2p',
  },
} as const;

export interface TriggerLibraryDemoOrgs {
  harbor: string;
  prairie: string;
  coastal: string;
}

/**
 * The provider's trigger library: an identity group (base query: Windows security events) with
 * brute-force logins and impossible travel, and a payments group (base query: core banking) with
 * large wire transfer and new payee then transfer. Copies: brute force at Prairie (ops-managed) and
 * Coastal (client-managed), impossible travel and new payee then transfer at First Harbor, large wire
 * at Prairie. A few First Harbor events play out the two sequences the demo alerts describe.
 */
export async function seedTriggerLibraryDemo(
  db: Db,
  orgs: TriggerLibraryDemoOrgs,
  createdBy: string,
  now = new Date(),
) {
  const query = async (key: keyof typeof QUERIES) =>
    (
      await insertSavedQuery(db, {
        ...QUERIES[key],
        orgId: null,
        library: true,
        aggregation: null,
        primaryField: null,
        createdBy,
      })
    ).id;
  const identity = await insertLibraryGroup(db, {
    domain: 'security',
    name: 'Identity and access',
    description: 'Sign-in abuse and account compromise.',
    baseQuery: 'data_source:windows-security',
  });
  const payments = await insertLibraryGroup(db, {
    domain: 'fraud',
    name: 'Payments',
    description: 'Payment fraud in core banking.',
    baseQuery: 'data_source:core-banking',
  });
  const library = (values: Omit<NewTrigger, 'orgId' | 'managedBy' | 'createdBy' | 'state'>) =>
    insertTrigger(db, { ...values, orgId: null, managedBy: 'OPS', state: 'ACTIVE', createdBy });

  const bruteForce = await library({
    domain: 'security',
    libraryGroupId: identity.id,
    name: 'Brute-force logins',
    description: 'Five or more failed sign-ins of one user within ten minutes.',
    type: 'THRESHOLD',
    savedQueryId: await query('failedSignIns'),
    intervalSeconds: 600,
    minMatch: 5,
    aggregation: { type: 'terms', field: 'user_name' },
    severity: 'HIGH',
    importantFields: ['user_name', 'src_ip'],
    labels: ['identity'],
  });
  const homeSignIns = await query('homeSignIns');
  const travel = await library({
    domain: 'security',
    libraryGroupId: identity.id,
    name: 'Impossible travel',
    description: 'A user signs in at home and from abroad within an hour.',
    type: 'SEQUENCE',
    savedQueryId: homeSignIns,
    sequence: [{ savedQueryId: homeSignIns }, { savedQueryId: await query('foreignSignIns') }],
    aggregation: { type: 'terms', field: 'user_name' },
    intervalSeconds: 3600,
    severity: 'CRITICAL',
    importantFields: ['user_name', 'geo_country', 'geo_city'],
    labels: ['identity', 'travel'],
  });
  const largeWire = await library({
    domain: 'fraud',
    libraryGroupId: payments.id,
    name: 'Large wire transfer',
    description: 'Every outgoing wire above 100,000.',
    type: 'EVERY_EVENT',
    savedQueryId: await query('largeWires'),
    intervalSeconds: 300,
    severity: 'MEDIUM',
    importantFields: ['accountId', 'amount'],
    labels: ['payments'],
  });
  const newPayees = await query('newPayees');
  const payeeThenTransfer = await library({
    domain: 'fraud',
    libraryGroupId: payments.id,
    name: 'New payee then transfer',
    description: 'A transfer from an account within 30 minutes of a new payee being added to it.',
    type: 'SEQUENCE',
    savedQueryId: newPayees,
    sequence: [{ savedQueryId: newPayees }, { savedQueryId: await query('transfers') }],
    aggregation: { type: 'terms', field: 'accountId' },
    intervalSeconds: 1800,
    severity: 'HIGH',
    importantFields: ['accountId', 'amount', 'payee'],
    labels: ['payments', 'account-takeover'],
  });

  const copies: [typeof bruteForce, typeof identity, string, 'OPS' | 'CLIENT'][] = [
    [bruteForce, identity, orgs.prairie, 'OPS'],
    [bruteForce, identity, orgs.coastal, 'CLIENT'],
    [travel, identity, orgs.harbor, 'OPS'],
    [largeWire, payments, orgs.prairie, 'OPS'],
    [payeeThenTransfer, payments, orgs.harbor, 'OPS'],
  ];
  for (const [trigger, group, orgId, managedBy] of copies) {
    await insertLibraryCopy(db, trigger, group, { orgId, managedBy, createdBy });
  }

  await insertEvents(db, orgs.harbor, scenarioEvents(now));
  return { bruteForce, travel, largeWire, payeeThenTransfer };
}

/** First Harbor: dlee signs in from Chicago, then Lagos; two accounts get a new payee and then pay out. */
function scenarioEvents(now: Date): EventInput[] {
  const at = (ago: number) => new Date(now.getTime() - ago).toISOString();
  const signIn = (ago: number, country: string, city: string, srcIp: string): EventInput => ({
    timestamp: at(ago),
    host: 'vpn-gw-01',
    srcIp,
    userName: 'dlee',
    dataSource: 'windows-security',
    message: 'An account was successfully logged on: dlee',
    fields: { eventId: 4624, outcome: 'success', logonType: 10, geo_country: country, geo_city: city },
  });
  const payee = (ago: number, accountId: string): EventInput => ({
    timestamp: at(ago),
    host: 'core-banking-01',
    dataSource: 'core-banking',
    message: `payee added to ${accountId} via online`,
    fields: { action: 'payee_added', accountId, channel: 'online', payee: 'Northwind Imports Ltd' },
  });
  const transfer = (ago: number, accountId: string, type: string, amount: number): EventInput => ({
    timestamp: at(ago),
    host: 'core-banking-01',
    dataSource: 'core-banking',
    message: `${type} of ${amount.toFixed(2)} USD via online`,
    fields: { transactionType: type, amount, currency: 'USD', channel: 'online', accountId },
  });
  return [
    signIn(2 * HOUR + 50 * MINUTE, 'US', 'Chicago', '198.51.100.24'),
    signIn(2 * HOUR + 10 * MINUTE, 'NG', 'Lagos', '203.0.113.77'),
    payee(4 * HOUR + 20 * MINUTE, 'ACCT-448120'),
    transfer(4 * HOUR + 10 * MINUTE, 'ACCT-448120', 'wire', 182_400),
    payee(40 * HOUR + 8 * MINUTE, 'ACCT-201977'),
    transfer(40 * HOUR + 4 * MINUTE, 'ACCT-201977', 'p2p', 4_950),
  ];
}
