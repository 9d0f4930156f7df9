/** Base32 (RFC 4648) secret of at least 16 characters, as authenticator apps expect. */
const SECRET_PATTERN = /^[A-Z2-7]{16,}=*$/;

/** The secret of an otpauth:// URI, or null when the URI does not carry a usable one. */
export function totpSecretOf(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'otpauth:') return null;
  const secret = url.searchParams.get('secret')?.toUpperCase() ?? '';
  return SECRET_PATTERN.test(secret) ? secret.replace(/=+$/, '') : null;
}

/** The secret in groups of 4 for typing it by hand: "JBSW Y3DP EHPK 3PXP". */
export function groupSecret(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}
