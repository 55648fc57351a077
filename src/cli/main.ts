import { ConfigError } from '../config.ts';
import { DataDirInUseError, DataDirUnusableError } from '../db/embedded-lock.ts';
import { DomainError } from '../domain/errors.ts';
import { describeError, printLine, UsageError } from './command.ts';
import { parseFlags } from './flags.ts';
import { findCommand, usage } from './registry.ts';

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
    // Compared by name because the model registry is only loaded by the commands that use it.
    if (error instanceof Error && error.name === 'ProviderConfigError') {
      process.stderr.write(`parley: invalid configuration: ${error.message}\n`);
      return 2;
    }
    const prefix = commandName ? `parley: ${commandName}: ` : 'parley: ';
    // Domain errors and the data folder's problems explain themselves; anything else is unexpected.
    const explained = error instanceof DomainError || error instanceof DataDirInUseError || error instanceof DataDirUnusableError;
    const message = explained ? error.message : describeError(error);
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
