import type { Config } from '../config.ts';
import { loadConfig } from '../config.ts';
import { decodeId, encodeId } from '../schema/ids.ts';
import { printLine, type Command } from './command.ts';
import { withDirectory } from './directory.ts';

/**
 * The bus a deletion tells live subscribers through: with Redis, the servers' own, so their
 * subscribers of the thread end at once; embedded, none (no server runs while the CLI holds the
 * data folder).
 */
async function deletionBus(config: Config) {
  const [{ createLiveBus }, { default: pino }] = await Promise.all([import('../events/live-bus.ts'), import('pino')]);
  return createLiveBus(config, pino({ level: 'silent' }));
}

export const threadCommands: readonly Command[] = [
  {
    name: 'thread delete',
    synopsis: 'thread delete <id>',
    summary: 'Delete a thread with its messages, events, queue and files (a user’s deletion request).',
    flags: {},
    positional: { name: 'id', required: true },
    run: (flags) => {
      const config = loadConfig(process.env);
      return withDirectory(config, async ({ db }) => {
        const [{ ThreadLife }, { AccessPolicy }] = await Promise.all([import('../branches/thread-life.ts'), import('../auth/access.ts')]);
        const threadId = decodeId('id', flags.id!, 'Thread');
        const bus = await deletionBus(config);
        try {
          await new ThreadLife(db.prisma, bus, new AccessPolicy(db.prisma, db.sql)).deleteThreadAsOperator(threadId);
          // The PUBLISH is on its way on the command connection; a reply after it means it was sent
          // (on a cluster, closing the bus waits for what it publishes).
          if (bus.kind === 'redis') await bus.commandClient?.ping();
        } finally {
          await bus.close();
        }
        printLine(`deleted ${encodeId('Thread', threadId)}`);
      });
    },
  },
];
