// Builds the web chat (web/) into web/dist/, which `parley serve` answers at `/`.
// `--if-vite-installed` (npm install's postinstall) skips the build, saying so, where Vite is not
// installed (a production install without devDependencies): `parley serve` then says it is missing.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CONFIG = path.resolve(import.meta.dirname, '../web/vite.config.ts');

export async function buildWebApp(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: CONFIG, logLevel: 'warn' });
}

async function viteInstalled(): Promise<boolean> {
  try {
    await import('vite');
    return true;
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--if-vite-installed') && !(await viteInstalled())) {
    console.log('vite is not installed (a production install): the web chat is not built; `npm run build:web` builds it.');
  } else {
    await buildWebApp();
    console.log('web chat built into web/dist/');
  }
}
