import type { Logger } from 'pino';
import type { Module } from '../lifecycle/module.ts';
import { openDatabase, type Database } from './database.ts';
import { databaseTarget, type DatabaseSettings } from './settings.ts';

/** PostgreSQL (DATABASE_URL) or the embedded PGlite, opened and migrated at start. */
export class DatabaseModule implements Module {
  readonly name = 'database';
  private opened: Database | null = null;

  constructor(
    private readonly settings: DatabaseSettings,
    private readonly logger: Logger,
  ) {}

  get db(): Database {
    if (!this.opened) throw new Error('the database is not started');
    return this.opened;
  }

  async start(): Promise<void> {
    const db = await openDatabase(databaseTarget(this.settings), {
      onAbandonedConnections: (count) =>
        this.logger.warn({ count }, 'database connections still checked out at shutdown were ended (their holders had stopped waiting for them)'),
    });
    try {
      await db.migrate();
    } catch (error) {
      await db.close();
      throw error;
    }
    this.opened = db;
  }

  async stop(): Promise<void> {
    await this.opened?.close();
  }
}
