import type { WatchlistDomain } from '@vigil/contracts';
import type { Db } from '../db/client';
import { insertItems, insertWatchlist } from '../modules/watchlists/repo';

interface DemoWatchlist {
  domain: WatchlistDomain;
  name: string;
  description: string;
  field: string;
  values: string[];
}

const DEMO_WATCHLISTS: DemoWatchlist[] = [
  {
    domain: 'security',
    name: 'Privileged accounts',
    description: 'Service and administrator accounts whose sign-ins are reviewed.',
    field: 'user_name',
    // Accounts that the demo events use, so matches show up.
    values: ['svc_backup', 'jmartin', 'dlee'],
  },
  {
    domain: 'fraud',
    name: 'Mule accounts',
    description: 'Receiving accounts reported by correspondent banks for money mule activity.',
    field: 'fields.beneficiary_account',
    values: ['GB29NWBK60161331926819', 'DE89370400440532013000', 'FR1420041010050500013M02606'],
  },
];

/** First Harbor Bank, which holds the fraud product, gets a security and a fraud watchlist. */
export async function seedWatchlistsDemo(db: Db, harborOrgId: string, createdBy: string) {
  for (const { values, ...watchlist } of DEMO_WATCHLISTS) {
    const row = await insertWatchlist(db, { ...watchlist, orgId: harborOrgId, createdBy });
    await insertItems(db, row.id, values);
  }
}
