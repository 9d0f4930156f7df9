import { describe, expect, it } from 'vitest';
import { checkPasswordRules } from './auth';

describe('checkPasswordRules', () => {
  const user = { email: 'jordan.reyes@firstharbor.example', firstName: 'Jordan', lastName: 'Reyes' };

  it('accepts a long, varied password', () => {
    expect(checkPasswordRules('tidal-Lantern-93-orbit', user)).toBeNull();
  });

  it.each([
    ['', 'ERROR_REQUIRED'],
    ['short1!', 'PASSWORDS_MUST_VALIDATE_LENGTH'],
    ['x'.repeat(4097), 'PASSWORDS_MUST_VALIDATE_LENGTH'],
    ['tidal\u0007lantern', 'PASSWORD_NOT_PRINTABLE'],
    ['my-jordan-pass!', 'PASSWORD_CONTAINS_USER_DATA'],
    ['REYES-river-22', 'PASSWORD_CONTAINS_USER_DATA'],
    ['Jordan.Reyes@FirstHarbor.example!', 'PASSWORD_CONTAINS_USER_DATA'],
    ['tidal-aaaa-lantern', 'PASSWORD_REPEATED_CHARACTERS'],
    ['tidal-1234-lantern', 'PASSWORD_SEQUENTIAL_CHARACTERS'],
    ['tidal-LKJI-lantern', 'PASSWORD_SEQUENTIAL_CHARACTERS'],
  ])('refuses %j with %s', (password, key) => {
    expect(checkPasswordRules(password, user)).toBe(key);
  });

  it('allows short runs and printable non-ASCII characters', () => {
    expect(checkPasswordRules('abc-xx-Zürich-grün', user)).toBeNull();
  });
});
