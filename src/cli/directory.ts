import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DirectoryService } from '../directory/directory-service.ts';
import { InvalidInputError } from '../domain/errors.ts';
import type { User } from '../generated/prisma/client.ts';
import { decodeId } from '../schema/ids.ts';

/**
 * Opens only the database and the directory service: no queue consumer, no live bus, so an
 * operator command never competes with a server for work or needs Redis.
 */
export async function withDirectory(
  config: Config,
  work: (context: { directory: DirectoryService; db: Database }) => Promise<void>,
): Promise<number> {
  const [{ AccessPolicy }, { openDatabase }, { DirectoryService }, { ModelRegistry }, { databaseTarget }, { providerSettingsFrom }] =
    await Promise.all([
      import('../auth/access.ts'),
      import('../db/database.ts'),
      import('../directory/directory-service.ts'),
      import('../models/registry.ts'),
      import('../db/settings.ts'),
      import('../models/settings.ts'),
    ]);
  const models = new ModelRegistry(providerSettingsFrom(config));
  const db = await openDatabase(databaseTarget(config));
  try {
    // Servers migrate at start too; doing it here lets a fresh data folder be set up from the CLI.
    await db.migrate();
    await work({ directory: new DirectoryService(db.prisma, new AccessPolicy(db.prisma, db.sql), models), db });
  } finally {
    await db.close();
  }
  return 0;
}

export async function findUser(directory: DirectoryService, field: string, emailOrId: string): Promise<User> {
  if (emailOrId.includes('@')) return directory.findUser(emailOrId);
  let userId: string;
  try {
    userId = decodeId(field, emailOrId, 'User');
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new InvalidInputError(field, `"${emailOrId.slice(0, 80)}" is neither an email address nor a user id.`);
  }
  return directory.findUser(userId);
}
