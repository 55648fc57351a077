import { agentCommands } from './agent.ts';
import { UsageError, type Command } from './command.ts';
import { doctorCommand } from './doctor.ts';
import { memberCommands } from './member.ts';
import { migrateCommand } from './migrate.ts';
import { priceCommands } from './price.ts';
import { projectCommands } from './project.ts';
import { serveCommand } from './serve.ts';
import { threadCommands } from './thread.ts';
import { threadTransferCommands } from './thread-transfer.ts';
import { tokenCommands } from './token.ts';
import { toolCommands } from './tools.ts';
import { userCommands } from './user.ts';

/** In the order `parley help` lists them. */
const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  doctorCommand,
  ...userCommands,
  ...tokenCommands,
  ...projectCommands,
  ...memberCommands,
  ...agentCommands,
  ...threadCommands,
  ...threadTransferCommands,
  ...toolCommands,
  ...priceCommands,
];

const GROUPS = COMMANDS.filter((command) => command.name.includes(' '))
  .map((command) => command.name.split(' ')[0])
  .filter((group, index, groups) => groups.indexOf(group) === index);

const SUMMARY_COLUMN = 48;

export function usage(): string {
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
    'Project, user, agent and thread ids may be global ids (as GraphQL shows them) or raw ids; users may also be given by email.',
    'The database comes from the environment: DATABASE_URL (PostgreSQL), or else the embedded database',
    'in PARLEY_DATA_DIR (default ./.parley), which only one process can open at a time.',
  ].join('\n');
}

export function findCommand(args: string[]): { command: Command; rest: string[] } {
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
