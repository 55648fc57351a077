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
