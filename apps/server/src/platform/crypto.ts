import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ALGORITHM = 'aes-256-gcm';
const FORMAT_VERSION = 'v1';

/** Encrypts secrets at rest (AES-256-GCM); the output carries its version, IV and tag. */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [FORMAT_VERSION, iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== FORMAT_VERSION || !iv || !tag || data === undefined)
        throw new Error('Unknown secret format');
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * The key from SECRET_KEY, or for the embedded set-up one generated once into DATA_DIR (mode 0600),
 * so secrets stay readable across restarts.
 */
export async function loadSecretKey(secretKeyHex: string | undefined, dataDir: string): Promise<Buffer> {
  if (secretKeyHex) return Buffer.from(secretKeyHex, 'hex');
  const file = path.resolve(dataDir, 'secret.key');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}
