import { defineConfig } from 'prisma/config';

// Prisma 7's CLI is used only for `prisma generate` (npm run generate). Its migrate commands run a
// native schema engine that is no npm package: `npm run db:diff` uses Prisma 6.19's JS engine
// (packages/migration-diff), and migrations are applied by src/db/migrator.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
});
