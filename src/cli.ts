import { constants as osConstants } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { Database, DatabaseTarget } from './db/database.ts';
import { DataDirInUseError } from './db/embedded-lock.ts';
import type { DirectoryService } from './directory/directory-service.ts';
import { DomainError, InvalidInputError } from './domain/errors.ts';
import type { User } from './generated/prisma/client.ts';
import { LOCALES } from './i18n/catalog.ts';
import { decodeId, encodeId } from './schema/ids.ts';

// The database, the directory and the server are imported when a command needs them, so that
// help and usage errors answer without loading Prisma, PGlite and the AI SDKs.

/** Wrong command line: exit code 2, like most Unix tools. */
class UsageError extends Error {
  override readonly name = 'UsageError';
}

type FlagValues = Record<string, string | boolean | undefined>;

interface FlagSpec {
  required?: boolean;
  /** Accepted values, compared case-insensitively; anything else is a usage error. */
  choices?: readonly string[];
}

interface Command {
  name: string;
  synopsis: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  run(flags: Record<string, string>): Promise<number>;
}

const ROLES = ['admin', 'member', 'viewer'] as const;

const COMMANDS: Command[] = [
  {
    name: 'serve',
    synopsis: 'serve',
    summary: 'Start the GraphQL server (GraphiQL at /graphql).',
    flags: {},
    run: () => serve(loadConfig(process.env)),
  },
  {
    name: 'migrate',
    synopsis: 'migrate',
    summary: 'Apply pending database migrations.',
    flags: {},
    run: () => migrateDatabase(loadConfig(process.env)),
  },
  {
    name: 'user create',
    synopsis: 'user create --email E [--locale en|de]',
    summary: 'Create a user; prints its new API token and nothing else.',
    flags: { email: { required: true }, locale: { choices: LOCALES } },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory }) => {
        const { token } = await directory.createUser({ email: flags.email, locale: flags.locale?.toLowerCase() });
        printLine(token);
      }),
  },
  {
    name: 'project create',
    synopsis: 'project create --name N [--admin <email-or-user-id>]',
    summary: "Create a project (the given user becomes its admin); prints the project's id.",
    flags: { name: { required: true }, admin: {} },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory }) => {
        // The admin is looked up first so that an unknown user leaves no project behind.
        const admin = flags.admin === undefined ? null : await findUser(directory, 'admin', flags.admin);
        const project = await directory.createProject(admin, { name: flags.name });
        printLine(encodeId('Project', project.id));
      }),
  },
  {
    name: 'member add',
    synopsis: 'member add --project P --user U --role admin|member|viewer',
    summary: "Add a user (email or id) to a project, or change their role.",
    flags: { project: { required: true }, user: { required: true }, role: { required: true, choices: ROLES } },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory, db }) => {
        const projectId = decodeId('project', flags.project, 'Project');
        const user = await findUser(directory, 'user', flags.user);
        const role = flags.role.toLowerCase();
        await directory.addMember(null, { projectId, user: user.id, role });
        const project = await db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
        printLine(`${user.email} is now ${role} of project "${project.name}" (${encodeId('Project', project.id)}).`);
      }),
  },
  {
    name: 'agent create',
    synopsis: 'agent create --project P --name N --model provider:model [--tools a,b] [--system-prompt S]',
    summary: "Create an agent in a project; prints the agent's id.",
    flags: { project: { required: true }, name: { required: true }, model: { required: true }, tools: {}, 'system-prompt': {} },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory }) => {
        const projectId = decodeId('project', flags.project, 'Project');
        const tools = flags.tools
          ?.split(',')
          .map((tool) => tool.trim())
          .filter((tool) => tool.length > 0);
        const agent = await directory.createAgent(null, projectId, {
          name: flags.name,
          model: flags.model,
          systemPrompt: flags['system-prompt'],
          tools,
        });
        printLine(encodeId('Agent', agent.id));
      }),
  },
];

const GROUPS = [...new Set(COMMANDS.filter((command) => command.name.includes(' ')).map((command) => command.name.split(' ')[0]))];

const SUMMARY_COLUMN = 48;

function usage(): string {
  const lines = COMMANDS.map((command) =>
    command.synopsis.length >= SUMMARY_COLUMN
      ? `  ${command.synopsis}\n  ${' '.repeat(SUMMARY_COLUMN)}${command.summary}`
      : `  ${command.synopsis.padEnd(SUMMARY_COLUMN)}${command.summary}`,
  );
  return [
    'Usage: parley <command> [flags]',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(SUMMARY_COLUMN)}Show this text (also: parley <command> --help).`,
    '',
    'Project, user and agent ids may be global ids (as GraphQL shows them) or raw ids; users may also be given by email.',
    'The database comes from the environment: DATABASE_URL (PostgreSQL), or else the embedded database',
    'in PARLEY_DATA_DIR (default ./.parley), which only one process can open at a time.',
  ].join('\n');
}

function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

function findCommand(args: string[]): { command: Command; rest: string[] } {
  const [first, second] = args;
  const single = COMMANDS.find((command) => command.name === first);
  if (single) return { command: single, rest: args.slice(1) };
  if (GROUPS.includes(first)) {
    const grouped = COMMANDS.find((command) => command.name === `${first} ${second}`);
    if (grouped) return { command: grouped, rest: args.slice(2) };
    const known = COMMANDS.filter((command) => command.name.startsWith(`${first} `)).map((command) => `"parley ${command.name}"`);
    throw new UsageError(
      second === undefined || second.startsWith('-')
        ? `${first}: missing subcommand; expected ${known.join(' or ')}.`
        : `${first}: unknown subcommand "${second}"; expected ${known.join(' or ')}.`,
    );
  }
  throw new UsageError(`unknown command "${first}". Run "parley help" for the list of commands.`);
}

function parseFlags(command: Command, args: string[]): Record<string, string> | 'help' {
  const options = Object.fromEntries(Object.keys(command.flags).map((flag) => [flag, { type: 'string' as const }]));
  let values: FlagValues;
  try {
    ({ values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    throw new UsageError(describeParseError(command, error as Error & { code?: string }));
  }
  if (values.help) return 'help';
  const flags: Record<string, string> = {};
  for (const [flag, spec] of Object.entries(command.flags)) {
    const value = values[flag];
    if (typeof value !== 'string') {
      if (spec.required) throw new UsageError(`${command.name}: missing required flag --${flag} (usage: parley ${command.synopsis}).`);
      continue;
    }
    if (spec.choices && !spec.choices.includes(value.toLowerCase())) {
      throw new UsageError(`${command.name}: --${flag} must be one of ${spec.choices.join(', ')}; got "${value}".`);
    }
    flags[flag] = value;
  }
  return flags;
}

// parseArgs' own messages are written for script authors ("To specify a positional argument…").
function describeParseError(command: Command, error: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `${command.name}: unknown flag ${option ?? ''} (usage: parley ${command.synopsis}).`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `${command.name}: flag ${option ?? ''} needs a value (usage: parley ${command.synopsis}).`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `${command.name}: unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}; values are given as --flag value (usage: parley ${command.synopsis}).`;
    default:
      return `${command.name}: ${error.message}`;
  }
}

function databaseTarget(config: Config): DatabaseTarget {
  return config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.PARLEY_DATA_DIR };
}

function describeDatabase(config: Config): string {
  return config.DATABASE_URL ? 'the PostgreSQL database (DATABASE_URL)' : `the embedded database in ${config.PARLEY_DATA_DIR}`;
}

/**
 * Opens only the database and the directory service: no queue consumer, no live bus, so an
 * operator command never competes with a server for work or needs Redis.
 */
async function withDirectory(
  config: Config,
  work: (context: { directory: DirectoryService; db: Database }) => Promise<void>,
): Promise<number> {
  const [{ AccessPolicy }, { openDatabase }, { DirectoryService }, { ModelRegistry }, { providerSettingsFrom }] = await Promise.all([
    import('./auth/access.ts'),
    import('./db/database.ts'),
    import('./directory/directory-service.ts'),
    import('./models/registry.ts'),
    import('./parley.ts'),
  ]);
  const models = new ModelRegistry(providerSettingsFrom(config));
  const db = await openDatabase(databaseTarget(config));
  try {
    // Servers migrate at start too; doing it here lets a fresh data folder be set up from the CLI.
    await db.migrate();
    await work({ directory: new DirectoryService(db.prisma, new AccessPolicy(db.prisma), models), db });
  } finally {
    await db.close();
  }
  return 0;
}

async function findUser(directory: DirectoryService, field: string, emailOrId: string): Promise<User> {
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

async function migrateDatabase(config: Config): Promise<number> {
  const { openDatabase } = await import('./db/database.ts');
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

async function serve(config: Config): Promise<number> {
  const [{ default: pino }, { buildApp }] = await Promise.all([import('pino'), import('./server/app.ts')]);
  // stdout carries the banner for people; logs go to stderr.
  const logger = pino({ level: config.PARLEY_LOG_LEVEL, base: { service: 'parley' } }, pino.destination({ fd: 2 }));
  const app = await buildApp(config, { bootstrapDemo: !config.DATABASE_URL, logger });
  let url: string;
  try {
    ({ url } = await app.start());
  } catch (error) {
    await app.stop().catch(() => {});
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`port ${config.PORT} on ${config.HOST} is already in use; set PORT to another port (PORT=0 picks a free one).`);
    }
    throw error;
  }

  const banner = [`Parley is running. GraphiQL: ${url}`];
  if (app.demo) {
    const demo = app.demo;
    if (demo.token) {
      banner.push(
        `Demo API token: ${demo.token}`,
        `Demo agent id:  ${demo.agentGlobalId}`,
        `Try it in GraphiQL with the header {"Authorization": "Bearer ${demo.token}"}:`,
        `  1. mutation { createThread(agentId: "${demo.agentGlobalId}") { ... on Thread { id } } }`,
        `  2. subscription { runEvents(threadId: "<thread id>") { __typename ... on TextDelta { text } } }  (in a second tab)`,
        `  3. mutation { sendMessage(threadId: "<thread id>", text: "Hello") { __typename } }`,
      );
    } else {
      banner.push(
        `The demo token file ${config.PARLEY_DATA_DIR}/demo-token.txt is missing. Stop the server and run`,
        `"npx parley user create --email you@example.com" and "npx parley member add --project <id> --user you@example.com --role admin".`,
      );
    }
  }
  printLine(banner.join('\n'));

  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal means the operator does not want to wait for running replies.
        process.exit(128 + (osConstants.signals[signal] ?? 1));
      }
      stopping = true;
      logger.info({ signal }, 'stopping: letting running replies finish (send the signal again to exit at once)');
      app.stop().then(
        () => resolve(0),
        (error: unknown) => {
          logger.error({ err: error }, 'graceful stop failed');
          resolve(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return error.errors.map((inner: unknown) => describeError(inner)).join('; ');
  }
  if (error instanceof Error) {
    return error.message || (error as NodeJS.ErrnoException).code || error.name;
  }
  return String(error);
}

async function main(args: string[]): Promise<number> {
  let commandName: string | null = null;
  try {
    const [first] = args;
    if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
      printLine(usage());
      return 0;
    }
    const { command, rest } = findCommand(args);
    commandName = command.name;
    const flags = parseFlags(command, rest);
    if (flags === 'help') {
      printLine(`Usage: parley ${command.synopsis}\n\n${command.summary}`);
      return 0;
    }
    return await command.run(flags);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`parley: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`parley: invalid configuration: ${error.issues.join('; ')}\n`);
      return 2;
    }
    // Compared by name because the registry module is only loaded by the commands that use it.
    if (error instanceof Error && error.name === 'ProviderConfigError') {
      process.stderr.write(`parley: invalid configuration: ${error.message}\n`);
      return 2;
    }
    const prefix = commandName ? `parley: ${commandName}: ` : 'parley: ';
    // Domain errors and the data-folder lock explain themselves; anything else is unexpected.
    const message = error instanceof DomainError || error instanceof DataDirInUseError ? error.message : describeError(error);
    process.stderr.write(`${prefix}${message}\n`);
    return 1;
  }
}

const exitCode = await main(process.argv.slice(2));
// Pipes may be asynchronous on some platforms: flush before exiting, because open handles
// (database pools, timers of dependencies) must not keep a finished command alive.
await Promise.all([
  new Promise<void>((resolve) => process.stdout.write('', () => resolve())),
  new Promise<void>((resolve) => process.stderr.write('', () => resolve())),
]);
process.exit(exitCode);
