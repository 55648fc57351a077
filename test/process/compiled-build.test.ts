import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` (node bin/parley.js serve) runs the compiled build in dist/ and nothing else: no
// TypeScript loader, no source file. The rest of the suite runs the CLI from the sources.

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'parley-compiled-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A module-resolution hook that writes every module URL the process loads, one a line, to `log`. */
function writeProbe(log: string): string {
  const hooks = path.join(scratch, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  const probe = path.join(scratch, 'probe.mjs');
  writeFileSync(
    probe,
    `import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
appendFileSync(${JSON.stringify(log)}, 'execArgv ' + JSON.stringify(process.execArgv) + '\\n');
register(${JSON.stringify(pathToFileURL(hooks).href)});
`,
  );
  return probe;
}

describe('the compiled build', { timeout: 180_000 }, () => {
  it('`node bin/parley.js serve` runs dist/ with no TypeScript loader and no .ts module', async () => {
    // A current build first: this case is about what a started server loads; rebuilding on a start
    // is the next cases' subject (and its compiler would be traced by the probe too).
    await run(process.execPath, ['--input-type=module', '-e', "await (await import('./scripts/build-server.js')).ensureCurrentBuild()"], { cwd: ROOT });
    const log = path.join(scratch, 'modules.log');
    const probe = writeProbe(log);
    const dataDir = path.join(scratch, 'data');
    const inherited = { ...process.env };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS']) delete inherited[name];
    const child = spawn(process.execPath, ['--import', pathToFileURL(probe).href, 'bin/parley.js', 'serve'], {
      cwd: ROOT,
      env: { ...inherited, PARLEY_DATA_DIR: dataDir, PORT: '0', PARLEY_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)));
    // bin/parley.js builds dist/ first when the sources changed since the last build.
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        stdout += chunk;
        if (/GraphiQL:\s+http/.test(stdout)) resolve();
      });
      void exited.then((how) => reject(new Error(`${how} before it was ready:\n${stderr}`)));
    });
    expect(stdout).toContain('Parley is running.');
    child.kill('SIGTERM');
    expect(await exited, stderr).toBe('exit 0');

    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const execArgv = JSON.parse(lines.find((line) => line.startsWith('execArgv '))!.slice('execArgv '.length)) as string[];
    expect(execArgv).toEqual(['--import', pathToFileURL(probe).href]);
    const modules = lines.filter((line) => !line.startsWith('execArgv '));
    const dist = pathToFileURL(path.join(ROOT, 'dist')).href;
    expect(modules).toContain(`${dist}/cli/main.js`);
    // The HTTP server and the Prisma client generated into src/generated ran compiled too.
    expect(modules.some((url) => url.startsWith(`${dist}/server/`))).toBe(true);
    expect(modules).toContain(`${dist}/generated/prisma/client.js`);
    expect(modules.filter((url) => /\/node_modules\/tsx\/|\.[cm]?tsx?$/.test(url))).toEqual([]);
    expect(modules.filter((url) => url.startsWith(pathToFileURL(path.join(ROOT, 'src')).href))).toEqual([]);
  });
});

describe('the build is never older than the sources', { timeout: 180_000 }, () => {
  // scripts/build-server.js in a small project of its own: a few sources, the repository's compiler.
  const project = path.join(scratch, 'project');
  const builder = path.join(project, 'scripts/build-server.js');
  mkdirSync(path.join(project, 'scripts'), { recursive: true });
  mkdirSync(path.join(project, 'src/lib'), { recursive: true });
  copyFileSync(path.join(ROOT, 'scripts/build-server.js'), builder);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true, types: [] } }),
  );
  copyFileSync(path.join(ROOT, 'tsconfig.build.json'), path.join(project, 'tsconfig.build.json'));
  const source = (file: string, text: string) => writeFileSync(path.join(project, 'src', file), text);
  source('main.ts', "import { greeting } from './lib/greeting.ts';\nconsole.log(greeting);\n");
  source('lib/greeting.ts', "export const greeting: string = 'one';\n");

  /** ensureCurrentBuild() in a child process, as bin/parley.js calls it: whether it built. */
  const ensure = async () => {
    const script = `const { ensureCurrentBuild } = await import(${JSON.stringify(pathToFileURL(builder).href)}); console.log(await ensureCurrentBuild());`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    return stdout.trim() === 'true';
  };
  const output = async () => (await run(process.execPath, ['dist/main.js'], { cwd: project })).stdout.trim();

  it('builds when there is no build, then only when the sources changed, leaving nothing of a deleted one', async () => {
    source('lib/old.ts', 'export {};\n');
    expect(await ensure()).toBe(true);
    expect(await output()).toBe('one');
    expect(existsSync(path.join(project, 'dist/lib/old.js'))).toBe(true);
    expect(await ensure()).toBe(false);

    source('lib/greeting.ts', "export const greeting: string = 'two';\n");
    rmSync(path.join(project, 'src/lib/old.ts'));
    expect(await ensure()).toBe(true);
    expect(await output()).toBe('two');
    expect(existsSync(path.join(project, 'dist/lib/old.js'))).toBe(false);
  });

  it('builds once when several processes start at once', async () => {
    source('lib/greeting.ts', "export const greeting: string = 'three';\n");
    const built = await Promise.all([ensure(), ensure(), ensure()]);
    expect(built.filter(Boolean)).toHaveLength(1);
    expect(await output()).toBe('three');
  });

  it('keeps the previous build when a build fails', async () => {
    writeFileSync(path.join(project, 'tsconfig.build.json'), '{ "extends": "./tsconfig.json", "compilerOptions": { "noEmit": false, "noCheck": true, "rootDir": "src", "outDir": "dist", "rewriteRelativeImportExtensions": true, "target": "nonsense" }, "include": ["src"] }');
    await expect(ensure()).rejects.toThrow(/tsc failed/);
    expect(await output()).toBe('three');
    copyFileSync(path.join(ROOT, 'tsconfig.build.json'), path.join(project, 'tsconfig.build.json'));
  });
});
