import { parseArgs } from 'node:util';
import { UsageError, type Command } from './command.ts';

type FlagValues = Record<string, string | boolean | undefined>;

export function parseFlags(command: Command, args: string[]): Record<string, string> | 'help' {
  const options = Object.fromEntries(
    Object.entries(command.flags).map(([flag, spec]) => [flag, { type: spec.boolean ? ('boolean' as const) : ('string' as const) }]),
  );
  let values: FlagValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command.positional !== undefined,
    }));
  } catch (error) {
    throw new UsageError(describeParseError(command, error as Error & { code?: string }));
  }
  if (values.help) return 'help';
  const flags: Record<string, string> = {};
  for (const [flag, spec] of Object.entries(command.flags)) {
    const value = values[flag];
    if (spec.boolean) {
      if (value === true) flags[flag] = 'true';
      continue;
    }
    if (typeof value !== 'string') {
      if (spec.required) throw new UsageError(`${command.name}: missing required flag --${flag} (usage: parley ${command.synopsis}).`);
      continue;
    }
    if (spec.choices && !spec.choices.includes(value.toLowerCase())) {
      throw new UsageError(`${command.name}: --${flag} must be one of ${spec.choices.join(', ')}; got "${value}".`);
    }
    flags[flag] = value;
  }
  if (command.positional) {
    const { name, required } = command.positional;
    if (positionals.length > 1) {
      throw new UsageError(`${command.name}: unexpected argument ${positionals[1]} (usage: parley ${command.synopsis}).`);
    }
    if (positionals.length === 0 && required) {
      throw new UsageError(`${command.name}: missing <${name}> (usage: parley ${command.synopsis}).`);
    }
    if (positionals.length === 1) flags[name] = positionals[0]!;
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
