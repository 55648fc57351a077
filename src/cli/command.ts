/** Wrong command line: exit code 2, like most Unix tools. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface FlagSpec {
  required?: boolean;
  /** Accepted values, compared case-insensitively; anything else is a usage error. */
  choices?: readonly string[];
  /** A switch without a value (`--admin`): handed to run() as "true" when given. */
  boolean?: boolean;
}

export interface Command {
  name: string;
  synopsis: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /** One value given without a flag (`parley token revoke <id>`), handed to run() under this name. */
  positional?: { name: string; required?: boolean };
  /**
   * Imports the database, the directory and the server only when it runs, so that help and
   * usage errors answer without loading Prisma, PGlite and the AI SDKs.
   */
  run(flags: Record<string, string>): Promise<number>;
}

export function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** An error as one line: its message, or its code (a refused connection's AggregateError: each one's). */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return error.errors.map((inner: unknown) => describeError(inner)).join('; ');
  }
  if (error instanceof Error) {
    return error.message || (error as NodeJS.ErrnoException).code || error.name;
  }
  return String(error);
}
