import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app';
import { seedOrg } from '../../../test/fixtures';
import { eventRow, type NewEventRow } from '../events/store';
import { matchIndicators } from './match';
import { threatIndicators, threatSources, threatSourceSubscriptions } from './tables';

let ctx: TestContext;
let orgId: string;
const ids: Record<string, string> = {};

const DAY = 24 * 3600 * 1000;
const past = new Date(Date.now() - 10 * DAY);
const future = new Date(Date.now() + 10 * DAY);

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  const otherOrgId = (await seedOrg(db)).id;
  const sources = await db
    .insert(threatSources)
    .values([
      { orgId: null, domain: 'security', name: 'Subscribed', type: 'COMMERCIAL' },
      { orgId: null, domain: 'security', name: 'Not subscribed', type: 'COMMERCIAL' },
      { orgId, domain: 'security', name: 'Own', type: 'INTERNAL' },
      { orgId, domain: 'security', name: 'Own disabled', type: 'INTERNAL', enabled: false },
      { orgId: otherOrgId, domain: 'security', name: 'Foreign', type: 'INTERNAL' },
    ])
    .returning();
  const [subscribed, unsubscribed, own, disabled, foreign] = sources.map((source) => source.id);
  await db.insert(threatSourceSubscriptions).values({ orgId, sourceId: subscribed! });
  const rows = await db
    .insert(threatIndicators)
    .values([
      {
        sourceId: subscribed!,
        type: 'IP',
        value: '203.0.113.0/24',
        rating: 'HIGH',
        validFrom: past,
        expiresAt: future,
      },
      {
        sourceId: subscribed!,
        type: 'IP',
        value: '198.51.100.1',
        rating: 'HIGH',
        validFrom: past,
        expiresAt: past,
      },
      {
        sourceId: subscribed!,
        type: 'IP',
        value: '198.51.100.2',
        rating: 'HIGH',
        validFrom: future,
        expiresAt: future,
      },
      { sourceId: unsubscribed!, type: 'DOMAIN', value: 'unsubscribed.example', rating: 'HIGH' },
      { sourceId: own!, type: 'DOMAIN', value: 'evil.example', rating: 'HIGH' },
      { sourceId: own!, type: 'HASH', value: 'ab'.repeat(32), rating: 'LOW' },
      { sourceId: own!, type: 'URL', value: 'http://bad.example/x', rating: 'LOW' },
      { sourceId: own!, type: 'EMAIL', value: 'mule@evil.example', rating: 'LOW' },
      { sourceId: disabled!, type: 'DOMAIN', value: 'disabled.example', rating: 'HIGH' },
      { sourceId: foreign!, type: 'DOMAIN', value: 'foreign.example', rating: 'HIGH' },
    ])
    .returning();
  for (const row of rows) ids[row.value] = row.id;
  ids.subscribed = subscribed!;
  ids.own = own!;
});
afterAll(() => ctx.close());

const row = (input: Parameters<typeof eventRow>[1], flags: NewEventRow['flags'] = []): NewEventRow => ({
  ...eventRow(orgId, input, new Date()),
  flags,
});

describe('matchIndicators', () => {
  it('matches valid indicators of subscribed and own enabled sources only', async () => {
    const rows = [
      row({ srcIp: '203.0.113.45', dstIp: '10.0.0.1' }),
      row({ srcIp: '198.51.100.1', dstIp: '198.51.100.2' }),
      row({ host: 'www.EVIL.example', fields: { domain: 'unsubscribed.example' } }),
      row({ host: 'disabled.example', fields: { domain: 'foreign.example' } }),
      row({ fields: { sha256: 'AB'.repeat(32), url: 'HTTP://bad.example/x', email: 'Mule@evil.example' } }),
      row({ srcIp: '203.0.113.9', host: 'evil.example' }, ['skipThreatMatch']),
      row({ host: '203.0.113.10' }),
      row({ fields: { url: 'https://login.evil.example/reset' } }),
    ];
    const matches = await matchIndicators(ctx.database.db, orgId, rows);
    expect(matches).toEqual(
      [
        { row: 0, field: 'srcIp', indicatorId: ids['203.0.113.0/24'], sourceId: ids.subscribed },
        { row: 2, field: 'host', indicatorId: ids['evil.example'], sourceId: ids.own },
        { row: 4, field: 'fields.email', indicatorId: ids['mule@evil.example'], sourceId: ids.own },
        { row: 4, field: 'fields.sha256', indicatorId: ids['ab'.repeat(32)], sourceId: ids.own },
        { row: 4, field: 'fields.url', indicatorId: ids['http://bad.example/x'], sourceId: ids.own },
        { row: 6, field: 'host', indicatorId: ids['203.0.113.0/24'], sourceId: ids.subscribed },
        { row: 7, field: 'fields.url', indicatorId: ids['evil.example'], sourceId: ids.own },
      ].sort((a, b) => a.row - b.row || a.field.localeCompare(b.field)),
    );
  });

  it('answers nothing without candidates', async () => {
    expect(await matchIndicators(ctx.database.db, orgId, [row({ message: 'plain' })])).toEqual([]);
  });
});
