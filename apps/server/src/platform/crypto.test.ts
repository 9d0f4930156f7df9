import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretKey } from './crypto';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('secrets at rest', () => {
  const box = createSecretBox(Buffer.alloc(32, 7));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses a tampered secret and one sealed under another key', () => {
    const sealed = box.seal('client-secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
  });

  it('uses SECRET_KEY when given, else generates one key into the data folder and keeps it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-key-'));
    folders.push(dataDir);
    expect((await loadSecretKey('ab'.repeat(32), dataDir)).toString('hex')).toBe('ab'.repeat(32));
    const generated = await loadSecretKey(undefined, dataDir);
    expect(generated).toHaveLength(32);
    expect(await loadSecretKey(undefined, dataDir)).toEqual(generated);
    expect((await readFile(path.join(dataDir, 'secret.key'), 'utf8')).trim()).toBe(generated.toString('hex'));
    expect((await stat(path.join(dataDir, 'secret.key'))).mode & 0o777).toBe(0o600);
  });
});
