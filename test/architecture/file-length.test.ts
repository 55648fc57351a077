import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The server, the web chat and the packages an app installs: everything but generated code and tests. */
const SOURCE_FOLDERS = ['src', 'web/src', 'packages/client/src'];

/** The most lines a source file may have: past it, a file holds more than one responsibility. */
const MAX_LINES = 300;

/** Source files under a folder: no generated code (`generated/`, the client's `gql/`), no tests. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['generated', 'gql', '__tests__'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Lines as `wc -l` counts them (a last line without its newline counts too). */
function lineCount(text: string): number {
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Each file over `max` lines, with its length. */
function lengthProblems(files: { name: string; text: string }[], max: number): string[] {
  return files
    .map(({ name, text }) => ({ name, lines: lineCount(text) }))
    .filter(({ lines }) => lines > max)
    .map(({ name, lines }) => `${name} has ${lines} lines (at most ${max})`)
    .sort();
}

describe(`the length of the files of ${SOURCE_FOLDERS.join(', ')}`, () => {
  it(`has no file over ${MAX_LINES} lines outside generated code and tests`, () => {
    const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder))).map((file) => ({
      name: path.relative(ROOT, file),
      text: readFileSync(file, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(50);
    expect(files.some(({ name }) => name.startsWith('web/src/'))).toBe(true);
    expect(lengthProblems(files, MAX_LINES)).toEqual([]);
  });

  it('the check finds a long file, and counts a last line without its newline', () => {
    const lines = (count: number) => 'x\n'.repeat(count);
    const files = [
      { name: 'short.ts', text: lines(3) },
      { name: 'exact.ts', text: `${lines(2)}x` },
      { name: 'long.ts', text: lines(4) },
      { name: 'long-unterminated.ts', text: `${lines(3)}x` },
    ];
    expect(lengthProblems(files, 3)).toEqual(['long-unterminated.ts has 4 lines (at most 3)', 'long.ts has 4 lines (at most 3)']);
  });
});
