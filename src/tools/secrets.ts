import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyBytes } from './settings.ts';

const VERSION = 'v1';

/**
 * Header values at rest: AES-256-GCM, each value with its own nonce, stored as
 * `v1.<nonce>.<tag>.<ciphertext>` (base64). Only the tool client decrypts, right before a request.
 */
export class SecretBox {
  constructor(private readonly key: Buffer | null) {}

  get canStore(): boolean {
    return this.key !== null;
  }

  seal(plain: string): string {
    if (!this.key) throw new Error('no secret key');
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, nonce.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
  }

  open(sealed: string): string {
    if (!this.key) throw new Error('no secret key: PARLEY_SECRET_KEY is not set');
    const [version, nonce, tag, data] = sealed.split('.');
    if (version !== VERSION || !nonce || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

/**
 * The key: PARLEY_SECRET_KEY; else, embedded, a key file made once in the data folder (mode 0600);
 * an in-memory database gets a key that lives as long as it. With PostgreSQL and no key: none.
 */
export function secretKeyFor(settings: { PARLEY_SECRET_KEY?: string }, embedded: { dataDir: string } | 'memory' | null): Buffer | null {
  if (settings.PARLEY_SECRET_KEY) return keyBytes(settings.PARLEY_SECRET_KEY);
  if (embedded === 'memory') return randomBytes(32);
  if (!embedded) return null;
  const file = join(embedded.dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(embedded.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  const key = keyBytes(readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
