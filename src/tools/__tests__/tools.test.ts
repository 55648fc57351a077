import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelToolName } from '../../runtime/tools.ts';
import { approvalOf, validApprovals } from '../approvals.ts';
import { SecretBox, secretKeyFor } from '../secrets.ts';
import { cut } from '../tool-output.ts';
import { RefusedUrl, UrlGuard } from '../url-guard.ts';

const guard = (allowedHosts: string[] = []) => new UrlGuard({ allowedHosts, maxRequestBytes: 1_000, maxResponseBytes: 1_000 });

describe('UrlGuard', () => {
  it('takes http and https only, without credentials in the URL', async () => {
    await expect(guard().check('ftp://example.com/')).rejects.toThrow('must start with http:// or https://');
    await expect(guard().check('file:///etc/passwd')).rejects.toThrow(RefusedUrl);
    await expect(guard().check('http://user:pw@8.8.8.8/')).rejects.toThrow('must not carry credentials');
    await expect(guard().check('not a url')).rejects.toThrow('is not a URL');
  });

  it('refuses loopback, private, link-local and unique-local addresses until they are allowed', async () => {
    for (const url of ['http://127.0.0.1:9/', 'http://10.1.2.3/', 'http://192.168.0.1/', 'http://169.254.169.254/', 'http://[::1]/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost/']) {
      await expect(guard().check(url), url).rejects.toThrow(/loopback, private, link-local or unique-local/);
    }
    await expect(guard(['127.0.0.1']).check('http://127.0.0.1:9/')).resolves.toBeInstanceOf(URL);
    await expect(guard(['10.0.0.0/8']).check('http://10.1.2.3/')).resolves.toBeInstanceOf(URL);
    await expect(guard(['localhost']).check('http://localhost/')).resolves.toBeInstanceOf(URL);
    await expect(guard(['10.0.0.0/8']).check('http://192.168.0.1/')).rejects.toThrow(RefusedUrl);
    await expect(guard().check('http://8.8.8.8/')).resolves.toBeInstanceOf(URL);
  });

  it('its fetch refuses a private address too (the connection goes to the address it checked)', async () => {
    await expect(guard().fetch()('http://127.0.0.1:9/')).rejects.toThrow(/loopback/);
    await expect(guard().fetch()('http://8.8.8.8/', { method: 'POST', body: 'x'.repeat(2_000) })).rejects.toThrow('larger than 1000 bytes');
  });
});

describe('SecretBox', () => {
  it('seals with AES-256-GCM: the value is not in the sealed text, and a changed text does not open', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal('Bearer top-secret');
    expect(sealed).not.toContain('top-secret');
    expect(box.open(sealed)).toBe('Bearer top-secret');
    expect(box.seal('Bearer top-secret')).not.toBe(sealed);
    const [version, nonce, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64');
    flipped[0]! ^= 1;
    expect(() => box.open([version, nonce, tag, flipped.toString('base64')].join('.'))).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
  });

  it('the embedded mode makes a key file with mode 0600 once; PostgreSQL without PARLEY_SECRET_KEY has none', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-key-'));
    try {
      const key = secretKeyFor({}, { dataDir });
      expect(key).toHaveLength(32);
      expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
      expect(secretKeyFor({}, { dataDir })!.equals(key!)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(secretKeyFor({}, null)).toBeNull();
    expect(new SecretBox(null).canStore).toBe(false);
    expect(secretKeyFor({ PARLEY_SECRET_KEY: 'ab'.repeat(32) }, null)).toEqual(Buffer.alloc(32, 0xab));
  });
});

describe('approvals and names', () => {
  it('a tool’s own rule wins over its server’s; without one a tool asks', () => {
    const rules = validApprovals([
      { tool: 'db/*', approval: 'NEVER' },
      { tool: 'db/drop', approval: 'ALWAYS' },
    ]);
    expect(approvalOf(rules, 'db/read')).toBe('NEVER');
    expect(approvalOf(rules, 'db/drop')).toBe('ALWAYS');
    expect(approvalOf(rules, 'web/get')).toBe('ALWAYS');
    expect(() => validApprovals([{ tool: 'approve_action', approval: 'NEVER' }])).toThrow('is not a tool of a tool server');
  });

  it('model-facing names keep to what providers accept', () => {
    expect(modelToolName('db/read.rows')).toBe('db__read_rows');
    const long = modelToolName(`db/${'x'.repeat(100)}`);
    expect(long).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(modelToolName(`db/${'x'.repeat(100)}y`)).not.toBe(long);
  });

  it('output beyond the limit is cut on a character boundary and marked', () => {
    expect(cut('short', 10)).toEqual({ text: 'short', truncated: false });
    const result = cut('ééééé', 3);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe('é\n[output cut: 10 bytes, the first 3 kept]');
  });
});
