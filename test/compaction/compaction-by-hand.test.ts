import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CompactionService } from '../../src/compaction/compaction-service.ts';
import type { ModelRegistry } from '../../src/models/registry.ts';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send } from '../support/client.ts';
import { CompactThreadDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { activeExecutionOf, settledConversation } from '../support/waits.ts';

// A compaction by hand (compactThread, docs/compaction.md): its summary's model call is usage like
// any other (a model_call row, priced), and its write checks the thread again: a run that started,
// or a path that moved, while the summary was being written leaves nothing compacted.

const rawId = (id: string) => Buffer.from(id, 'base64').toString().replace(/^Thread:/, '');

/** Resolves when `open` is called; `opened` resolves once the held call has begun. */
function gate() {
  let open!: () => void;
  let begun!: () => void;
  const released = new Promise<void>((resolve) => (open = resolve));
  const opened = new Promise<void>((resolve) => (begun = resolve));
  return { released, opened, open, begun };
}

describeEachBackend('a compaction by hand', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ backend });
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function threadWithTurns(project: string, turns: string[]) {
    const setUp = await setUpAgent(server, { project, compaction: { keptTurns: 2 } });
    const threadId = await newThread(server, setUp.token, setUp.agentId);
    for (const text of turns) {
      await send(server, setUp.token, threadId, text);
      await settledConversation(server, setUp.token, threadId);
    }
    return { ...setUp, threadId };
  }

  const compactionsOf = async (token: string, threadId: string) =>
    messagesOf(await conversation(server, token, threadId)).flatMap((message) => message.parts.filter((part) => part.__typename === 'CompactionPart'));

  it('records its summary’s model call as usage, priced like a run’s', async () => {
    const { token, threadId, userId, agentId, projectId } = await threadWithTurns('Usage by hand', ['one', 'two', 'three', 'four']);
    const prisma = server.parley.db.prisma;
    const calls = () => prisma.modelCall.findMany({ where: { threadId: rawId(threadId) }, orderBy: { createdAt: 'asc' } });
    expect(await calls()).toHaveLength(4);
    expect((await requestData(server, CompactThreadDocument, { threadId }, token)).compactThread.__typename).toBe('Conversation');
    const [part] = (await compactionsOf(token, threadId)) as { compactionInputTokens: number; compactionOutputTokens: number }[];
    const recorded = await calls();
    expect(recorded).toHaveLength(5);
    const summaryCall = recorded.at(-1)!;
    expect(summaryCall).toMatchObject({ projectId, agentId, userId, modelId: 'demo:default', inputTokens: part!.compactionInputTokens, outputTokens: part!.compactionOutputTokens });
    expect(summaryCall.inputTokens).toBeGreaterThan(0);
    // The demo model has a price: the call has a cost, as a run's has.
    expect(summaryCall.cost).not.toBeNull();
    expect(summaryCall.priceSource).toBe(recorded[0]!.priceSource);
  });

  it('writes nothing when the path moved, or a run started, while its summary was being written', async () => {
    const { token, threadId, userId } = await threadWithTurns('Moved on', ['one', 'two', 'three', 'four']);
    const prisma = server.parley.db.prisma;
    const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
    const parley = server.parley;
    let held = gate();
    // The domain service on the server's own database, with a summariser that waits for the test.
    const models = Object.create(parley.models) as ModelRegistry;
    models.resolve = (id: string) => {
      const model = parley.models.resolve(id);
      const waiting = Object.create(model) as LanguageModelV3;
      waiting.doGenerate = async (options) => {
        held.begun();
        await held.released;
        return model.doGenerate(options);
      };
      return waiting;
    };
    const service = new CompactionService({ prisma, sql: parley.db.sql, models, bus: parley.bus, access: parley.services.access, recordCall: async () => {} });

    // Another turn completes while the summary is written: the path moved under it.
    const moved = service.compactThread(user, rawId(threadId));
    await held.opened;
    await send(server, token, threadId, 'five');
    await settledConversation(server, token, threadId);
    held.open();
    await expect(moved).rejects.toMatchObject({ name: 'ConflictError', message: expect.stringContaining('nothing was compacted') });
    expect(await compactionsOf(token, threadId)).toEqual([]);

    // A run is active when the summary is done.
    held = gate();
    const raced = service.compactThread(user, rawId(threadId));
    await held.opened;
    await send(server, token, threadId, '/slow 2');
    await activeExecutionOf(server, token, threadId);
    held.open();
    await expect(raced).rejects.toMatchObject({ name: 'ConflictError', message: expect.stringContaining('nothing was compacted') });
    await settledConversation(server, token, threadId);
    expect(await compactionsOf(token, threadId)).toEqual([]);

    // Left alone, the same compaction is written.
    held = gate();
    held.open();
    expect(await service.compactThread(user, rawId(threadId))).toMatchObject({ type: 'compaction', undone: false });
    expect(await compactionsOf(token, threadId)).toHaveLength(1);
  });
});
