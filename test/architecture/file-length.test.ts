import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** The most lines a file of src/ may have: past it, a file holds more than one responsibility. */
const MAX_LINES = 300;

/**
 * TEMPORARY: files over the limit while the turn pipeline is being rewritten (issue 34); the
 * rewrite splits them. Remove each entry when its file is split: the test fails on an entry whose
 * file is gone or back within the limit, so none outlives its reason.
 */
const OVER_THE_LIMIT_UNTIL_THE_PIPELINE_REWRITE: ReadonlySet<string> = new Set([
  'recording/conversation-log.ts',
  'runtime/agent-runtime.ts',
]);

/** Source files of src/: no generated code, no tests. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === '__tests__' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Lines as `wc -l` counts them (a last line without its newline counts too). */
function lineCount(text: string): number {
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Each file over `max` lines that the allow-list does not name, and each allow-list entry that no longer needs to be there. */
function lengthProblems(files: { name: string; text: string }[], max: number, allowed: ReadonlySet<string>): string[] {
  const over = new Map(files.filter(({ text }) => lineCount(text) > max).map(({ name, text }) => [name, lineCount(text)]));
  return [
    ...[...over].filter(([name]) => !allowed.has(name)).map(([name, lines]) => `${name} has ${lines} lines (at most ${max})`),
    ...[...allowed].filter((name) => !over.has(name)).map((name) => `${name} is allowed over ${max} lines but is not: remove it from the list`),
  ].sort();
}

describe('the length of the files of src/', () => {
  it(`has no file over ${MAX_LINES} lines outside generated code and tests`, () => {
    const files = sourceFiles(SRC).map((file) => ({ name: path.relative(SRC, file), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(lengthProblems(files, MAX_LINES, OVER_THE_LIMIT_UNTIL_THE_PIPELINE_REWRITE)).toEqual([]);
  });

  it('the check finds a long file, spares an allowed one, and finds an allowed one that is short again', () => {
    const lines = (count: number) => 'x\n'.repeat(count);
    const files = [
      { name: 'short.ts', text: lines(3) },
      { name: 'exact.ts', text: `${lines(2)}x` },
      { name: 'long.ts', text: lines(4) },
      { name: 'allowed.ts', text: lines(5) },
      { name: 'fixed.ts', text: lines(1) },
    ];
    expect(lengthProblems(files, 3, new Set(['allowed.ts', 'fixed.ts']))).toEqual([
      'fixed.ts is allowed over 3 lines but is not: remove it from the list',
      'long.ts has 4 lines (at most 3)',
    ]);
  });
});
