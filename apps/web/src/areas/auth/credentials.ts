import { forgotPasswordRequestSchema } from '@vigil/contracts';

/** `Authorization` value for the password login: Basic base64 of "email:password", encoded as UTF-8. */
export function basicAuthorization(email: string, password: string): string {
  const bytes = new TextEncoder().encode(`${email}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** The e-mail rule the server applies to login and forgot-password addresses. */
export function isValidEmail(value: string): boolean {
  return forgotPasswordRequestSchema.safeParse({ email: value.trim() }).success;
}
