import { describe, expect, it } from 'vitest';
import { samlRedirectUrl } from './saml';

const base = { ssoName: 'Okta', samlRequest: 'fZJN+b/c=', email: 'ada+soc@bank.example' };

describe('samlRedirectUrl', () => {
  it('appends the encoded SAML request with ? or &', () => {
    expect(samlRedirectUrl({ ...base, ssoUrl: 'https://idp.example/sso' })).toBe(
      'https://idp.example/sso?SAMLRequest=fZJN%2Bb%2Fc%3D',
    );
    expect(samlRedirectUrl({ ...base, ssoUrl: 'https://idp.example/sso?tenant=7' })).toBe(
      'https://idp.example/sso?tenant=7&SAMLRequest=fZJN%2Bb%2Fc%3D',
    );
  });

  it.each(['Azure AD', 'Microsoft ENTRA ID', 'corp-azure'])('adds a login hint for %s', (ssoName) => {
    expect(samlRedirectUrl({ ...base, ssoName, ssoUrl: 'https://login.example/saml2' })).toBe(
      'https://login.example/saml2?SAMLRequest=fZJN%2Bb%2Fc%3D&login_hint=ada%2Bsoc%40bank.example',
    );
  });

  it('refuses an address that is not http(s)', () => {
    expect(samlRedirectUrl({ ...base, ssoUrl: 'javascript:alert(1)' })).toBeNull();
    expect(samlRedirectUrl({ ...base, ssoUrl: '/relative' })).toBeNull();
  });
});
