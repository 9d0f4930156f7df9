import type { Asset } from '@vigil/contracts';
import type { StubRoute } from '../../test/fetch-stub';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

/** Fixtures of the assets area's component tests. */

export const base = `/api/org/${HOME_ORG_ID}`;

export const withPermissions = (permissions: string[]): Record<string, StubRoute> => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
  [`GET ${base}/labels`]: { body: { labels: ['Firewall', 'Payments'], suggested: ['Scanner', 'Firewall'] } },
  [`GET ${base}/software`]: { body: { names: ['OpenSSH', 'nginx'] } },
  [`GET ${base}/assets/down`]: { body: { items: [], total: 0 } },
});

export const asset = (overrides: Partial<Asset> = {}): Asset => ({
  id: '00000000-0000-4000-8000-00000000a001',
  name: 'Core firewall',
  tag: 'FW-01',
  owner: 'Network team',
  importance: 'high',
  description: null,
  labels: ['Firewall'],
  hostnames: ['fw01.bank.example'],
  ipMacPairs: [{ ip: '10.0.0.1', mac: '00:1a:2b:3c:4d:5e' }],
  tracked: true,
  active: true,
  lastSeen: '2026-03-01T10:00:00.000Z',
  dataLastSent: '2026-03-01T10:00:00.000Z',
  modifiedOn: '2026-02-01T09:00:00.000Z',
  createdOn: '2026-01-01T09:00:00.000Z',
  ...overrides,
});

export const untracked = (overrides: Partial<Asset> = {}): Asset =>
  asset({
    id: '00000000-0000-4000-8000-00000000a002',
    name: 'host-10-0-0-9',
    tag: null,
    owner: null,
    importance: 'none',
    labels: [],
    hostnames: [],
    ipMacPairs: [{ ip: '10.0.0.9', mac: null }],
    tracked: false,
    ...overrides,
  });

/** The ISO time of local midnight `days` days before today: the start of the default last-seen window. */
export function daysAgoMidnight(days: number): string {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days).toISOString();
}

/** The local date `days` days before today, as a date input shows it. */
export function daysAgoDate(days: number): string {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

export const requestBody = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;
