import { createHash, randomBytes } from 'node:crypto';

/** A random secret for cookies and links: 32 bytes, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored only as this hash, so a leaked table opens nothing. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
