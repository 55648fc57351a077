import { createHash, randomBytes } from 'node:crypto';
import type { ApiToken, PrismaClient, User } from '../generated/prisma/client.ts';
import { InvalidInputError, NotFoundError } from '../domain/errors.ts';
import { JwtRefusedError, looksLikeJwt, type JwtVerifier } from './jwt.ts';
import { userForIdentity } from './jwt-users.ts';

const TOKEN_PREFIX = 'pky_';
const MAX_LABEL_CHARS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What a token's owner may see of it: never the hash. */
export type ApiTokenInfo = Pick<ApiToken, 'id' | 'label' | 'createdAt' | 'lastUsedAt' | 'expiresAt'>;

const INFO_FIELDS = { id: true, label: true, createdAt: true, lastUsedAt: true, expiresAt: true } as const;

export type Clock = () => number;

/** Creates a token for the user; only its hash is stored, so this is the one time it can be shown. */
export async function issueApiToken(
  prisma: PrismaClient,
  userId: string,
  label = '',
  options: { expiresAt?: Date | null; admin?: boolean } = {},
): Promise<{ token: string; info: ApiTokenInfo }> {
  if (label.length > MAX_LABEL_CHARS) throw new InvalidInputError('label', `must be at most ${MAX_LABEL_CHARS} characters.`);
  const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
  const info = await prisma.apiToken.create({
    data: { userId, tokenHash: hashToken(token), label, expiresAt: options.expiresAt ?? null, admin: options.admin ?? false },
    select: INFO_FIELDS,
  });
  return { token, info };
}

/** The user a token belongs to, unless it is unknown, revoked, expired or its user disabled (all look alike). */
export async function userForToken(prisma: PrismaClient, token: string, now = Date.now()) {
  const found = await lookUpToken(prisma, token, now);
  return found && !found.user.disabledAt ? found.user : null;
}

/** The token's row with its user (who may be disabled), unless it is unknown, revoked or expired. */
async function lookUpToken(prisma: PrismaClient, token: string, now: number) {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const found = await prisma.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!found || (found.expiresAt && found.expiresAt.getTime() <= now)) return null;
  return found;
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
 * Writes a token's `lastUsedAt` at most once per interval: a client sends its token with every
 * request, and a write per request would cost more than the request. In memory per instance; the
 * conditional update keeps it at most once per interval across instances too.
 */
export class TokenUsageRecorder {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock = Date.now,
    private readonly intervalMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Records a use of the token now; resolves once the write (if one was due) is done. */
  async used(tokenId: string, lastUsedAt: Date | null): Promise<void> {
    const now = this.clock();
    const written = Math.max(this.lastWritten.get(tokenId) ?? -Infinity, lastUsedAt?.getTime() ?? -Infinity);
    if (now - written < this.intervalMs) return;
    if (this.lastWritten.size >= this.maxEntries) this.lastWritten.clear();
    this.lastWritten.set(tokenId, now);
    const dueBefore = new Date(now - this.intervalMs + 1);
    await this.prisma.apiToken.updateMany({
      where: { id: tokenId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: dueBefore } }] },
      data: { lastUsedAt: new Date(now) },
    });
  }

  forget(tokenId: string): void {
    this.lastWritten.delete(tokenId);
  }
}

/** Who a bearer value belongs to; `refusal` says why a JWT was refused (an API token's refusal says nothing). */
export interface Authentication {
  user: User | null;
  refusal: string | null;
  /** When a JWT stops being valid (ms): a socket it opened is closed then. Null for API tokens. */
  expiresAt: number | null;
  /** An admin credential (an API token made with --admin, or a JWT with the admin scope): may use the admin API. */
  admin: boolean;
}

const NOBODY: Authentication = { user: null, refusal: null, expiresAt: null, admin: false };

/** The refusal of a verified JWT whose user an admin disabled. */
export const DISABLED_USER_REFUSAL = 'The sign-in token was refused: its user has been disabled.';

export interface AuthenticatorOptions {
  /** How long a lookup is remembered (never past the token's expiry). */
  ttlMs?: number;
  maxEntries?: number;
  /** Verifies bearer JWTs; without it (no PARLEY_AUTH_* key or secret) a JWT is refused like a wrong token. */
  jwt?: JwtVerifier | null;
  /**
   * Whether this instance has heard every revocation announced so far (the live bus's
   * `instanceMessagesHeard`); a cached lookup is used only once it says so, else the token is
   * looked up again. Without it (one instance), revocations are heard as they happen.
   */
  revocationsHeard?: () => Promise<boolean>;
}

/** `ownerId`: whose credential it is, also when that user is disabled (so enabling them forgets the refusal). */
type CachedLookup = Authentication & { tokenId: string | null; ownerId: string | null; until: number };

/**
 * Remembers token lookups for a few seconds: a client sends its token with every request and
 * subscription. A revoked token is forgotten at once (`forget`, which every instance hears
 * through the live bus), and a cached lookup is trusted only after this instance has heard every
 * revocation announced before the request (so a revocation on one instance holds on every other
 * from the next request on); an expiring token (API token or JWT) is not remembered past its expiry.
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, CachedLookup>();
  /** Counts forgets: a lookup that was under way while something was forgotten is not remembered (it may predate the revocation). */
  private forgets = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly usage: TokenUsageRecorder,
    private readonly onUsageError: (error: unknown) => void,
    private readonly clock: Clock = Date.now,
    private readonly options: AuthenticatorOptions = {},
  ) {}

  private get ttlMs(): number {
    return this.options.ttlMs ?? 5_000;
  }

  private get maxEntries(): number {
    return this.options.maxEntries ?? 10_000;
  }

  /** The user a request's Authorization (header or connection parameter) belongs to, or null. */
  async authenticate(authorization: unknown): Promise<User | null> {
    return (await this.identify(authorization)).user;
  }

  /** Like `authenticate`, with why a JWT was refused and when an accepted one expires. */
  async identify(authorization: unknown): Promise<Authentication> {
    const token = tokenFromAuthorization(authorization);
    if (!token) return NOBODY;
    const now = this.clock();
    const forgetsBefore = this.forgets;
    const cached = await this.trustedLookup(token, now);
    if (cached) {
      if (cached.tokenId) this.usage.used(cached.tokenId, null).catch(this.onUsageError);
      return cached;
    }
    const { jwt } = this.options;
    if (jwt && looksLikeJwt(token)) {
      const { owner, ...lookup } = await this.identifyJwt(jwt, token);
      return this.remember(token, now, forgetsBefore, lookup, owner, null);
    }
    const found = await lookUpToken(this.prisma, token, now);
    // A disabled user's token is refused like an unknown one: it says nothing of the account.
    const usable = found && !found.user.disabledAt ? found : null;
    const lookup = this.remember(
      token,
      now,
      forgetsBefore,
      { ...NOBODY, user: usable?.user ?? null, admin: usable?.admin ?? false },
      found?.userId ?? null,
      found,
    );
    if (usable) this.usage.used(usable.id, usable.lastUsedAt).catch(this.onUsageError);
    return lookup;
  }

  /** The cached lookup of the token, if there is one and no revocation announced before now can be on its way. */
  private async trustedLookup(token: string, now: number): Promise<CachedLookup | null> {
    const entry = this.cache.get(token);
    if (!entry || entry.until <= now) return null;
    const heard = (await this.options.revocationsHeard?.()) ?? true;
    // Read again: a revocation heard meanwhile removed it.
    const cached = this.cache.get(token);
    return heard && cached && cached.until > now ? cached : null;
  }

  private async identifyJwt(jwt: JwtVerifier, token: string): Promise<Authentication & { owner: string | null }> {
    let identity;
    try {
      identity = await jwt.verify(token);
    } catch (error) {
      if (error instanceof JwtRefusedError) return { ...NOBODY, refusal: error.message, owner: null };
      throw error;
    }
    const user = await userForIdentity(this.prisma, identity);
    if (user.disabledAt) return { ...NOBODY, refusal: DISABLED_USER_REFUSAL, owner: user.id };
    return { user, refusal: null, expiresAt: identity.expiresAt, admin: identity.admin, owner: user.id };
  }

  private remember(
    token: string,
    now: number,
    forgetsBefore: number,
    lookup: Authentication,
    ownerId: string | null,
    apiToken: { id: string; expiresAt: Date | null } | null,
  ): Authentication {
    if (this.forgets !== forgetsBefore) return lookup;
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    const until = Math.min(now + this.ttlMs, apiToken?.expiresAt?.getTime() ?? Infinity, lookup.expiresAt ?? Infinity);
    this.cache.set(token, { ...lookup, tokenId: apiToken?.id ?? null, ownerId, until });
    return lookup;
  }

  /** Drops what this instance remembers of a token (it was revoked). */
  forget(tokenId: string): void {
    this.forgets++;
    for (const [token, entry] of this.cache) if (entry.tokenId === tokenId) this.cache.delete(token);
    this.usage.forget(tokenId);
  }

  /** Drops what this instance remembers of every credential of the user (they were disabled or enabled). */
  forgetUser(userId: string): void {
    this.forgets++;
    for (const [token, entry] of this.cache) if (entry.ownerId === userId) this.cache.delete(token);
  }
}

/** A user's own API tokens: listing and revoking them, from the API or the CLI. */
export class ApiTokens {
  constructor(
    private readonly prisma: PrismaClient,
    /** Tells every instance (this one included) to forget the token at once; resolves once sent. */
    private readonly announceRevocation: (tokenId: string) => Promise<void>,
  ) {}

  list(userId: string): Promise<ApiTokenInfo[]> {
    return this.prisma.apiToken.findMany({ where: { userId }, select: INFO_FIELDS, orderBy: { createdAt: 'asc' } });
  }

  /** Revokes one of the user's tokens (`userId` null = an operator at the CLI: any token). */
  async revoke(userId: string | null, tokenId: string): Promise<ApiTokenInfo> {
    if (!UUID.test(tokenId)) throw new InvalidInputError('id', `"${tokenId.slice(0, 80)}" is not a token id.`);
    const token = await this.prisma.apiToken.findFirst({ where: { id: tokenId.toLowerCase(), ...(userId ? { userId } : {}) }, select: INFO_FIELDS });
    if (!token) throw new NotFoundError('API token', tokenId);
    await this.prisma.apiToken.deleteMany({ where: { id: token.id } });
    await this.announceRevocation(token.id);
    return token;
  }
}
