import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

describe('parley price', { timeout: 120_000 }, () => {
  let dataDir: string;
  const env = () => ({ PARLEY_DATA_DIR: dataDir, PARLEY_CURRENCY: 'EUR' });

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-cli-price-'));
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets a model’s price and lists it, with a named model’s default beside it', async () => {
    const set = await runCli(['price', 'set', 'demo:fast', '--input', '0.5', '--output', '1.25', '--reasoning', '4'], env());
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe('demo:fast  EUR per million tokens: input 0.50, output 1.25, reasoning 4.00  (operator)\n');

    const listed = await runCli(['price', 'list', '--model', 'demo:default'], env());
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual([
      'demo:fast  EUR per million tokens: input 0.50, output 1.25, reasoning 4.00  (operator)',
      'demo:default  EUR per million tokens: input 1.00, output 2.00, cached input 0.10, cache writes 1.25, reasoning 3.00  (demo)',
    ]);
  });

  it('refuses a bad price or an unknown model, saying which, and changes nothing', async () => {
    const negative = await runCli(['price', 'set', 'demo:fast', '--input=-1', '--output', '1'], env());
    expect(negative.code).not.toBe(0);
    expect(negative.stderr).toContain('inputPerMillion');
    const unknown = await runCli(['price', 'set', 'nowhere:model', '--input', '1', '--output', '1'], env());
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('not configured');
    const listed = await runCli(['price', 'list'], env());
    expect(listed.stdout).toContain('input 0.50');
    expect(listed.stdout).not.toContain('nowhere');
  });
});
