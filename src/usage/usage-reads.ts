import { Prisma, type PrismaClient } from '../generated/prisma/client.ts';
import { picosOfAmount } from './money.ts';

/** Tokens by kind, calls and cost summed over a set of model calls. */
export interface UsageSums {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  modelCalls: number;
  /** Calls of models without a price: their cost is unknown, never zero. */
  unpricedCalls: number;
  /** The cost of the priced calls, in pico-units. */
  pricedPicos: bigint;
}

const TOKEN_COLUMNS = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens'] as const;

/** The sums over the calls `filter` selects, as columns prefixed `prefix` (a query may hold several sets). */
export function sumColumns(prefix: string, filter: Prisma.Sql = Prisma.sql`true`): Prisma.Sql {
  const tokens = TOKEN_COLUMNS.map((column) => Prisma.sql`COALESCE(sum(${Prisma.raw(`"${column}"`)}) FILTER (WHERE ${filter}), 0)::text AS ${Prisma.raw(`"${prefix}${column}"`)}`);
  return Prisma.join([
    ...tokens,
    Prisma.sql`count(*) FILTER (WHERE ${filter})::int AS ${Prisma.raw(`"${prefix}modelCalls"`)}`,
    Prisma.sql`count(*) FILTER (WHERE ${filter} AND "cost" IS NULL)::int AS ${Prisma.raw(`"${prefix}unpricedCalls"`)}`,
    Prisma.sql`COALESCE(sum("cost") FILTER (WHERE ${filter}), 0)::text AS ${Prisma.raw(`"${prefix}cost"`)}`,
  ]);
}

/** The sums a row selected with `sumColumns(prefix)` holds. */
export function sumsOf(row: Record<string, unknown>, prefix: string): UsageSums {
  const number = (column: string) => Number(row[`${prefix}${column}`]);
  return {
    inputTokens: number('inputTokens'),
    cachedInputTokens: number('cachedInputTokens'),
    cacheWriteTokens: number('cacheWriteTokens'),
    outputTokens: number('outputTokens'),
    reasoningTokens: number('reasoningTokens'),
    modelCalls: number('modelCalls'),
    unpricedCalls: number('unpricedCalls'),
    pricedPicos: picosOfAmount(String(row[`${prefix}cost`])),
  };
}

/** A run's usage: its own calls, its delegated children's, and both. */
export interface RunUsageSums {
  own: UsageSums;
  delegated: UsageSums;
  total: UsageSums;
}

/** What the recorded model calls say of a run, of a thread, of a project; who may read them is decided by the caller. */
export class UsageReads {
  constructor(private readonly prisma: PrismaClient) {}

  async ofExecution(executionId: string): Promise<RunUsageSums> {
    const [row] = await this.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT ${sumColumns('own_', Prisma.sql`"executionId" = ${executionId}`)},
             ${sumColumns('delegated_', Prisma.sql`"executionId" <> ${executionId}`)},
             ${sumColumns('total_')}
      FROM "model_call" WHERE "executionId" = ${executionId} OR "rootExecutionId" = ${executionId}`;
    return { own: sumsOf(row!, 'own_'), delegated: sumsOf(row!, 'delegated_'), total: sumsOf(row!, 'total_') };
  }

  async ofThread(threadId: string): Promise<UsageSums> {
    const [row] = await this.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT ${sumColumns('')} FROM "model_call" WHERE "threadId" = ${threadId}`;
    return sumsOf(row!, '');
  }
}
