#!/usr/bin/env node
// Runs the compiled build (dist/), with no TypeScript loader in the process. npm install builds it;
// a build older than the sources is rebuilt before it is run, never run. `npm run dev` runs the
// sources (tsx) and restarts on changes.
import { ensureCurrentBuild } from '../scripts/build-server.js';

try {
  await ensureCurrentBuild();
} catch (error) {
  process.stderr.write(`parley: cannot build the server: ${error.message}\nRun \`npm run build\` (or \`npm install\`) and try again.\n`);
  process.exit(1);
}
// dist/ has source maps; Node applies them with NODE_OPTIONS=--enable-source-maps (off by default:
// they cost start time and memory).
await import('../dist/cli/main.js');
