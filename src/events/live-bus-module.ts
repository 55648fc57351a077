import type { Logger } from 'pino';
import type { Module } from '../lifecycle/module.ts';
import { CountingLiveBus } from './counting-bus.ts';
import { createLiveBus, type LiveBus } from './live-bus.ts';
import type { LiveBusSettings } from './settings.ts';

export interface LiveBusObservers {
  /** Each event published, live-only or durable. */
  published: (kind: 'live' | 'durable') => void;
  /** Each time delivery came back after a Redis outage. */
  resynced: () => void;
}

/** The live bus: over Redis with REDIS_URL or REDIS_CLUSTER_NODES (instances share it), in memory otherwise. */
export class LiveBusModule implements Module {
  readonly name = 'live bus';
  private opened: LiveBus | null = null;
  private deliveryUp = true;

  constructor(
    private readonly settings: LiveBusSettings,
    private readonly logger: Logger,
    private readonly observers: LiveBusObservers,
  ) {}

  get bus(): LiveBus {
    if (!this.opened) throw new Error('the live bus is not started');
    return this.opened;
  }

  /** Whether live events reach other instances now (always, in memory). */
  get connected(): boolean {
    const bus = this.bus;
    return bus.kind === 'memory' || (this.deliveryUp && bus.commandClient?.status === 'ready');
  }

  async start(): Promise<void> {
    const bus = new CountingLiveBus(createLiveBus(this.settings, this.logger), this.observers.published);
    bus.onOutage(() => {
      this.deliveryUp = false;
    });
    bus.onResync(() => {
      this.deliveryUp = true;
      this.observers.resynced();
    });
    this.opened = bus;
  }

  async stop(): Promise<void> {
    await this.opened?.close();
  }
}
