import { describe, expect, it } from 'vitest';
import { parseSyslog, syslogEvent } from './syslog-message';
import { SyslogFramer } from './syslog';

const NOW = new Date('2026-03-10T12:00:00.000Z');

describe('parseSyslog', () => {
  it('reads RFC 5424 with structured data and takes the token out of it', () => {
    const text =
      '<165>1 2026-03-10T11:59:58.123456+01:00 web-01.example.com nginx 4242 ID47 ' +
      '[exampleSDID@32473 iut="3" eventSource="App\\"lic\\]ation"][vigil@32473 token="vgl_k.s" site="dc1"] ' +
      '\uFEFFAn application event';
    expect(parseSyslog(text, NOW)).toEqual({
      format: 'rfc5424',
      facility: 'local4',
      severity: 'notice',
      timestamp: new Date('2026-03-10T10:59:58.123Z'),
      host: 'web-01.example.com',
      app: 'nginx',
      procid: '4242',
      msgid: 'ID47',
      structuredData: {
        'exampleSDID@32473': { iut: '3', eventSource: 'App"lic]ation' },
        'vigil@32473': { site: 'dc1' },
      },
      token: 'vgl_k.s',
      message: 'An application event',
    });
  });

  it('reads RFC 5424 nil values and an empty message', () => {
    expect(parseSyslog('<13>1 - - - - - -', NOW)).toEqual({
      format: 'rfc5424',
      facility: 'user',
      severity: 'notice',
      timestamp: undefined,
      host: undefined,
      app: undefined,
      procid: undefined,
      msgid: undefined,
      structuredData: {},
      message: '',
    });
  });

  it('reads RFC 3164 in the current year, UTC, a year back when more than a day ahead', () => {
    expect(
      parseSyslog('<34>Mar  9 22:14:15 mymachine su[123]: su root failed on /dev/pts/8\n', NOW),
    ).toMatchObject({
      format: 'rfc3164',
      facility: 'auth',
      severity: 'crit',
      timestamp: new Date('2026-03-09T22:14:15.000Z'),
      host: 'mymachine',
      app: 'su',
      procid: '123',
      message: 'su root failed on /dev/pts/8',
    });
    expect(parseSyslog('<13>Mar 11 11:00:00 h app: within a day', NOW).timestamp).toEqual(
      new Date('2026-03-11T11:00:00.000Z'),
    );
    expect(parseSyslog('<13>Dec 31 23:00:00 h app: last year', NOW).timestamp).toEqual(
      new Date('2025-12-31T23:00:00.000Z'),
    );
  });

  it('reads RFC 3164 without host, with an ISO time, and without a tag', () => {
    expect(parseSyslog('<13>Mar 10 11:00:00 cron[9]: job done', NOW)).toMatchObject({
      host: undefined,
      app: 'cron',
      procid: '9',
      message: 'job done',
    });
    expect(parseSyslog('<13>2026-03-10T10:00:00Z host1 sshd: accepted', NOW)).toMatchObject({
      timestamp: new Date('2026-03-10T10:00:00.000Z'),
      host: 'host1',
      app: 'sshd',
      message: 'accepted',
    });
    expect(parseSyslog('<13>no header at all', NOW)).toMatchObject({
      format: 'rfc3164',
      timestamp: undefined,
      host: undefined,
      app: undefined,
      message: 'no header at all',
    });
  });

  it('keeps text without a priority whole as a raw message', () => {
    for (const text of ['plain text line', '<999>too high', '']) {
      expect(parseSyslog(text, NOW)).toEqual({ format: 'raw', structuredData: {}, message: text });
    }
  });

  it('falls back to RFC 3164 when RFC 5424 structured data is malformed', () => {
    expect(parseSyslog('<13>1 2026-03-10T10:00:00Z h app - - [broken sd', NOW).format).toBe('rfc3164');
  });
});

describe('syslogEvent', () => {
  it('maps a message to an event, the sender standing in for a missing host', () => {
    const message = parseSyslog('<14>1 2026-03-10T10:00:00Z - app - m1 [a@1 b="c"] hello', NOW);
    expect(syslogEvent(message, '192.0.2.7')).toEqual({
      timestamp: '2026-03-10T10:00:00.000Z',
      host: '192.0.2.7',
      dataSource: 'app',
      message: 'hello',
      fields: {
        syslog: {
          format: 'rfc5424',
          facility: 'user',
          severity: 'info',
          msgid: 'm1',
          sd: { 'a@1': { b: 'c' } },
          peer: '192.0.2.7',
        },
      },
    });
  });
});

describe('SyslogFramer', () => {
  it('splits octet-counted and newline-framed messages, across chunks and mixed', () => {
    const framer = new SyslogFramer(1000);
    expect(framer.push(Buffer.from('17 <13>1 - - -'))).toEqual([]);
    expect(framer.push(Buffer.from(' - - -16 <13>first'))).toEqual(['<13>1 - - - - - -']);
    expect(framer.push(Buffer.from(' second\n<13>third line\r\n\n<13>fou'))).toEqual([
      '<13>first second',
      '<13>third line\r',
    ]);
    expect(framer.push(Buffer.from('rth\n1'))).toEqual(['<13>fourth']);
    expect(framer.push(Buffer.from('2'))).toEqual([]);
    expect(framer.push(Buffer.from(' <13>é fifth'))).toEqual(['<13>é fifth']);
    expect(framer.end()).toEqual([]);
  });

  it('answers the unterminated rest at the end and cuts over-long lines', () => {
    const framer = new SyslogFramer(10);
    expect(framer.push(Buffer.from('abcdefghijklmno'))).toEqual(['abcdefghij']);
    expect(framer.end()).toEqual(['klmno']);
  });

  it('throws for a frame announcing more than the limit', () => {
    expect(() => new SyslogFramer(10).push(Buffer.from('11 <13>hello'))).toThrow('frame of 11 bytes');
  });
});
