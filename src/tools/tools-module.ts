import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { queueLimits, type QueueSettings } from '../queue/settings.ts';
import type { Module } from '../lifecycle/module.ts';
import { SecretBox, secretKeyFor } from './secrets.ts';
import type { ToolSettings } from './settings.ts';
import { ToolServers, type ToolObservers } from './tool-servers.ts';

/** The instance's tool-server clients: connected at start (in the background), closed at stop. */
export class ToolsModule implements Module {
  readonly name = 'tool servers';
  readonly servers: ToolServers;

  constructor(
    prisma: PrismaClient,
    access: AccessPolicy,
    settings: ToolSettings & QueueSettings & { PARLEY_DATA_DIR: string },
    embedded: boolean,
    logger: Logger,
    observers?: ToolObservers,
  ) {
    const where = !embedded ? null : settings.PARLEY_DATA_DIR === 'memory://' ? 'memory' : { dataDir: settings.PARLEY_DATA_DIR };
    this.servers = new ToolServers(prisma, access, settings, new SecretBox(secretKeyFor(settings, where)), logger, queueLimits(settings), observers);
  }

  async start(): Promise<void> {
    await this.servers.syncDeclared();
    await this.servers.connectAll();
  }

  async stop(): Promise<void> {
    await this.servers.close();
  }
}
