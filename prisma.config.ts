import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { defineConfig } from 'prisma/config';

// The JS schema engine (WebAssembly) works offline; the native one Prisma would download does not.
// Only `prisma generate` and `prisma migrate diff` are used, so an in-memory PGlite suffices here;
// migrations are applied by src/db/migrator.ts.
export default defineConfig({
  engine: 'js',
  experimental: { adapter: true },
  schema: 'prisma/schema.prisma',
  // pglite-prisma-adapter bundles an older copy of the adapter typings; the runtime contract is the same.
  adapter: async () => new PrismaPGlite(new PGlite()) as never,
});
