import { z } from 'zod';
import { positiveInt } from '../lifecycle/settings.ts';
import { readDeclaredServers, ToolServersFileError } from './declared-servers.ts';

/** The tool servers' slice of the settings: call limits, which private hosts may be reached, the secret key. */
export const toolSettings = z.object({
  PARLEY_TOOL_TIMEOUT_MS: positiveInt.default(60_000).describe('how long a tool-server call may take (a server’s own `timeoutMs` replaces it); beyond it the call fails and the model is told so'),
  PARLEY_TOOL_OUTPUT_MAX_BYTES: positiveInt.default(65_536).describe('text a tool’s result keeps; the rest is cut and marked so'),
  PARLEY_TOOL_ALLOWED_HOSTS: z.string().optional().describe('comma list of hosts, addresses or CIDR ranges a tool server may be on although they are loopback, private, link-local or unique-local'),
  PARLEY_SECRET_KEY: z
    .string()
    .meta({ allowed: '32 bytes as 64 hex characters or base64' })
    .refine((value) => keyBytes(value) !== null, 'must be 32 bytes, as 64 hex characters or base64')
    .optional().describe('encrypts tool servers’ header values (AES-256-GCM); embedded without it a key file is made in `PARLEY_DATA_DIR`, with PostgreSQL headers cannot be stored'),
  PARLEY_TOOL_SERVERS_FILE: z
    .string()
    .meta({ allowed: 'the path of a readable JSON file' })
    .min(1)
    .optional()
    .superRefine((file, context) => {
      // Checked with the other settings, so a bad file stops the start before anything is opened
      // (the tool servers' module reads it again when it starts).
      if (file === undefined) return;
      try {
        readDeclaredServers(file);
      } catch (error) {
        if (!(error instanceof ToolServersFileError)) throw error;
        context.addIssue({ code: 'custom', message: `${file}: ${error.problem}` });
      }
    }).describe('a JSON file of stdio MCP tool servers the operator declares; checked at start, a bad file stops it'),
});

export type ToolSettings = z.infer<typeof toolSettings>;

export function keyBytes(value: string): Buffer | null {
  const trimmed = value.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  return bytes.length === 32 ? bytes : null;
}

export function allowedHostsFrom(settings: ToolSettings): string[] {
  return (settings.PARLEY_TOOL_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}
