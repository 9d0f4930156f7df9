import { describe, expect, it } from 'vitest';
import { documentEvent } from './documents';

describe('documentEvent', () => {
  it('maps nested ECS names to the columns and keeps the rest in fields', () => {
    expect(
      documentEvent(
        {
          '@timestamp': '2026-01-02T03:04:05.000Z',
          message: 'hello',
          host: { name: 'web-01', hostname: 'web-01.local', ip: ['10.0.0.1'] },
          source: { ip: '10.0.0.2', port: 80 },
          client: { ip: '10.0.0.3' },
          destination: { ip: '10.0.0.4' },
          user: { name: 'alice', id: 7 },
          event: { dataset: 'nginx.access' },
          data_stream: { dataset: 'generic' },
        },
        'logs-web',
      ),
    ).toEqual({
      timestamp: '2026-01-02T03:04:05.000Z',
      message: 'hello',
      host: 'web-01',
      srcIp: '10.0.0.2',
      dstIp: '10.0.0.4',
      userName: 'alice',
      dataSource: 'nginx.access',
      fields: {
        host: { hostname: 'web-01.local', ip: ['10.0.0.1'] },
        source: { port: 80 },
        client: { ip: '10.0.0.3' },
        user: { id: 7 },
        data_stream: { dataset: 'generic' },
      },
    });
  });

  it('reads dotted keys as Elasticsearch does and falls back to the plain and secondary names', () => {
    expect(
      documentEvent(
        {
          timestamp: 1767323045000,
          host: 'db-01',
          'client.ip': '10.0.0.3',
          'server.ip': '10.0.0.9',
          'data_stream.dataset': 'postgres.log',
          'log.level': 'warn',
          'log.file.path': '/var/log/pg.log',
        },
        'ignored',
      ),
    ).toEqual({
      timestamp: 1767323045000,
      message: undefined,
      host: 'db-01',
      srcIp: '10.0.0.3',
      dstIp: '10.0.0.9',
      userName: undefined,
      dataSource: 'postgres.log',
      fields: { log: { level: 'warn', file: { path: '/var/log/pg.log' } } },
    });
  });

  it('uses the index as data source and keeps values of unexpected types in fields', () => {
    const event = documentEvent(
      { message: { text: 'structured' }, host: { hostname: 42 }, '@timestamp': true },
      'idx',
    );
    expect(event).toMatchObject({
      dataSource: 'idx',
      message: undefined,
      host: undefined,
      timestamp: undefined,
    });
    expect(event.fields).toEqual({
      message: { text: 'structured' },
      host: { hostname: 42 },
      '@timestamp': true,
    });
  });

  it('keeps a dotted key whose path meets a value that is not an object', () => {
    expect(documentEvent({ host: 'a', 'host.name': 'b' }, undefined)).toMatchObject({
      host: 'a',
      fields: { 'host.name': 'b' },
    });
  });

  it('treats __proto__ keys as data, never as a prototype', () => {
    const source = JSON.parse(
      '{"__proto__": {"polluted": 1}, "__proto__.other": 2, "a": {"__proto__.x": 3}}',
    );
    const event = documentEvent(source, 'idx');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).other).toBeUndefined();
    expect(Object.getPrototypeOf(event.fields)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(event.fields))).toEqual(
      JSON.parse('{"__proto__": {"polluted": 1, "other": 2}, "a": {"__proto__": {"x": 3}}}'),
    );
  });
});
