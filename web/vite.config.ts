import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

// The reference web chat, built into static files that `parley serve` answers at `/`.
// Vite 8 compiles TSX itself (oxc); React's automatic runtime needs no plugin.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  // @parley/client from its sources (its `@parley/source` export condition, as in tsconfig.json):
  // the chat is built on the client as it is in this checkout, never on a stale packages/client/dist.
  resolve: { conditions: ['@parley/source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One script and one stylesheet from the server's origin: nothing inline, so the page's
    // Content-Security-Policy needs no 'unsafe-inline'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // One script by design (above); the Markdown renderer's highlighter (its common languages) makes it ~800 kB.
    chunkSizeWarningLimit: 1000,
  },
  logLevel: 'warn',
});
