import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Source files of src/, without the generated code. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** `let` or `var` at a module's top level (unindented), each as `file:line`. */
function moduleLevelLets(files: { name: string; text: string }[]): string[] {
  return files.flatMap(({ name, text }) =>
    text.split('\n').flatMap((line, index) => (/^(export\s+)?(let|var)\s/.test(line) ? [`${name}:${index + 1}`] : [])),
  );
}

describe('module-level state in src/', () => {
  it('has no module-level let or var: state belongs to an object that something constructs', () => {
    const files = sourceFiles(SRC).map((file) => ({ name: path.relative(SRC, file), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(moduleLevelLets(files)).toEqual([]);
  });

  it('the check finds one, and ignores a let inside a function', () => {
    const text = 'export let counter = 0;\nfunction f() {\n  let inner = 1;\n  return inner;\n}\nvar legacy = 2;\n';
    expect(moduleLevelLets([{ name: 'x.ts', text }])).toEqual(['x.ts:1', 'x.ts:6']);
  });
});
