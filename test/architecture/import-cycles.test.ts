import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importProblems } from '../../scripts/import-graph.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('the import graph of src/', () => {
  it('has no file that reaches itself through imports, and no two folders that import each other', () => {
    expect(importProblems(SRC)).toEqual({ fileCycles: [], folderTies: [] });
  });

  describe('the check itself', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'parley-imports-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };

    it('finds a file cycle through type-only, re-export and dynamic imports, and a folder tie', () => {
      write('a/one.ts', "import type { Two } from './two.ts';\nexport type One = Two;\n");
      write('a/two.ts', "export { three } from '../b/three.ts';\nexport type Two = string;\n");
      write('b/three.ts', "export const three = () => import('../a/one.ts');\n");
      write('b/alone.ts', "import '../c/side.ts';\n");
      write('c/side.ts', 'export {};\n');
      write('c/side.test.ts', "import '../b/alone.ts';\n");
      expect(importProblems(root)).toEqual({
        fileCycles: [['a/one.ts', 'a/two.ts', 'b/three.ts']],
        folderTies: [['a', 'b']],
      });
    });
  });
});
