/** Providers that accept a login hint, so that the user does not type the e-mail a second time. */
const LOGIN_HINT_PROVIDER = /azure|entra/i;

export interface SamlRedirect {
  ssoName: string;
  ssoUrl: string;
  samlRequest: string;
  email: string;
}

/**
 * The identity provider's address with the SAML request (spec 1 section 2.2), and a login hint for
 * Azure / Entra ID. Null unless the provider's address is an http(s) URL, so that nothing else (a
 * javascript: address, say) is ever opened.
 */
export function samlRedirectUrl({ ssoName, ssoUrl, samlRequest, email }: SamlRedirect): string | null {
  let url: URL;
  try {
    url = new URL(ssoUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  let address = `${ssoUrl}${ssoUrl.includes('?') ? '&' : '?'}SAMLRequest=${encodeURIComponent(samlRequest)}`;
  if (LOGIN_HINT_PROVIDER.test(ssoName)) address += `&login_hint=${encodeURIComponent(email)}`;
  return address;
}
