import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// @parley/client as a customer gets it: `npm pack` (which builds it), the tarball installed into a
// project outside this repository, imported by plain Node, type-checked by tsc and bundled by Vite.
// Offline: the tarball is installed from its file and its peers by path from this repository's
// node_modules, so npm never asks a registry.

const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGE = path.join(ROOT, 'packages/client');
const MODULES = path.join(ROOT, 'node_modules');
const PEERS = ['graphql', 'graphql-ws', 'ws', 'react', '@types/react', '@graphql-typed-document-node/core'];
const run = promisify(execFile);

/** The environment without npm's own variables, which `npm test` sets and would steer these runs. */
function plainEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: plainEnv(), maxBuffer: 16 * 1024 * 1024 });

describe('the packed @parley/client', { timeout: 120_000 }, () => {
  let scratch: string;
  let consumer: string;
  let packedFiles: string[];

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'parley-client-pack-'));
    // `npm pack` runs the package's prepack: a fresh build of dist/.
    const { stdout } = await npm(['pack', '--json', '--pack-destination', scratch], PACKAGE);
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    packedFiles = packed!.files.map((file) => file.path);
    consumer = path.join(scratch, 'consumer');
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
    await npm(['install', '--no-package-lock', path.join(scratch, packed!.filename), ...PEERS.map((peer) => path.join(MODULES, peer))], consumer);
  }, 120_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the compiled build: JavaScript, declarations and source maps, no TypeScript source', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/index.js.map', 'dist/react.js', 'dist/react.d.ts']));
    expect(packedFiles.filter((file) => /\.[cm]?tsx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file))).toEqual([]);
    expect(packedFiles.filter((file) => file !== 'package.json' && !file.startsWith('dist/'))).toEqual([]);
    // The maps carry the sources they map, since the sources are not shipped.
    const map = JSON.parse(readFileSync(path.join(consumer, 'node_modules/@parley/client/dist/index.js.map'), 'utf8'));
    expect(map.sourcesContent?.[0]).toContain('createParleyClient');
  });

  it('imports under plain Node, the React hooks too', async () => {
    const script = `
      import { createParleyClient, textOfParts } from '@parley/client';
      import { ParleyProvider, useThread } from '@parley/client/react';
      const client = createParleyClient({ url: 'http://127.0.0.1:9/graphql' });
      console.log(JSON.stringify([typeof createParleyClient, typeof textOfParts, typeof ParleyProvider, typeof useThread, typeof client.thread]));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual(['function', 'function', 'function', 'function', 'function']);
  });

  it('type-checks a TypeScript consumer with moduleResolution node16 and bundler', async () => {
    writeFileSync(
      path.join(consumer, 'app.ts'),
      `import { createParleyClient, textOfParts, type ThreadState } from '@parley/client';
import { useThread } from '@parley/client/react';
const client = createParleyClient({ url: 'http://localhost:4000/graphql', token: 'pky_x' });
const state: ThreadState = client.thread('VGhyZWFk').getSnapshot();
export const firstText: string = textOfParts(state.messages[0]?.parts ?? []);
// @ts-expect-error a thread id is a string
export const follow = () => useThread(42);
// @ts-expect-error the options are typed (an untyped package would accept this)
createParleyClient({ url: 42 });
`,
    );
    const check = (module: string, moduleResolution: string) => {
      const config = path.join(consumer, `tsconfig.${moduleResolution}.json`);
      writeFileSync(
        config,
        JSON.stringify({ compilerOptions: { module, moduleResolution, target: 'ES2022', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['app.ts'] }),
      );
      return run(process.execPath, [path.join(MODULES, 'typescript/bin/tsc'), '-p', config], { cwd: consumer }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
    };
    expect(await Promise.all([check('node16', 'node16'), check('esnext', 'bundler')])).toEqual(['', '']);
  });

  it('bundles into a Vite app', async () => {
    const app = path.join(consumer, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>\n');
    writeFileSync(
      path.join(app, 'main.js'),
      "import { createParleyClient } from '@parley/client';\nimport { useThread } from '@parley/client/react';\nglobalThis.parley = [createParleyClient({ url: '/graphql' }), useThread];\n",
    );
    await run(process.execPath, [path.join(MODULES, 'vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: app, env: plainEnv() });
    const assets = path.join(app, 'dist/assets');
    const bundle = readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(path.join(assets, file), 'utf8'))
      .join('\n');
    // The client's subscription document, graphql-ws (its transport) and React (its hooks) are in.
    expect(bundle).toContain('runEvents');
    expect(bundle).toContain('graphql-transport-ws');
    expect(bundle).toMatch(/react\.transitional\.element|react\.element/);
  });
});
