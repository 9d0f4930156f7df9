import { describe, expect, it } from 'vitest';
import { basicAuthorization, isValidEmail } from './credentials';

const decode = (header: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(header.replace(/^Basic /, '')), (c) => c.charCodeAt(0)));

describe('basicAuthorization', () => {
  it('encodes e-mail and password as UTF-8 base64', () => {
    expect(basicAuthorization('ada@bank.example', 'secret')).toBe(`Basic ${btoa('ada@bank.example:secret')}`);
  });

  it('keeps characters outside Latin-1 and colons in the password', () => {
    const header = basicAuthorization('zoë@bank.example', 'pässwörd:€🔑');
    expect(decode(header)).toBe('zoë@bank.example:pässwörd:€🔑');
  });
});

describe('isValidEmail', () => {
  it('accepts addresses and refuses the rest', () => {
    expect(isValidEmail('ada@bank.example')).toBe(true);
    expect(isValidEmail(' ada@bank.example ')).toBe(true);
    expect(isValidEmail('ada')).toBe(false);
    expect(isValidEmail('')).toBe(false);
  });
});
