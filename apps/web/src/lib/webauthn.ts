import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { z } from 'zod';

// The options are checked by the browser and @simplewebauthn; here they only need their challenge.
const hasChallenge = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { challenge?: unknown }).challenge === 'string';

/** Answer of .../webauthn/begin when signing in. */
export const webauthnRequestOptionsSchema = z.object({
  options: z.custom<PublicKeyCredentialRequestOptionsJSON>(hasChallenge),
});

/** Answer of .../webauthn/register/begin. */
export const webauthnCreationOptionsSchema = z.object({
  options: z.custom<PublicKeyCredentialCreationOptionsJSON>(hasChallenge),
});

/**
 * True when the user dismissed or let the browser's security-key prompt time out (or a newer prompt
 * replaced it); spec 1 section 4.2 ignores these silently.
 */
export function isCeremonyCancelled(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'NotAllowedError');
}
