import { readFile, writeFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DirectoryService } from '../directory/directory-service.ts';
import { decodeId, encodeId } from '../schema/ids.ts';
import { printLine, UsageError, type Command } from './command.ts';
import { findUser, withDirectory } from './directory.ts';

const FORMATS = ['markdown', 'json'] as const;

async function transferService(db: Database, directory: DirectoryService) {
  const [{ TransferService }, { AccessPolicy }] = await Promise.all([import('../transfer/transfer-service.ts'), import('../auth/access.ts')]);
  return new TransferService(db.prisma, new AccessPolicy(db.prisma, db.sql), directory);
}

export const threadTransferCommands: readonly Command[] = [
  {
    name: 'thread export',
    synopsis: 'thread export <id> --format markdown|json [--out file]',
    summary: 'Export a thread’s active path (docs/thread-export.md) to stdout, or to a file.',
    flags: { format: { required: true, choices: FORMATS }, out: {} },
    positional: { name: 'id', required: true },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ db, directory }) => {
        const threadId = decodeId('id', flags.id!, 'Thread');
        const format = flags.format!.toLowerCase() === 'json' ? 'JSON' : 'MARKDOWN';
        const file = await (await transferService(db, directory)).exportThreadAsOperator(threadId, format);
        if (flags.out === undefined) {
          process.stdout.write(file.content);
          return;
        }
        await writeFile(flags.out, file.content, 'utf8');
        printLine(`wrote ${flags.out}`);
      }),
  },
  {
    name: 'thread import',
    synopsis: 'thread import <file> --agent A --user U',
    summary: 'Make a JSON export a new thread of the user (email or id) with the agent, as finished history; prints its id.',
    flags: { agent: { required: true }, user: { required: true } },
    positional: { name: 'file', required: true },
    run: async (flags) => {
      const content = await readFile(flags.file!, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`thread import: cannot read ${flags.file}: ${error.code ?? error.message}.`);
      });
      return withDirectory(loadConfig(process.env), async ({ db, directory }) => {
        const agentId = decodeId('agent', flags.agent!, 'Agent');
        const user = await findUser(directory, 'user', flags.user!);
        const thread = await (await transferService(db, directory)).importThread(user, agentId, content);
        printLine(encodeId('Thread', thread.id));
      });
    },
  },
];
