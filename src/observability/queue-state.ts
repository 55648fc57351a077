import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { QueueState } from './metrics.ts';

const EMPTY: QueueState = { pending: 0, steeringReservations: 0, oldestPendingAt: null, liveLeases: 0 };

/**
 * Reads the queue gauges in one query and keeps the answer for `ttlMs`, so that scrapes (from
 * several Prometheus servers, every few seconds) cost the database at most one query per period.
 * A failed read keeps the last answer: /metrics must answer while the database does not.
 */
export class QueueStateReader {
  private last: { at: number; state: QueueState } | null = null;
  private inFlight: Promise<QueueState> | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
    private readonly ttlMs = 5_000,
  ) {}

  read(): Promise<QueueState> {
    if (this.last && Date.now() - this.last.at < this.ttlMs) return Promise.resolve(this.last.state);
    this.inFlight ??= this.query()
      .then((state) => {
        this.last = { at: Date.now(), state };
        return state;
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'reading the queue gauges failed');
        return this.last?.state ?? EMPTY;
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  private async query(): Promise<QueueState> {
    // Timestamps are stored as UTC without a zone; comparing with a parameter avoids the session's zone.
    const now = new Date();
    const [row] = await this.prisma.$queryRaw<
      { pending: number; steering: number; oldest_age_s: number | null; leases: number }[]
    >`SELECT
        (SELECT count(*) FROM queue_item WHERE "steeringExecutionId" IS NULL)::int AS pending,
        (SELECT count(*) FROM queue_item WHERE "steeringExecutionId" IS NOT NULL)::int AS steering,
        (SELECT EXTRACT(EPOCH FROM (${now}::timestamp(3) - min("createdAt")))::float8
           FROM queue_item WHERE "steeringExecutionId" IS NULL) AS oldest_age_s,
        (SELECT count(*) FROM instance WHERE "expiresAt" > ${now}::timestamp(3))::int AS leases`;
    const ageS = row?.oldest_age_s ?? null;
    return {
      pending: row?.pending ?? 0,
      steeringReservations: row?.steering ?? 0,
      oldestPendingAt: ageS === null ? null : new Date(now.getTime() - ageS * 1000),
      liveLeases: row?.leases ?? 0,
    };
  }
}
