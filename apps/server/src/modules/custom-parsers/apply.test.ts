import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app';
import { seedOrg } from '../../../test/fixtures';
import { eventRow, type NewEventRow } from '../events/store';
import { applyCustomParsers, applyMappings } from './apply';
import { customParsers } from './tables';

const ORG = '00000000-0000-4000-8000-000000000001';
const row = (fields: Record<string, unknown>, extra: Partial<NewEventRow> = {}): NewEventRow => ({
  ...eventRow(ORG, { message: 'm', dataSource: 'acme', fields }, new Date()),
  ...extra,
});

describe('applyMappings', () => {
  it('reads dotted paths, and a top-level key spelled with a period wins over the path', () => {
    const result = applyMappings(
      row({ 'event.id': 'literal', event: { id: 'nested' }, a: { b: { c: 1 } } }),
      [
        { from: 'event.id', to: 'event_id' },
        { from: 'a.b.c', to: 'depth' },
      ],
    );
    expect(result.fields).toEqual({ event: { id: 'nested' }, a: { b: {} }, event_id: 'literal', depth: 1 });
  });

  it('follows keys with spaces, and never array indexes or inherited keys', () => {
    const result = applyMappings(row({ 'source host': { 'dns name': 'fw-1' }, list: ['x'] }), [
      { from: 'source host.dns name', to: 'host' },
      { from: 'list.0', to: 'first' },
      { from: 'constructor', to: 'ctor' },
      { from: 'list.length', to: 'size' },
    ]);
    expect(result.host).toBe('fw-1');
    expect(result.fields).toEqual({ 'source host': {}, list: ['x'] });
  });

  it('writes columns with trimmed text, addresses only to IP columns, and moves other values to fields', () => {
    const result = applyMappings(
      row({ src: ' 10.0.0.1 ', dst: 'not-an-ip', who: 42, text: '  hello  ', tags: ['a'], blank: '   ' }),
      [
        { from: 'src', to: 'src_ip' },
        { from: 'dst', to: 'dst_ip' },
        { from: 'who', to: 'user_name' },
        { from: 'text', to: 'message' },
        { from: 'tags', to: 'labels' },
        { from: 'blank', to: 'host' },
      ],
    );
    expect(result).toMatchObject({
      srcIp: '10.0.0.1',
      dstIp: null,
      userName: '42',
      message: 'hello',
      host: null,
    });
    expect(result.fields).toEqual({ dst: 'not-an-ip', labels: ['a'], blank: '   ' });
  });

  it('does nothing for missing or null from-fields and replaces an existing to-field', () => {
    const result = applyMappings(row({ a: null, b: 'new', target: 'old' }, { host: 'kept' }), [
      { from: 'a', to: 'host' },
      { from: 'missing.path', to: 'x' },
      { from: 'b', to: 'target' },
    ]);
    expect(result.host).toBe('kept');
    expect(result.fields).toEqual({ a: null, target: 'new' });
  });

  it('applies mappings in order, each seeing the ones before', () => {
    const result = applyMappings(row({ a: 'v' }), [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
    ]);
    expect(result.fields).toEqual({ c: 'v' });
  });

  it('handles odd keys as plain data and leaves the input row unchanged', () => {
    const input = row({}, { fields: JSON.parse('{"__proto__": {"polluted": true}, "nested": {"k": "v"}}') });
    const snapshot = structuredClone(input.fields);
    const result = applyMappings(input, [
      { from: '__proto__.polluted', to: 'flag' },
      { from: 'nested.k', to: '__proto__' },
    ]);
    expect(input.fields).toEqual(snapshot);
    expect(Object.hasOwn(result.fields!, '__proto__')).toBe(true);
    expect(result.fields!['__proto__']).toBe('v');
    expect(result.fields!['flag']).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('applyCustomParsers', () => {
  let ctx: TestContext;
  let orgId: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    orgId = (await seedOrg(ctx.database.db, { productSkus: ['CUSTOM_PARSERS'] })).id;
    await ctx.database.db
      .insert(customParsers)
      .values({ orgId, dataSource: 'Acme', mappings: [{ from: 'ip', to: 'src_ip' }] });
  });
  afterAll(() => ctx.close());

  const input = (dataSource: string | undefined) =>
    eventRow(orgId, { message: 'm', dataSource, fields: { ip: '192.0.2.1' } }, new Date());

  it('remaps rows of a parser’s data source, any case, and answers the batch itself when no row has one', async () => {
    const rows = [input('acme'), input('other'), input(undefined)];
    const result = await applyCustomParsers(ctx.database.db, orgId, rows);
    expect(result.map((item) => item.srcIp)).toEqual(['192.0.2.1', null, null]);
    expect(result[1]).toBe(rows[1]);
    const plain = [input(undefined)];
    expect(await applyCustomParsers(ctx.database.db, orgId, plain)).toBe(plain);
    // Another organisation's events are not touched by this one's parsers.
    const other = (await seedOrg(ctx.database.db)).id;
    const foreign = [
      eventRow(other, { message: 'm', dataSource: 'acme', fields: { ip: '192.0.2.1' } }, new Date()),
    ];
    expect((await applyCustomParsers(ctx.database.db, other, foreign))[0]!.srcIp).toBeNull();
  });
});
