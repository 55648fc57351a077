import type { BaseEvent } from '@ag-ui/core';
import type { EventBacklog } from '../events/event-backlog.ts';
import type { LiveBus } from '../events/live-bus.ts';
import { streamThreadEvents, type RunningReplies } from '../events/run-event-stream.ts';
import type { LiveBusSettings } from '../events/settings.ts';
import type { User } from '../generated/prisma/client.ts';
import type { Module } from '../lifecycle/module.ts';
import { observeDelivery } from '../observability/delivery.ts';
import type { ParleyMetrics } from '../observability/metrics.ts';
import { queueLimits, type QueueSettings } from '../queue/settings.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import { AgUiService, type AgUiDeps } from './ag-ui-service.ts';

/** What the module is built on: the instance's database, bus and running replies, and the domain services it calls. */
export type AgUiModuleDeps = Pick<AgUiDeps, 'prisma' | 'access' | 'directory' | 'queue' | 'suspensions' | 'cancellation' | 'logger'> & {
  sql: SqlRunner;
  bus: LiveBus;
  running: RunningReplies;
  metrics: ParleyMetrics;
  settings: QueueSettings & Pick<LiveBusSettings, 'PARLEY_LIVE_CHANNEL_TIMEOUT_MS'>;
};

/**
 * The AG-UI endpoint's domain side for one instance: its service, and the streams it has open,
 * which it ends when the instance stops (a client then attaches again elsewhere). It hears runs
 * through the thread event log and live bus, like any subscriber: nothing in the engine knows it.
 */
export class AgUiModule implements Module {
  readonly name = 'ag-ui';
  private readonly service: AgUiService;
  private readonly open = new Set<AsyncGenerator<BaseEvent>>();

  constructor({ sql, bus, running, metrics, settings, ...deps }: AgUiModuleDeps) {
    this.service = new AgUiService({
      ...deps,
      limits: queueLimits(settings),
      // The same stream a runEvents subscriber gets: replay after the cursor, snapshots, then live.
      threadEvents: ({ threadId, after, backlog }) =>
        observeDelivery(
          streamThreadEvents({
            prisma: deps.prisma, sql, bus, running, threadId, after, backlog,
            liveChannelTimeoutMs: settings.PARLEY_LIVE_CHANNEL_TIMEOUT_MS,
          }),
          metrics,
        ),
    });
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    for (const stream of this.open) void stream.return(undefined).catch(() => undefined);
    this.open.clear();
  }

  /** One AG-UI request (a RunAgentInput body): refused with a DomainError before anything changes, or its stream. */
  async run(user: User, agentId: string, body: unknown, backlog?: EventBacklog, streamEnded?: AbortSignal): Promise<AsyncGenerator<BaseEvent>> {
    const stream = await this.service.run(user, agentId, body, { backlog, streamEnded });
    this.open.add(stream);
    const forget = () => this.open.delete(stream);
    return tracked(stream, forget);
  }

  /** Stop: the thread's active run ends cancelled. */
  stopRun(user: User, agentId: string, threadId: string) {
    return this.service.stop(user, agentId, threadId);
  }
}

async function* tracked(stream: AsyncGenerator<BaseEvent>, onEnd: () => void): AsyncGenerator<BaseEvent> {
  try {
    yield* stream;
  } finally {
    onEnd();
  }
}
