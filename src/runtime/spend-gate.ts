import type { ReasonedError } from '../errors/taxonomy.ts';
import type { RuntimeEvent } from './runtime-event.ts';

/**
 * Asked before every model request of a run: whether the run may spend on it. A limit that is
 * reached aborts the run's signal with `SpendLimitReached` (here, or later while the request
 * streams); what it returns are events to report first (a warning that a limit is near).
 */
export interface SpendGate {
  beforeCall(): Promise<RuntimeEvent[]>;
}

/** The abort reason of a run stopped by a spending limit: the limit's own error is the run's failure. */
export class SpendLimitReached extends Error {
  constructor(readonly failure: ReasonedError) {
    super(failure.message);
    this.name = 'SpendLimitReached';
  }
}
