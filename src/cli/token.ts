import { loadConfig, type Config } from '../config.ts';
import { sharesRedis } from '../events/settings.ts';
import { printLine, UsageError, type Command } from './command.ts';
import { findUser, withDirectory } from './directory.ts';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `12h`, `30d` → milliseconds. */
export function parseDuration(flag: string, value: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(value.trim());
  if (!match || Number(match[1]) === 0) {
    throw new UsageError(`token create: --${flag} must be a positive number with s, m, h or d (e.g. 30d); got "${value}".`);
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * Tells running instances to forget a revoked token at once (with Redis; an embedded server holds
 * its data folder, so no server runs while the CLI does). Without it they would honour their
 * cached lookup for a few more seconds.
 */
async function announceRevocation(config: Config, tokenId: string): Promise<void> {
  if (!sharesRedis(config)) return;
  const [{ createLiveBus }, { default: pino }] = await Promise.all([import('../events/live-bus.ts'), import('pino')]);
  const bus = createLiveBus(config, pino({ level: 'silent' }));
  try {
    await bus.announceToInstances({ kind: 'token-revoked', tokenId });
  } catch (error) {
    process.stderr.write(
      `parley: token revoke: the token is revoked, but running instances could not be told (${(error as Error).message}); they refuse it within 5 s.\n`,
    );
  } finally {
    await bus.close();
  }
}

function when(date: Date | null): string {
  return date ? date.toISOString() : '-';
}

export const tokenCommands: readonly Command[] = [
  {
    name: 'token create',
    synopsis: 'token create --user U [--label L] [--expires-in 30d] [--admin]',
    summary: 'Create an API token for a user (email or id); prints the token and nothing else. --admin: it may use the admin API.',
    flags: { user: { required: true }, label: {}, 'expires-in': {}, admin: { boolean: true } },
    run: (flags) => {
      const expiresInMs = flags['expires-in'] === undefined ? null : parseDuration('expires-in', flags['expires-in']);
      return withDirectory(loadConfig(process.env), async ({ directory, db }) => {
        const { issueApiToken } = await import('../auth/tokens.ts');
        const user = await findUser(directory, 'user', flags.user);
        const expiresAt = expiresInMs === null ? null : new Date(Date.now() + expiresInMs);
        const admin = flags.admin !== undefined;
        const { token } = await issueApiToken(db.prisma, user.id, flags.label ?? (admin ? 'admin, created at the command line' : 'created at the command line'), { expiresAt, admin });
        printLine(token);
      });
    },
  },
  {
    name: 'token list',
    synopsis: 'token list --user U',
    summary: "List a user's API tokens: id, created, last used, expires, label (tab-separated).",
    flags: { user: { required: true } },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory, db }) => {
        const { ApiTokens } = await import('../auth/tokens.ts');
        const user = await findUser(directory, 'user', flags.user);
        const tokens = await new ApiTokens(db.prisma, async () => {}).list(user.id);
        printLine(['id', 'created', 'last used', 'expires', 'label'].join('\t'));
        for (const token of tokens) {
          printLine([token.id, when(token.createdAt), when(token.lastUsedAt), when(token.expiresAt), token.label].join('\t'));
        }
      }),
  },
  {
    name: 'token revoke',
    synopsis: 'token revoke <id>',
    summary: 'Revoke an API token (the id `token list` prints); every running instance refuses it at once.',
    flags: {},
    positional: { name: 'id', required: true },
    run: (flags) => {
      const config = loadConfig(process.env);
      return withDirectory(config, async ({ db }) => {
        const { ApiTokens } = await import('../auth/tokens.ts');
        const revoked = await new ApiTokens(db.prisma, (tokenId) => announceRevocation(config, tokenId)).revoke(null, flags.id!);
        printLine(`Token ${revoked.id}${revoked.label ? ` (${revoked.label})` : ''} is revoked.`);
      });
    },
  },
];
