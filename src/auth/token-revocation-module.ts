import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Module } from '../lifecycle/module.ts';
import { JwtVerifier, jwtKeysFrom } from './jwt.ts';
import type { JwtSettings } from './settings.ts';
import { SignedInStreams } from './signed-in-streams.ts';
import { ApiTokens, TokenAuthenticator, TokenUsageRecorder } from './tokens.ts';

/** What every instance hears when a sign-in ends early: a revoked token, a disabled (or enabled again) user. */
export type RevocationMessage = { kind: 'token-revoked'; tokenId: string } | { kind: 'user-disabled' | 'user-enabled'; userId: string };

const REVOCATION_KINDS: ReadonlySet<string> = new Set<RevocationMessage['kind']>(['token-revoked', 'user-disabled', 'user-enabled']);

/**
 * What revocation needs of the channel the instances share (the live bus): announcing to every
 * instance, hearing each message any instance announces (other kinds too, which it ignores), and
 * whether everything announced so far has been heard. Declared here so that auth knows nothing of
 * the bus.
 */
export interface InstanceAnnouncements {
  announceToInstances(message: RevocationMessage): Promise<void>;
  onInstanceMessage(listener: (message: { kind: string }) => void): () => void;
  instanceMessagesHeard(): Promise<boolean>;
}

/**
 * The API tokens and the cached authenticator, with what keeps the cache true: a revoked token or
 * a disabled user is forgotten here at once and announced to the other instances, which forget it
 * as they hear it (and end the disabled user's open streams).
 */
export class TokenRevocationModule implements Module {
  readonly name = 'token revocation';
  /** Who a request's token belongs to (cached briefly; revocations reach every instance at once). */
  readonly authenticator: TokenAuthenticator;
  /** Listing and revoking API tokens. */
  readonly tokens: ApiTokens;
  /** Each signed-in user's open WebSockets and SSE subscriptions on this instance. */
  readonly streams = new SignedInStreams();
  private stopListening: (() => void) | null = null;

  constructor(
    prisma: PrismaClient,
    private readonly bus: InstanceAnnouncements,
    private readonly logger: Logger,
    jwtSettings: JwtSettings,
  ) {
    const keys = jwtKeysFrom(jwtSettings);
    this.authenticator = new TokenAuthenticator(
      prisma,
      new TokenUsageRecorder(prisma),
      (error) => logger.warn({ err: error }, 'recording a token’s last use failed'),
      Date.now,
      { jwt: keys ? new JwtVerifier(keys, jwtSettings) : null, revocationsHeard: () => bus.instanceMessagesHeard() },
    );
    this.tokens = new ApiTokens(prisma, async (tokenId) => {
      this.authenticator.forget(tokenId);
      // The token is gone from the database already; another instance that misses this (Redis away)
      // stops trusting its cached lookups, as it cannot tell that it heard every revocation.
      await this.announce({ kind: 'token-revoked', tokenId });
    });
  }

  /** The user is disabled in the database: ends their access here now, and on every other instance as it hears. */
  async userDisabled(userId: string): Promise<void> {
    this.forgetUser(userId);
    await this.announce({ kind: 'user-disabled', userId });
  }

  /** The user is enabled again: every instance forgets the refusals it remembers (else they last a few seconds more). */
  async userEnabled(userId: string): Promise<void> {
    this.authenticator.forgetUser(userId);
    await this.announce({ kind: 'user-enabled', userId });
  }

  async start(): Promise<void> {
    // Synchronous, so that a message is acted on before anything the bus delivers after it.
    this.stopListening = this.bus.onInstanceMessage((message) => {
      if (!isRevocation(message)) return;
      if (message.kind === 'token-revoked') this.authenticator.forget(message.tokenId);
      if (message.kind === 'user-disabled') this.forgetUser(message.userId);
      if (message.kind === 'user-enabled') this.authenticator.forgetUser(message.userId);
    });
  }

  async stop(): Promise<void> {
    this.stopListening?.();
  }

  private forgetUser(userId: string): void {
    this.authenticator.forgetUser(userId);
    this.streams.endAll(userId);
  }

  private async announce(message: RevocationMessage): Promise<void> {
    await this.bus.announceToInstances(message).catch((error) => this.logger.warn({ err: error, message }, 'announcing a revocation to the other instances failed'));
  }
}

function isRevocation(message: { kind: string }): message is RevocationMessage {
  return REVOCATION_KINDS.has(message.kind);
}
