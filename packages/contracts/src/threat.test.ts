import { describe, expect, it } from 'vitest';
import { classifyThreatSubject, normaliseIndicatorValue } from './threat';

describe('classifyThreatSubject', () => {
  it('takes hex strings of 32 to 64 digits in whole bytes as signatures, typed by length', () => {
    expect(classifyThreatSubject('D41D8CD98F00B204E9800998ECF8427E')).toEqual({
      type: 'SIGNATURE',
      subject: 'd41d8cd98f00b204e9800998ecf8427e',
      signatureType: 'MD5',
    });
    expect(classifyThreatSubject('a'.repeat(40)).signatureType).toBe('SHA1');
    expect(classifyThreatSubject('a'.repeat(64)).signatureType).toBe('SHA256');
    expect(classifyThreatSubject('a'.repeat(48)).signatureType).toBe('HEX');
  });

  it('takes anything else as a host', () => {
    for (const value of ['a'.repeat(33), 'a'.repeat(30), 'a'.repeat(66), 'g'.repeat(32), ' evil.example ']) {
      expect(classifyThreatSubject(value).type).toBe('HOST');
    }
    expect(classifyThreatSubject(' evil.example ').subject).toBe('evil.example');
  });
});

describe('normaliseIndicatorValue', () => {
  it('writes each type in its stored form', () => {
    expect(normaliseIndicatorValue('IP', ' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(normaliseIndicatorValue('IP', '2001:DB8:0:0:0:0:0:1/64')).toBe('2001:db8::1/64');
    expect(normaliseIndicatorValue('DOMAIN', 'Evil.Example.')).toBe('evil.example');
    expect(normaliseIndicatorValue('URL', 'HTTPS://Evil.Example/Path?q=1')).toBe(
      'https://evil.example/Path?q=1',
    );
    expect(normaliseIndicatorValue('HASH', 'AB'.repeat(64))).toBe('ab'.repeat(64));
    expect(normaliseIndicatorValue('EMAIL', 'Fraud@Evil.Example')).toBe('fraud@evil.example');
  });

  it('refuses values that are not of the type', () => {
    expect(normaliseIndicatorValue('IP', '203.0.113.0/33')).toBeNull();
    expect(normaliseIndicatorValue('IP', 'evil.example')).toBeNull();
    expect(normaliseIndicatorValue('DOMAIN', '203.0.113.7')).toBeNull();
    expect(normaliseIndicatorValue('DOMAIN', '-bad-.example')).toBeNull();
    expect(normaliseIndicatorValue('URL', 'javascript:alert(1)')).toBeNull();
    expect(normaliseIndicatorValue('HASH', 'ab'.repeat(20) + 'a')).toBeNull();
    expect(normaliseIndicatorValue('EMAIL', 'no-at-sign')).toBeNull();
    expect(normaliseIndicatorValue('DOMAIN', '')).toBeNull();
  });
});
