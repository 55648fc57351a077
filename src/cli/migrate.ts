import { loadConfig, type Config } from '../config.ts';
import { printLine, type Command } from './command.ts';

export const migrateCommand: Command = {
  name: 'migrate',
  synopsis: 'migrate',
  summary: 'Apply pending database migrations.',
  flags: {},
  run: () => migrateDatabase(loadConfig(process.env)),
};

function describeDatabase(config: Config): string {
  return config.DATABASE_URL ? 'the PostgreSQL database (DATABASE_URL)' : `the embedded database in ${config.PARLEY_DATA_DIR}`;
}

async function migrateDatabase(config: Config): Promise<number> {
  const [{ openDatabase }, { databaseTarget }] = await Promise.all([
    import('../db/database.ts'),
    import('../db/settings.ts'),
  ]);
  const db = await openDatabase(databaseTarget(config));
  try {
    const applied = await db.migrate();
    if (applied.length === 0) {
      printLine('Database is up to date.');
    } else {
      printLine(`Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${describeDatabase(config)}:`);
      for (const name of applied) printLine(`  ${name}`);
    }
  } finally {
    await db.close();
  }
  return 0;
}
