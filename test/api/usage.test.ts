import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueApiToken } from '../../src/auth/tokens.ts';
import { encodeId } from '../../src/schema/ids.ts';
import { formatPicos } from '../../src/usage/money.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { expectTypename } from '../support/client.ts';
import * as documents from '../support/documents.ts';
import { startFakeProvider, type FakeProvider, type FakeUsage } from '../support/fake-provider.ts';
import { ofKind } from '../support/run-events.ts';
import { addAgent, addMember, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { databaseState, eventually, request, requestData, startInstancePair, startTestServer, type InstancePair, type TestServer } from '../support/server.ts';

/**
 * Every model call is recorded with its tokens by kind and its price at that moment: checked to the
 * pico-unit against the prices (the demo model's documented one, an operator's), rolled up over a
 * delegated run, a thread and a project, and read only by whom it concerns.
 */

type UsageFields = documents.UsageFieldsFragment;

/** A price per million tokens of each kind, in micro-units (the price of one token in pico-units). */
interface Price {
  input: bigint;
  output: bigint;
  cachedInput?: bigint;
  cacheWrite?: bigint;
  reasoning?: bigint;
}

/** The cost the issue defines, computed here independently of src/usage: an exact amount string. */
function expectedCost(usage: Pick<UsageFields, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'outputTokens' | 'reasoningTokens'>, price: Price): string {
  const uncached = BigInt(usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const text = BigInt(usage.outputTokens - usage.reasoningTokens);
  const picos =
    uncached * price.input +
    BigInt(usage.cachedInputTokens) * (price.cachedInput ?? price.input) +
    BigInt(usage.cacheWriteTokens) * (price.cacheWrite ?? price.input) +
    text * price.output +
    BigInt(usage.reasoningTokens) * (price.reasoning ?? price.output);
  return formatPicos(picos);
}

const DEMO_PRICE: Price = { input: 1_000_000n, output: 2_000_000n, cachedInput: 100_000n, cacheWrite: 1_250_000n, reasoning: 3_000_000n };

describeEachBackend('usage and cost', (backend) => {
  let server: TestServer;
  let fake: FakeProvider;
  let admin: { userId: string; token: string; projectId: string; agentId: string };
  let operatorToken: string;

  const executionUsage = async (executionId: string, token = admin.token) => {
    const { node } = await requestData(server, documents.ExecutionUsageDocument, { id: executionId }, token);
    return (node as { usage: { own: UsageFields; delegated: UsageFields; total: UsageFields } }).usage;
  };
  const finishedExecution = (events: Awaited<ReturnType<typeof sendAndFollow>>) => ofKind(events, 'ExecutionFinished').at(-1)!.executionId!;
  /** One turn of the agent on a new thread, and the usage its execution recorded. */
  const turnUsage = async (agentId: string, text: string) => {
    const threadId = await newThread(server, admin.token, agentId);
    return { threadId, ...(await executionUsage(finishedExecution(await sendAndFollow(server, admin.token, threadId, text)))) };
  };
  const setPrice = async (model: string, prices: { inputPerMillion: string; outputPerMillion: string; cachedInputPerMillion?: string; cacheWritePerMillion?: string; reasoningPerMillion?: string }, token = operatorToken) =>
    (await requestData(server, documents.SetModelPriceDocument, { model, ...prices }, token)).setModelPrice;

  beforeAll(async () => {
    fake = await startFakeProvider();
    server = await startTestServer({
      backend,
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: fake.url,
        PARLEY_PROVIDERS: JSON.stringify({ local: { baseURL: fake.url } }),
        PARLEY_CURRENCY: 'EUR',
      },
    });
    admin = await setUpAgent(server, { project: 'Usage' });
    ({ token: operatorToken } = await issueApiToken(server.parley.db.prisma, admin.userId, 'operator', { admin: true }));
  });

  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it('prices a demo reply at the demo model’s documented price, to the pico-unit', async () => {
    const { own, delegated, total } = await turnUsage(admin.agentId, 'price this reply please');
    expect(own.modelCalls).toBe(1);
    expect(own.inputTokens).toBeGreaterThan(0);
    expect(own.reasoningTokens).toBe(1);
    expect(own.outputTokens).toBeGreaterThan(own.reasoningTokens);
    expect(own.cost).toEqual({ amount: expectedCost(own, DEMO_PRICE), currency: 'EUR' });
    expect(delegated.modelCalls).toBe(0);
    expect(total).toEqual(own);
  });

  it('prices every kind of token at an operator’s price: cached input, cache writes, reasoning', async () => {
    const project = admin.projectId;
    const anthropic = await addAgent(server, project, { name: 'Claude', model: 'anthropic:claude-usage', tools: [] });
    const openai = await addAgent(server, project, { name: 'GPT', model: 'openai:gpt-usage', tools: [] });
    const anthropicPrice = { inputPerMillion: '3', outputPerMillion: '15.00', cachedInputPerMillion: '0.3', cacheWritePerMillion: '3.75', reasoningPerMillion: '20.000001' };
    expect(await setPrice('anthropic:claude-usage', anthropicPrice)).toMatchObject({
      __typename: 'ModelPrice', inputPerMillion: '3.00', outputPerMillion: '15.00', cachedInputPerMillion: '0.30', reasoningPerMillion: '20.000001', currency: 'EUR', source: 'operator',
    });
    // No reasoning price: reasoning is charged as output.
    await setPrice('openai:gpt-usage', { inputPerMillion: '2.5', outputPerMillion: '10', cachedInputPerMillion: '1.25' });

    const cases: { agentId: string; usage: FakeUsage; price: Price; expected: Partial<UsageFields> }[] = [
      {
        agentId: anthropic,
        usage: { input: 1000, cachedInput: 200, cacheWrite: 300, output: 50, reasoning: 20 },
        price: { input: 3_000_000n, output: 15_000_000n, cachedInput: 300_000n, cacheWrite: 3_750_000n, reasoning: 20_000_001n },
        expected: { inputTokens: 1500, cachedInputTokens: 200, cacheWriteTokens: 300, outputTokens: 50, reasoningTokens: 20 },
      },
      {
        agentId: openai,
        usage: { input: 700, cachedInput: 300, output: 40, reasoning: 10 },
        price: { input: 2_500_000n, output: 10_000_000n, cachedInput: 1_250_000n },
        expected: { inputTokens: 1000, cachedInputTokens: 300, cacheWriteTokens: 0, outputTokens: 40, reasoningTokens: 10 },
      },
    ];
    for (const { agentId, usage, price, expected } of cases) {
      fake.enqueue({ kind: 'reply', chunks: ['Priced', ' reply'], usage });
      const { own } = await turnUsage(agentId, 'go');
      expect(own).toMatchObject({ ...expected, modelCalls: 1, unpricedCalls: 0 });
      expect(own.cost?.amount).toBe(expectedCost(own, price));
    }
    // Worked by hand for the first, in pico-units: 1000·3,000,000 + 200·300,000 + 300·3,750,000 + 30·15,000,000 + 20·20,000,001 = 5,035,000,020.
    expect(expectedCost({ inputTokens: 1500, cachedInputTokens: 200, cacheWriteTokens: 300, outputTokens: 50, reasoningTokens: 20 }, cases[0]!.price)).toBe('0.00503500002');
  });

  it('records an unpriced model’s tokens with no cost, never a zero', async () => {
    const local = await addAgent(server, admin.projectId, { name: 'Local', model: 'local:unpriced', tools: [] });
    fake.enqueue({ kind: 'reply', chunks: ['free?'], usage: { input: 12, output: 3 } });
    const { threadId, own } = await turnUsage(local, 'hi');
    expect(own).toMatchObject({ inputTokens: 12, outputTokens: 3, modelCalls: 1, unpricedCalls: 1, cost: null, pricedCost: { amount: '0.00', currency: 'EUR' } });
    const { thread } = await requestData(server, documents.ThreadUsageDocument, { id: threadId }, admin.token);
    expect(thread.usage).toEqual(own);
  });

  it('rolls a delegated run’s calls up into its parent, shown apart', async () => {
    const { threadId, own, delegated, total } = await turnUsage(admin.agentId, '/delegate summarise this');
    expect(own.modelCalls).toBe(2);
    expect(delegated.modelCalls).toBe(1);
    expect(delegated.cost?.amount).toBe(expectedCost(delegated, DEMO_PRICE));
    for (const kind of ['inputTokens', 'outputTokens', 'reasoningTokens', 'modelCalls'] as const) expect(total[kind]).toBe(own[kind] + delegated[kind]);
    const { thread } = await requestData(server, documents.ThreadUsageDocument, { id: threadId }, admin.token);
    expect(thread.usage).toEqual(total);
  });

  it('carries the run’s usage on ExecutionFinished', async () => {
    const threadId = await newThread(server, admin.token, admin.agentId);
    const events = await sendAndFollow(server, admin.token, threadId, 'and once more');
    const executionId = finishedExecution(events);
    const client = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${admin.token}` }, lazy: true, retryAttempts: 0 });
    try {
      const finished = await new Promise<{ total: UsageFields }>((resolve, reject) => {
        const stop = client.subscribe<{ runEvents: { __typename: string; usage?: { total: UsageFields } } }>(
          { query: `subscription ($threadId: ID!) { runEvents(threadId: $threadId, after: "0") { __typename ... on ExecutionFinished { usage { total { modelCalls inputTokens outputTokens cost { amount } } } } } }`, variables: { threadId } },
          {
            next: ({ data }) => {
              if (data?.runEvents.__typename !== 'ExecutionFinished') return;
              stop();
              resolve(data.runEvents.usage!);
            },
            error: reject,
            complete: () => reject(new Error('the subscription ended before ExecutionFinished')),
          },
        );
      });
      const { total } = await executionUsage(executionId);
      expect(finished.total).toEqual({ modelCalls: 1, inputTokens: total.inputTokens, outputTokens: total.outputTokens, cost: { amount: total.cost!.amount } });
    } finally {
      await client.dispose();
    }
  });

  it('reads a project’s usage by whom it concerns: admins everything, members their own, others nothing', async () => {
    const { token: memberToken, userId: memberId } = await addMember(server, admin.projectId, { role: 'member' });
    const memberThread = await newThread(server, memberToken, admin.agentId);
    await sendAndFollow(server, memberToken, memberThread, 'a member spends too');
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const read = (token: string, groupBy: ('DAY' | 'MONTH' | 'MODEL' | 'USER' | 'AGENT')[]) => request(server, documents.ProjectUsageDocument, { projectId: admin.projectId, from, to, groupBy }, token);

    const byUser = (await read(admin.token, ['USER'])).data!.usage;
    expect(byUser.map((row) => row.userId).sort()).toEqual([encodeId('User', admin.userId), encodeId('User', memberId)].sort());
    const all = (await read(admin.token, [])).data!.usage;
    expect(all).toHaveLength(1);
    expect(all[0]!.usage.modelCalls).toBe(byUser.reduce((sum, row) => sum + row.usage.modelCalls, 0));

    const own = (await read(memberToken, ['USER', 'MODEL', 'DAY', 'AGENT'])).data!.usage;
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ model: 'demo:default', day: new Date().toISOString().slice(0, 10), agent: { name: 'Demo' }, usage: { modelCalls: 1 } });
    expect(own[0]!.userId).toBe(encodeId('User', memberId));

    const outsider = await server.createUser();
    const refused = await read(outsider.token, []);
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses bad input with a typed error and changes nothing', async () => {
    const before = await databaseState(server);
    const plain = await requestData(server, documents.SetModelPriceDocument, { model: 'demo:default', inputPerMillion: '1', outputPerMillion: '1' }, admin.token);
    expect(expectTypename(plain.setModelPrice, 'ForbiddenError').message).toContain('admin');
    const reversed = await request(server, documents.ProjectUsageDocument, { projectId: admin.projectId, from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, admin.token);
    expect(reversed.errors?.[0]).toMatchObject({ message: expect.stringContaining('from'), extensions: { code: 'BAD_USER_INPUT' } });
    const tooLong = await request(server, documents.ProjectUsageDocument, { projectId: admin.projectId, from: '2025-01-01T00:00:00Z', to: '2026-06-01T00:00:00Z' }, admin.token);
    expect(tooLong.errors?.[0]).toMatchObject({ message: expect.stringContaining('366'), extensions: { code: 'BAD_USER_INPUT' } });
    const badNames = await request(server, documents.ModelPricesDocument, { models: ['demo:default', 'no-colon'] }, admin.token);
    expect(badNames.errors?.[0]).toMatchObject({ message: expect.stringContaining('no-colon'), extensions: { code: 'BAD_USER_INPUT' } });
    const tooMany = await request(server, documents.ModelPricesDocument, { models: Array.from({ length: 21 }, (_, index) => `demo:m${index}`) }, admin.token);
    expect(tooMany.errors?.[0]).toMatchObject({ message: expect.stringContaining('20'), extensions: { code: 'BAD_USER_INPUT' } });
    expect(await databaseState(server)).toEqual(before);
  });

  it('refuses a report of more than 1,000 rows instead of cutting it short', async () => {
    const crowd = await setUpAgent(server, { project: 'Crowd' });
    const at = new Date();
    await server.parley.db.prisma.modelCall.createMany({
      data: Array.from({ length: 1_001 }, (_, index) => ({
        projectId: crowd.projectId, threadId: 't', executionId: `e${index}`, rootExecutionId: `e${index}`, agentId: crowd.agentId, userId: `u${index}`,
        modelId: 'demo:default', inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0, cost: '0.000000003', priceSource: 'demo', createdAt: at,
      })),
    });
    const range = { projectId: crowd.projectId, from: new Date(at.getTime() - 60_000).toISOString(), to: new Date(at.getTime() + 60_000).toISOString() };
    const byUser = await request(server, documents.ProjectUsageDocument, { ...range, groupBy: ['USER'] }, crowd.token);
    expect(byUser.errors?.[0]).toMatchObject({ message: expect.stringContaining('1000'), extensions: { code: 'BAD_USER_INPUT' } });
    const whole = await requestData(server, documents.ProjectUsageDocument, { ...range, groupBy: [] }, crowd.token);
    expect(whole.usage[0]!.usage).toMatchObject({ modelCalls: 1_001, inputTokens: 1_001, cost: { amount: '0.000003003' } });
  });

  it('lists the operator’s prices and a named model’s default', async () => {
    const { modelPrices } = await requestData(server, documents.ModelPricesDocument, { models: ['demo:default', 'local:unpriced'] }, admin.token);
    expect(modelPrices.find((price) => price.model === 'demo:default')).toMatchObject({ source: 'demo', inputPerMillion: '1.00', reasoningPerMillion: '3.00', currency: 'EUR' });
    expect(modelPrices.find((price) => price.model === 'anthropic:claude-usage')).toMatchObject({ source: 'operator', cacheWritePerMillion: '3.75' });
    expect(modelPrices.some((price) => price.model === 'local:unpriced')).toBe(false);
  });
});

describeWithServices('a price set on one instance prices the next call on another', () => {
  let pair: InstancePair;

  beforeAll(async () => {
    pair = await startInstancePair();
  });

  afterAll(async () => {
    await pair?.stop();
  });

  it('announces the change to every instance', async () => {
    const { first, second } = pair;
    const owner = await setUpAgent(first, { project: 'Shared prices' });
    const { token: operator } = await issueApiToken(first.parley.db.prisma, owner.userId, 'operator', { admin: true });
    const price = { model: 'demo:default', inputPerMillion: '7', outputPerMillion: '11' };
    expect((await requestData(first, documents.SetModelPriceDocument, price, operator)).setModelPrice).toMatchObject({ source: 'operator' });
    await eventually(async () => {
      const { modelPrices } = await requestData(second, documents.ModelPricesDocument, { models: [] }, owner.token);
      return modelPrices.some((listed) => listed.model === 'demo:default' && listed.inputPerMillion === '7.00');
    }, 15_000, 'the second instance reading the new price');

    const threadId = await newThread(second, owner.token, owner.agentId);
    const events = await sendAndFollow(second, owner.token, threadId, 'priced elsewhere');
    const { node } = await requestData(second, documents.ExecutionUsageDocument, { id: ofKind(events, 'ExecutionFinished')[0]!.executionId! }, owner.token);
    const { own } = (node as { usage: { own: UsageFields } }).usage;
    expect(own.cost?.amount).toBe(expectedCost(own, { input: 7_000_000n, output: 11_000_000n }));
  });
});
