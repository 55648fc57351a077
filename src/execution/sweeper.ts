import type { Logger } from 'pino';
import type { LiveBus } from '../events/live-bus.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { HandedOffResumes } from './handed-off-resumes.ts';
import type { QueueConsumer } from './queue-consumer.ts';
import type { Interruptions } from './recovery.ts';
import type { RunningExecutions } from './running-executions.ts';

export interface SweeperDeps {
  prisma: PrismaClient;
  bus: LiveBus;
  running: RunningExecutions;
  consumer: QueueConsumer;
  interruptions: Interruptions;
  handedOff: HandedOffResumes;
  logger: Logger;
  sweepMs: number;
  /** Told how many executions of dead instances each sweep interrupted. */
  onSwept: (count: number) => void;
}

/**
 * What an instance that runs turns hears from the others, and what it looks at again every
 * PARLEY_CONSUMER_SWEEP_MS in case a message was lost (Redis down, an instance gone): other
 * instances' kicks and relayed Stops, then Stops recorded, runs of dead instances, resumptions an
 * api instance handed off, and threads with queued messages.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | null = null;
  private kicks: AsyncIterator<unknown> | null = null;
  private stopRelays: (() => void) | null = null;
  private stopped = true;

  constructor(private readonly deps: SweeperDeps) {}

  start(): void {
    const { bus, running, handedOff, consumer, logger } = this.deps;
    this.stopped = false;
    // In memory the direct call in kick() is the only consumer; with Redis, the others hear it here.
    const kicks = bus.queueKicks();
    this.kicks = kicks[Symbol.asyncIterator]();
    void (async () => {
      for await (const { threadId } of kicks) {
        // Only another instance hands a resumption off, so only its kicks may bring one.
        void handedOff.resume(threadId);
        consumer.tryThread(threadId);
      }
    })().catch((error) => logger.error({ err: error }, 'queue kick listener stopped'));
    this.stopRelays = running.answerRelays(bus);
    this.timer = setInterval(() => void this.sweep(), this.deps.sweepMs);
    void this.sweep();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.kicks?.return?.();
    this.stopRelays?.();
  }

  /** Records the runs of instances whose lease ran out as interrupted. */
  async interruptDeadInstancesRuns(): Promise<void> {
    this.deps.onSwept(await this.deps.interruptions.sweep());
  }

  private async sweep(): Promise<void> {
    if (this.stopped) return;
    const { prisma, running, handedOff, consumer } = this.deps;
    try {
      await running.abortRecordedStops(prisma);
      await this.interruptDeadInstancesRuns();
      for (const threadId of await handedOff.threads()) void handedOff.resume(threadId);
      const threads = await prisma.queueItem.findMany({
        where: { steeringExecutionId: null },
        distinct: ['threadId'],
        select: { threadId: true },
        take: 500,
      });
      for (const { threadId } of threads) consumer.tryThread(threadId);
    } catch (error) {
      if (!this.stopped) this.deps.logger.warn({ err: error }, 'queue sweep failed');
    }
  }
}
