import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import type { RunState } from '../../src/recording/run-listener.ts';
import { insertModelCalls } from '../../src/storage/model-call-statements.ts';
import { PriceBook } from '../../src/usage/price-book.ts';
import { PriceDataset } from '../../src/usage/price-dataset.ts';
import { UsageReads } from '../../src/usage/usage-reads.ts';
import { UsageRecorder } from '../../src/usage/usage-recorder.ts';
import { describeEachBackend } from '../support/backends.ts';
import { dropSchema, isolatedEnv } from '../support/server.ts';

/**
 * A run's model calls reach the database at each boundary between its requests, so a run killed
 * later (its instance gone before any end is written) keeps what its calls reported; the rest go
 * with the end (the settlement's statement, checked through the API in test/api/usage.test.ts).
 */
describeEachBackend('recording model calls', (backend) => {
  let db: Database;
  let databaseUrl: string | undefined;
  let projectId: string;

  beforeAll(async () => {
    databaseUrl = isolatedEnv(backend).DATABASE_URL;
    db = await openDatabase(databaseUrl ? { databaseUrl } : { memory: true });
    await db.migrate();
    projectId = (await db.prisma.project.create({ data: { name: 'Books' } })).id;
  });

  afterAll(async () => {
    await db?.close();
    if (databaseUrl) await dropSchema(databaseUrl);
  });

  const run = (executionId: string): RunState => ({
    executionId,
    threadId: 'thread-1',
    agentId: 'agent-1',
    userId: 'user-1',
    parentExecutionId: null,
    acceptedText: '',
    assistantMessageId: null,
    textLength: 0,
    reasoningLength: 0,
  });

  it('writes the calls before a boundary there, and leaves the rest to the end', async () => {
    const book = new PriceBook(db.prisma, new PriceDataset());
    await book.reload();
    const priced: bigint[] = [];
    const recorder = new UsageRecorder({ sql: db.sql, prices: book, onCall: (call) => priced.push(call.costPicos!) }, { projectId, model: 'demo:default' });
    const state = run('killed-run');
    const tokens = { inputTokens: 100, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 10, reasoningTokens: 1 };
    await recorder.onEvent({ type: 'model-call', tokens }, state);
    await recorder.onEvent({ type: 'boundary' }, state);
    await recorder.onEvent({ type: 'model-call', tokens: { ...tokens, inputTokens: 200 } }, state);
    await recorder.drain();

    // The instance dies here: no end is ever written. The first call is on the books.
    const { own } = await new UsageReads(db.prisma).ofExecution('killed-run');
    expect(own).toMatchObject({ modelCalls: 1, inputTokens: 100, outputTokens: 10, reasoningTokens: 1, unpricedCalls: 0 });
    // demo: 100 input at 1.00, 9 text at 2.00, 1 reasoning at 3.00 per million.
    expect(own.pricedPicos).toBe(100n * 1_000_000n + 9n * 2_000_000n + 1n * 3_000_000n);
    expect(priced).toEqual([121_000_000n, 221_000_000n]);
    // The second is what the end would write.
    expect(recorder.contribute().modelCalls?.map((call) => call.inputTokens)).toEqual([200]);
  });

  it('keeps a boundary’s calls for the end when writing them failed', async () => {
    const book = new PriceBook(db.prisma, new PriceDataset());
    const broken = { ...db.sql, query: async () => Promise.reject(new Error('connection lost')) } as unknown as Database['sql'];
    const recorder = new UsageRecorder({ sql: broken, prices: book }, { projectId, model: 'local:unpriced' });
    const state = run('outage-run');
    await recorder.onEvent({ type: 'model-call', tokens: { inputTokens: 5, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 } }, state);
    await recorder.onEvent({ type: 'boundary' }, state);
    await recorder.drain();
    const [call] = recorder.contribute().modelCalls!;
    expect(call).toMatchObject({ inputTokens: 5, cost: null, priceSource: null });
    await insertModelCalls(db.sql, [call!]);
    expect((await new UsageReads(db.prisma).ofExecution('outage-run')).own).toMatchObject({ modelCalls: 1, unpricedCalls: 1, pricedPicos: 0n });
  });
});
