import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The reference web chat, built into static files that `parley serve` answers at `/`.
// Vite 8 compiles TSX itself (oxc); React's automatic runtime needs no plugin.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One script and one stylesheet from the server's origin: nothing inline, so the page's
    // Content-Security-Policy needs no 'unsafe-inline'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
