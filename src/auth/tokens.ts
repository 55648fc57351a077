import { createHash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.ts';

const TOKEN_PREFIX = 'pky_';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a token for the user; only its hash is stored, so this is the one time it can be shown. */
export async function issueApiToken(prisma: PrismaClient, userId: string, label = ''): Promise<string> {
  const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
  await prisma.apiToken.create({ data: { userId, tokenHash: hashToken(token), label } });
  return token;
}

export async function userForToken(prisma: PrismaClient, token: string) {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const found = await prisma.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  return found?.user ?? null;
}

/** Accepts `Bearer <token>` (any case) or a bare token, as graphql-ws connectionParams often carry it. */
export function tokenFromAuthorization(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(value);
  return match ? match[1]! : null;
}

/** The authorization a WebSocket client put in its connection parameters, if any. */
export function authorizationFromConnectionParams(params: Record<string, unknown>): unknown {
  return params.authorization ?? params.Authorization ?? params.token;
}

/**
 * Remembers token lookups for a few seconds: a client sends its token with every request and
 * subscription, and tokens are never changed in place (a new token is a new row).
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, { user: Awaited<ReturnType<typeof userForToken>>; expiresAt: number }>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  async authenticate(authorization: unknown) {
    const token = tokenFromAuthorization(authorization);
    if (!token) return null;
    const cached = this.cache.get(token);
    if (cached && cached.expiresAt > Date.now()) return cached.user;
    const user = await userForToken(this.prisma, token);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(token, { user, expiresAt: Date.now() + this.ttlMs });
    return user;
  }
}
