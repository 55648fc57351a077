import type { Logger } from 'pino';
import type { InstanceMessage, LiveBus } from '../events/live-bus.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Module } from '../lifecycle/module.ts';
import { JwtVerifier, jwtKeysFrom } from './jwt.ts';
import type { JwtSettings } from './settings.ts';
import { ApiTokens, TokenAuthenticator, TokenUsageRecorder } from './tokens.ts';

/**
 * The API tokens and the cached authenticator, with what keeps the cache true: a revocation is
 * forgotten here at once and announced to the other instances, which forget it as they hear it.
 */
export class TokenRevocationModule implements Module {
  readonly name = 'token revocation';
  /** Who a request's token belongs to (cached briefly; revocations reach every instance at once). */
  readonly authenticator: TokenAuthenticator;
  /** Listing and revoking API tokens. */
  readonly tokens: ApiTokens;
  private listener: AsyncIterator<InstanceMessage> | null = null;

  constructor(
    prisma: PrismaClient,
    private readonly bus: LiveBus,
    private readonly logger: Logger,
    jwtSettings: JwtSettings,
  ) {
    const keys = jwtKeysFrom(jwtSettings);
    this.authenticator = new TokenAuthenticator(
      prisma,
      new TokenUsageRecorder(prisma),
      (error) => logger.warn({ err: error }, 'recording a token’s last use failed'),
      Date.now,
      { jwt: keys ? new JwtVerifier(keys, jwtSettings) : null },
    );
    this.tokens = new ApiTokens(prisma, async (tokenId) => {
      this.authenticator.forget(tokenId);
      // The token is gone from the database already; other instances' cached lookups end within seconds anyway.
      await bus
        .announceToInstances({ kind: 'token-revoked', tokenId })
        .catch((error) => logger.warn({ err: error, tokenId }, 'announcing a token revocation failed'));
    });
  }

  async start(): Promise<void> {
    const revocations = this.bus.instanceMessages();
    this.listener = revocations[Symbol.asyncIterator]();
    void (async () => {
      for await (const message of revocations) if (message.kind === 'token-revoked') this.authenticator.forget(message.tokenId);
    })().catch((error) => this.logger.error({ err: error }, 'token revocation listener stopped'));
  }

  async stop(): Promise<void> {
    await this.listener?.return?.();
  }
}
