import { describe, expect, it } from 'vitest';
import { groupSecret, totpSecretOf } from './totp';

describe('totpSecretOf', () => {
  it('reads the base32 secret of an otpauth URI', () => {
    expect(totpSecretOf('otpauth://totp/Vigil:ada%40bank.example?secret=JBSWY3DPEHPK3PXP&issuer=Vigil')).toBe(
      'JBSWY3DPEHPK3PXP',
    );
    expect(totpSecretOf('otpauth://totp/Vigil?issuer=Vigil&secret=jbswy3dpehpk3pxpjbswy3dp')).toBe(
      'JBSWY3DPEHPK3PXPJBSWY3DP',
    );
  });

  it.each([
    ['a short secret', 'otpauth://totp/Vigil?secret=JBSWY3DPEHPK3PX'],
    ['no secret', 'otpauth://totp/Vigil?issuer=Vigil'],
    ['characters outside base32', 'otpauth://totp/Vigil?secret=JBSWY3DPEHPK3PX1'],
    ['another scheme', 'https://example.com/?secret=JBSWY3DPEHPK3PXP'],
    ['no URI at all', 'JBSWY3DPEHPK3PXP'],
  ])('refuses %s', (_what, uri) => {
    expect(totpSecretOf(uri)).toBeNull();
  });
});

describe('groupSecret', () => {
  it('shows the secret in groups of 4', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('JBSWY3DPEHPK3PXPAB')).toBe('JBSW Y3DP EHPK 3PXP AB');
    expect(groupSecret('')).toBe('');
  });
});
