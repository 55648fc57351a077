// Writes the next SQL migration: the difference between prisma/schema.prisma at a git revision
// (default HEAD) and the working copy, as `prisma migrate diff` prints it (offline, no database).
//   npm run db:diff -- <name> [--from <git-rev>]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [name, flag, rev = 'HEAD'] = process.argv.slice(2);
if (!name || !/^[a-z0-9_]+$/.test(name) || (flag !== undefined && flag !== '--from')) {
  console.error('usage: npm run db:diff -- <snake_case_name> [--from <git-rev>]');
  process.exit(2);
}
const previous = path.join(mkdtempSync(path.join(tmpdir(), 'parley-diff-')), 'schema.prisma');
writeFileSync(previous, execFileSync('git', ['show', `${rev}:prisma/schema.prisma`]));
const sql = execFileSync(
  'npx',
  ['prisma', 'migrate', 'diff', '--from-schema-datamodel', previous, '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
  { encoding: 'utf8' },
);
if (!/\S/.test(sql.replace(/^--.*$/gm, ''))) {
  console.log('No schema changes since', rev);
  process.exit(0);
}
const existing = readdirSync('prisma/migrations').filter((entry) => /^\d{4}_/.test(entry)).sort();
const next = String(Number(existing.at(-1)?.slice(0, 4) ?? '0') + 1).padStart(4, '0');
const dir = path.join('prisma/migrations', `${next}_${name}`);
mkdirSync(dir);
writeFileSync(path.join(dir, 'migration.sql'), sql);
console.log(`wrote ${dir}/migration.sql`);
