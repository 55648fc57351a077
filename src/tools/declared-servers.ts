import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { z } from 'zod';
import { SERVER_NAME } from './tool-catalog.ts';

/** The longest a declared server's call may take, as for servers added through the API. */
const MAX_TIMEOUT_MS = 600_000;

const serverEntry = z
  .object({
    command: z.string().min(1, 'must not be empty'),
    args: z.array(z.string()).default([]),
    /** Given to the child as is; values are secrets: never logged, stored or shown. */
    env: z.record(z.string(), z.string()).default({}),
    /** Whether the child also gets Parley's whole environment (off: only the safe few and `env`). */
    inheritEnv: z.boolean().default(false),
    /** Relative to the file's folder; the file's folder by default. */
    cwd: z.string().min(1).optional(),
    projects: z.array(z.string().min(1)).min(1, 'must name at least one project (an id or a name), or "*"'),
    timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  })
  .strict();

const serversFile = z
  .object({
    servers: z.record(z.string(), serverEntry).superRefine((servers, context) => {
      // Checked here rather than as the record's key type, so the message names the key.
      for (const name of Object.keys(servers)) {
        if (!SERVER_NAME.test(name)) {
          context.addIssue({
            code: 'custom',
            path: [name],
            message: 'a server name must be 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter or digit',
          });
        }
      }
    }),
  })
  .strict();

/** One stdio tool server as the operator declared it. */
export interface DeclaredServer {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  inheritEnv: boolean;
  cwd: string;
  /** Raw project ids, project names, or "*". */
  projects: string[];
  timeoutMs: number | null;
}

/** A PARLEY_TOOL_SERVERS_FILE that cannot be used: the message names the file and the problem. */
export class ToolServersFileError extends Error {
  constructor(
    file: string,
    readonly problem: string,
  ) {
    super(`PARLEY_TOOL_SERVERS_FILE ${file}: ${problem}`);
    this.name = 'ToolServersFileError';
  }
}

/** Reads and checks the file; every problem found is in the one error thrown. */
export function readDeclaredServers(file: string): DeclaredServer[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ToolServersFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ToolServersFileError(file, `is not JSON (${(error as Error).message}).`);
  }
  const parsed = serversFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length ? issue.path.map(String).join('.') : '(the file)';
      return `${where}: ${issue.message}`;
    });
    throw new ToolServersFileError(file, `${problems.join('; ')}.`);
  }
  const folder = dirname(resolve(file));
  return Object.entries(parsed.data.servers).map(([name, entry]) => ({
    name,
    command: entry.command,
    args: entry.args,
    env: entry.env,
    inheritEnv: entry.inheritEnv,
    cwd: entry.cwd === undefined ? folder : isAbsolute(entry.cwd) ? entry.cwd : resolve(folder, entry.cwd),
    projects: entry.projects.map(rawProjectRef),
    timeoutMs: entry.timeoutMs ?? null,
  }));
}

/** A project's Relay id becomes its raw id, so both spellings match; names and "*" stay. */
function rawProjectRef(entry: string): string {
  const value = entry.trim();
  if (value === '*') return value;
  try {
    const decoded = decodeGlobalID(value);
    if (decoded.typename === 'Project' && /^[0-9a-f-]{36}$/i.test(decoded.id)) return decoded.id.toLowerCase();
  } catch {
    // Not a Relay id: a raw id or a name.
  }
  return value;
}

/**
 * A declared server's row id: the same UUID from its name on every instance and every start, so
 * instances reading the same file upsert one row rather than racing to create two.
 */
export function declaredServerId(name: string): string {
  const hex = createHash('sha256').update(`parley stdio tool server ${name}`).digest('hex');
  // Shaped as a version-8 (custom) UUID, which the API's id checks accept.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What the API shows in place of a URL: the command alone, never its arguments or environment. */
export function stdioUrl(server: Pick<DeclaredServer, 'command'>): string {
  return `stdio:${server.command}`;
}
