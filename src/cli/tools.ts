import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { InvalidInputError } from '../domain/errors.ts';
import type { ToolServer } from '../generated/prisma/client.ts';
import { decodeId, encodeId } from '../schema/ids.ts';
import type { ToolInfo } from '../tools/tool-catalog.ts';
import type { ToolServers } from '../tools/tool-servers.ts';
import { printLine, type Command } from './command.ts';
import { withDirectory } from './directory.ts';

/** Opens the database and the tool servers' service (its clients closed before the command ends). */
async function withToolServers(work: (servers: ToolServers) => Promise<void>): Promise<number> {
  const config = loadConfig(process.env);
  const [{ AccessPolicy }, { ToolsModule }, { default: pino }] = await Promise.all([
    import('../auth/access.ts'),
    import('../tools/tools-module.ts'),
    import('pino'),
  ]);
  return withDirectory(config, async ({ db }: { db: Database }) => {
    const module = new ToolsModule(db.prisma, new AccessPolicy(db.prisma, db.sql), config, db.kind === 'pglite', pino({ level: 'silent' }));
    try {
      await work(module.servers);
    } finally {
      await module.stop();
    }
  });
}

/** One server as the API shows it: never a header value. */
function describeServer(server: ToolServer): string[] {
  const tools = (server.tools as unknown as ToolInfo[]).map((tool) => `${server.name}/${tool.name}`);
  return [
    `${encodeId('ToolServer', server.id)}  ${server.name}  ${server.status}  ${server.url}${server.transport === 'STDIO' ? '  (declared by the operator)' : ''}`,
    ...(server.lastError ? [`  last error: ${server.lastError}`] : []),
    ...(server.headerNames.length ? [`  headers: ${server.headerNames.join(', ')}`] : []),
    `  tools: ${tools.length ? tools.join(', ') : '(none listed)'}`,
  ];
}

function headersOf(flag: string | undefined): { name: string; value: string }[] | undefined {
  if (flag === undefined) return undefined;
  return flag.split('\n').map((line) => {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new InvalidInputError('header', 'must be "Name: value".');
    return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
  });
}

export const toolCommands: readonly Command[] = [
  {
    name: 'tools add',
    synopsis: 'tools add --project P --name N --url U [--header "Name: value"] [--timeout-ms T]',
    summary: 'Add an MCP tool server to a project and connect to it; prints it and its tools.',
    flags: { project: { required: true }, name: { required: true }, url: { required: true }, header: {}, 'timeout-ms': {} },
    run: (flags) =>
      withToolServers(async (servers) => {
        const added = await servers.add(null, decodeId('project', flags.project, 'Project'), {
          name: flags.name,
          url: flags.url,
          headers: headersOf(flags.header),
          timeoutMs: flags['timeout-ms'] === undefined ? undefined : Number(flags['timeout-ms']),
        });
        for (const line of describeServer(added)) printLine(line);
      }),
  },
  {
    name: 'tools list',
    synopsis: 'tools list --project P',
    summary: "List a project's tool servers, their status and tools.",
    flags: { project: { required: true } },
    run: (flags) =>
      withToolServers(async (servers) => {
        for (const server of await servers.list(null, decodeId('project', flags.project, 'Project'))) {
          for (const line of describeServer(server)) printLine(line);
        }
      }),
  },
  {
    name: 'tools refresh',
    synopsis: 'tools refresh <tool-server-id>',
    summary: 'Reconnect to a tool server and list its tools again.',
    flags: {},
    positional: { name: 'id', required: true },
    run: (flags) =>
      withToolServers(async (servers) => {
        for (const line of describeServer(await servers.refresh(null, decodeId('id', flags.id!, 'ToolServer')))) printLine(line);
      }),
  },
  {
    name: 'tools remove',
    synopsis: 'tools remove <tool-server-id>',
    summary: 'Remove a tool server; agents naming its tools no longer get them.',
    flags: {},
    positional: { name: 'id', required: true },
    run: (flags) =>
      withToolServers(async (servers) => {
        const removed = await servers.remove(null, decodeId('id', flags.id!, 'ToolServer'));
        printLine(`removed ${encodeId('ToolServer', removed.id)} (${removed.name})`);
      }),
  },
];
