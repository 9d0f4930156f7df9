import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseLogObject } from './log-parsers';

const parse = (text: string | Buffer, type: Parameters<typeof parseLogObject>[1]) =>
  parseLogObject(Buffer.from(text), type);

describe('S3 log parsers', () => {
  it('maps CEF-JSON extension keys', () => {
    const { events } = parse(
      '{"rt":"2026-11-24T10:00:00Z","shost":"fw-1","src":"10.1.1.1","dst":"10.2.2.2","suser":"jdoe","name":"Blocked","deviceVendor":"Acme"}\n',
      'CEF_JSON',
    );
    expect(events[0]).toMatchObject({
      timestamp: '2026-11-24T10:00:00Z',
      host: 'fw-1',
      srcIp: '10.1.1.1',
      dstIp: '10.2.2.2',
      userName: 'jdoe',
      message: 'Blocked',
      dataSource: 'cef',
      fields: { deviceVendor: 'Acme' },
    });
  });

  it('maps Celebrus and Apiture digital-banking records, a JSON array included', () => {
    expect(
      parse(
        '[{"eventTimestamp":"2026-11-24T10:00:00Z","ipAddress":"203.0.113.5","customerId":"c-1","eventType":"LOGIN"}]',
        'CELEBRUS',
      ).events[0],
    ).toMatchObject({ srcIp: '203.0.113.5', userName: 'c-1', message: 'LOGIN', dataSource: 'celebrus' });
    expect(
      parse(
        '{"occurredAt":"2026-11-24T10:00:00Z","clientIpAddress":"203.0.113.6","userId":"u-7","eventType":"transferCreated"}',
        'APITURE_DIGITAL_BANKING',
      ).events[0],
    ).toMatchObject({
      srcIp: '203.0.113.6',
      userName: 'u-7',
      message: 'transferCreated',
      dataSource: 'apiture',
    });
  });

  it('reads CloudWatch Logs documents written back to back, skipping control messages', () => {
    const doc = (messageType: string, message: string) =>
      JSON.stringify({
        messageType,
        owner: '123456789012',
        logGroup: '/aws/lambda/payments',
        logStream: 'stream-1',
        logEvents: [{ id: '1', timestamp: 1764000000000, message }],
      });
    const { events, rejected } = parse(
      gzipSync(
        doc('DATA_MESSAGE', '{"level":"warn"}') +
          doc('CONTROL_MESSAGE', 'ping') +
          doc('DATA_MESSAGE', 'plain'),
      ),
      'CLOUDWATCH',
    );
    expect(rejected).toBe(0);
    expect(events.map((event) => event.message)).toEqual(['{"level":"warn"}', 'plain']);
    expect(events[0]).toMatchObject({
      host: 'stream-1',
      timestamp: 1764000000000,
      fields: { data: { level: 'warn' } },
    });
  });

  it('counts what it cannot read: a CloudTrail file without records, JSON-lines lines that are not objects', () => {
    expect(parse('{"nothing":1}', 'CLOUDTRAIL')).toEqual({ events: [], rejected: 1 });
    expect(parse('{"a":1}\n[1]\nbroken\n', 'JSONL')).toMatchObject({ rejected: 2 });
  });
});
