import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importProblems } from '../../scripts/import-graph.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('the import graph of src/', () => {
  it('has no file that reaches itself through imports, and no folder that does (through any number of others)', () => {
    expect(importProblems(SRC)).toEqual({ fileCycles: [], folderCycles: [] });
  });

  describe('the check itself', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'parley-imports-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    /** Each case reads a source tree of its own. */
    const tree = (name: string) => path.join(root, name);
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };

    it('finds a file cycle through type-only, re-export and dynamic imports, and a folder tie', () => {
      write('pair/a/one.ts', "import type { Two } from './two.ts';\nexport type One = Two;\n");
      write('pair/a/two.ts', "export { three } from '../b/three.ts';\nexport type Two = string;\n");
      write('pair/b/three.ts', "export const three = () => import('../a/one.ts');\n");
      write('pair/b/alone.ts', "import '../c/side.ts';\n");
      write('pair/c/side.ts', 'export {};\n');
      write('pair/c/side.test.ts', "import '../b/alone.ts';\n");
      expect(importProblems(tree('pair'))).toEqual({
        fileCycles: [['a/one.ts', 'a/two.ts', 'b/three.ts']],
        folderCycles: [['a', 'b']],
      });
    });

    it('finds three folders that import each other in a ring, though no two import each other', () => {
      const inRing = (file: string, text: string) => write(path.join('ring', file), text);
      inRing('p/one.ts', "import type { Two } from '../q/two.ts';\nexport type One = Two;\n");
      inRing('q/two.ts', "import type { Three } from '../r/three.ts';\nexport type Two = Three;\n");
      inRing('r/three.ts', "import type { Lone } from '../p/lone.ts';\nexport type Three = Lone;\n");
      inRing('p/lone.ts', 'export type Lone = string;\n');
      // A folder only imported by the ring, and one only importing it, are no part of it.
      inRing('r/leaf.ts', "import '../s/below.ts';\n");
      inRing('s/below.ts', 'export {};\n');
      inRing('above.ts', "import './p/one.ts';\n");
      expect(importProblems(tree('ring'))).toEqual({ fileCycles: [], folderCycles: [['p', 'q', 'r']] });
    });
  });
});
