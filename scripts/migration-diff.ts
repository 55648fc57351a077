// Writes the next SQL migration: the difference between prisma/schema.prisma at a git revision
// (default HEAD) and the working copy, as `prisma migrate diff` prints it (offline, no database).
//   npm run db:diff -- <name> [--from <git-rev>]
// The diff is Prisma 6.19's (the workspace packages/migration-diff): Prisma 7's `migrate diff` runs a
// native schema engine that is no npm package (docs/architecture.md, "Why these choices").
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [name, flag, rev = 'HEAD'] = process.argv.slice(2);
if (!name || !/^[a-z0-9_]+$/.test(name) || (flag !== undefined && flag !== '--from')) {
  console.error('usage: npm run db:diff -- <snake_case_name> [--from <git-rev>]');
  process.exit(2);
}

// Prisma 6.19 requires a datasource `url`, which Prisma 7 forbids in the schema; the diff reads no
// database, so any URL does.
const forPrisma6 = (schema: string) =>
  schema.replace(/^(datasource\s+\w+\s*\{)([^}]*)\}/m, (block, head: string, body: string) =>
    /^\s*url\s*=/m.test(body) ? block : `${head}\n  url = "postgresql://unused"${body}}`,
  );
const work = mkdtempSync(path.join(tmpdir(), 'parley-diff-'));
const previous = path.join(work, 'previous.prisma');
const next = path.join(work, 'next.prisma');
writeFileSync(previous, forPrisma6(execFileSync('git', ['show', `${rev}:prisma/schema.prisma`], { encoding: 'utf8' })));
writeFileSync(next, forPrisma6(readFileSync('prisma/schema.prisma', 'utf8')));

const diffPackage = path.resolve('packages/migration-diff');
const prisma6 = path.join(path.dirname(createRequire(path.join(diffPackage, 'package.json')).resolve('prisma/package.json')), 'build/index.js');
const sql = execFileSync(
  process.execPath,
  [prisma6, 'migrate', 'diff', '--config', path.join(diffPackage, 'prisma.config.ts'), '--from-schema-datamodel', previous, '--to-schema-datamodel', next, '--script'],
  // engine type "client": Prisma 6.19 would otherwise fetch a native query engine it does not use here.
  { encoding: 'utf8', env: { ...process.env, PARLEY_DIFF_SCHEMA: next, PRISMA_CLIENT_ENGINE_TYPE: 'client', CHECKPOINT_DISABLE: '1' } },
);
if (!/\S/.test(sql.replace(/^--.*$/gm, ''))) {
  console.log('No schema changes since', rev);
  process.exit(0);
}
const existing = readdirSync('prisma/migrations').filter((entry) => /^\d{4}_/.test(entry)).sort();
const nextNumber = String(Number(existing.at(-1)?.slice(0, 4) ?? '0') + 1).padStart(4, '0');
const dir = path.join('prisma/migrations', `${nextNumber}_${name}`);
mkdirSync(dir);
writeFileSync(path.join(dir, 'migration.sql'), sql);
console.log(`wrote ${dir}/migration.sql`);
