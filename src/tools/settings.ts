import { z } from 'zod';
import { positiveInt } from '../lifecycle/settings.ts';
import { readDeclaredServers, ToolServersFileError } from './declared-servers.ts';

/** The tool servers' slice of the settings: call limits, which private hosts may be reached, the secret key. */
export const toolSettings = z.object({
  PARLEY_TOOL_TIMEOUT_MS: positiveInt.default(60_000),
  PARLEY_TOOL_OUTPUT_MAX_BYTES: positiveInt.default(65_536),
  /** Comma-separated hosts, addresses or CIDR ranges a tool server may be on although they are private. */
  PARLEY_TOOL_ALLOWED_HOSTS: z.string().optional(),
  /** 32 bytes as 64 hex characters or base64; encrypts tool servers' header values at rest. */
  PARLEY_SECRET_KEY: z
    .string()
    .refine((value) => keyBytes(value) !== null, 'must be 32 bytes, as 64 hex characters or base64')
    .optional(),
  /** A JSON file of stdio tool servers the operator declares (name, command, args, env, cwd, projects). */
  PARLEY_TOOL_SERVERS_FILE: z
    .string()
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
    }),
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
