import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
// Prisma 6.19's config (this package's own `prisma`), read only by scripts/migration-diff.ts.
import { defineConfig } from 'prisma/config';

// Prisma 6.19 diffs with its JS schema engine (WebAssembly, inside its npm package); Prisma 7 has
// only the native one, which its @prisma/engines postinstall would download from Prisma's own host.
// A diff of two schema files reads no database: the in-memory PGlite only satisfies the engine.
export default defineConfig({
  engine: 'js',
  experimental: { adapter: true },
  // The diff's target schema, with the datasource `url` Prisma 6.19 requires (Prisma 7 forbids it).
  schema: process.env.PARLEY_DIFF_SCHEMA,
  adapter: async () => new PrismaPGlite(new PGlite()) as never,
});
