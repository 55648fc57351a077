import type { Logger } from 'pino';
import type { ToolServer } from '../generated/prisma/client.ts';
import { readDeclaredServers, type DeclaredServer } from './declared-servers.ts';
import type { SecretBox } from './secrets.ts';
import type { ServerEndpoint } from './server-endpoint.ts';
import type { ToolSettings } from './settings.ts';

/**
 * How this instance reaches each server: an HTTP server at its URL with its headers opened, a
 * declared one by running the command this instance's PARLEY_TOOL_SERVERS_FILE gives it.
 */
export class ServerEndpoints {
  /** The stdio servers this instance's PARLEY_TOOL_SERVERS_FILE declares, by name (read at start). */
  private declared: Map<string, DeclaredServer> | null = null;

  constructor(
    private readonly settings: ToolSettings,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
  ) {}

  /** Reads the file as it is now (a bad file throws, naming it and the problem); stdio endpoints come from it from then on. */
  readDeclared(): Map<string, DeclaredServer> {
    const file = this.settings.PARLEY_TOOL_SERVERS_FILE;
    this.declared = new Map((file ? readDeclaredServers(file) : []).map((server) => [server.name, server]));
    return this.declared;
  }

  of(row: ToolServer): ServerEndpoint {
    if (row.transport === 'STDIO') return this.stdioEndpoint(row);
    let headers: Record<string, string> = {};
    if (row.headersEncrypted) {
      try {
        headers = JSON.parse(this.secrets.open(row.headersEncrypted)) as Record<string, string>;
      } catch (error) {
        this.logger.warn({ toolServer: row.name, reason: (error as Error).message }, 'the tool server headers cannot be decrypted');
      }
    }
    return { id: row.id, name: row.name, url: row.url, headers };
  }

  /**
   * A declared server runs a command of the operator's: the child gets the SDK's few safe variables
   * (HOME, LOGNAME, PATH, SHELL, TERM, USER) and the file's `env`, and Parley's whole environment
   * (its database URL, its keys) only when the file says `inheritEnv`.
   */
  private stdioEndpoint(row: ToolServer): ServerEndpoint {
    // The CLI reads the file when it first needs it; a server reads it at start (syncDeclared).
    const declared = (this.declared ?? this.readDeclared()).get(row.name);
    const endpoint: ServerEndpoint = { id: row.id, name: row.name, url: row.url, headers: {}, stdio: null };
    if (!declared) return endpoint;
    const inherited: Record<string, string> = {};
    if (declared.inheritEnv) for (const [key, value] of Object.entries(process.env)) if (value !== undefined) inherited[key] = value;
    endpoint.stdio = {
      command: declared.command,
      args: declared.args,
      env: { ...inherited, ...declared.env },
      cwd: declared.cwd,
      secrets: Object.values(declared.env),
    };
    return endpoint;
  }
}
