import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REASONS } from '../../src/errors/taxonomy.ts';
import { translate } from '../../src/i18n/catalog.ts';
import { conversation, execution, messagesOf, type Part } from '../support/client.ts';
import { is, replyTexts, typenames } from '../support/run-events.ts';
import { shownFailure } from '../support/recorded-failure.ts';
import { addMember, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Every ErrorReason induced with the demo model, compared live, after a reload and after a restart. */
describe('every failure reaches the user as one categorized error', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-failures-'));
  // No retries: each failure is final at once (retries have their own tests).
  const env = { PARLEY_DATA_DIR: dataDir, PARLEY_RETRY_MAX_ATTEMPTS: '1' };
  let server: TestServer;
  let token: string;
  let germanToken: string;
  let agentId: string;
  const threads = new Map<string, { threadId: string; errorEvent: Record<string, unknown>; locale: 'en' | 'de' }>();

  beforeAll(async () => {
    server = await startTestServer({ env });
    let projectId: string;
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Failures', locale: 'en' }));
    germanToken = (await addMember(server, projectId, { locale: 'de' })).token;
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function runToFailure(text: string, userToken: string) {
    const threadId = await newThread(server, userToken, agentId);
    return { threadId, events: await sendAndFollow(server, userToken, threadId, text) };
  }

  const expectations: Record<string, { reason: string; retryable: boolean; retryAfterS?: number | null }> = {
    transport: { reason: 'TRANSPORT', retryable: true },
    rate_limit: { reason: 'RATE_LIMIT', retryable: true, retryAfterS: 7 },
    quota_exceeded: { reason: 'QUOTA_EXCEEDED', retryable: false },
    authentication: { reason: 'AUTHENTICATION', retryable: false },
    authorization: { reason: 'AUTHORIZATION', retryable: false },
    context_length: { reason: 'CONTEXT_LENGTH', retryable: false },
    content_policy: { reason: 'CONTENT_POLICY', retryable: false },
    invalid_request: { reason: 'INVALID_REQUEST', retryable: false },
    provider_internal: { reason: 'PROVIDER_INTERNAL', retryable: true },
    unknown: { reason: 'UNKNOWN', retryable: false },
    application_error: { reason: 'APPLICATION_ERROR', retryable: false },
  };

  it('covers every ErrorReason', () => {
    expect(Object.values(expectations).map((e) => e.reason).sort()).toEqual([...ERROR_REASONS].sort());
  });

  it.each(Object.entries(expectations))('/fail %s: one ErrorEvent live and one ErrorPart in the conversation', async (reason, expected) => {
    const { threadId, events } = await runToFailure(`/fail ${reason}`, token);
    const errorEvents = events.filter(is('ErrorEvent'));
    expect(errorEvents).toHaveLength(1);
    const live = errorEvents[0]!;
    expect(live.reason).toBe(expected.reason);
    expect(live.retryable).toBe(expected.retryable);
    if (expected.retryAfterS !== undefined) expect(live.retryAfterS).toBe(expected.retryAfterS);
    expect(live.message.length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ __typename: 'ExecutionFinished', status: 'FAILED' });

    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.map((m) => m.role)).toEqual(['USER', 'ASSISTANT']);
    expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: `/fail ${reason}` }]);
    const errorParts = messages[1]!.parts.filter((part: Part) => part.__typename === 'ErrorPart');
    expect(errorParts).toHaveLength(1);
    const { __typename, ...stored } = errorParts[0] as Extract<Part, { __typename: 'ErrorPart' }>;
    const shown = shownFailure(live);
    expect(stored).toEqual(shown);

    expect(await execution(server, token, live.executionId)).toMatchObject({
      status: 'FAILED',
      error: { reason: expected.reason, message: live.message },
    });
    threads.set(reason, { threadId, errorEvent: shown, locale: 'en' });
  });

  it('a failure mid-stream keeps the streamed text and adds one error', async () => {
    const { threadId, events } = await runToFailure('/fail rate_limit after 3', token);
    expect([...replyTexts(events).values()]).toEqual(['t1 t2 t3 ']);
    expect(typenames(events).filter((name) => name === 'ErrorEvent')).toHaveLength(1);
    const reply = messagesOf(await conversation(server, token, threadId))[1]!.parts;
    expect(reply.map((part) => part.__typename)).toEqual(['TextPart', 'ErrorPart']);
    expect(reply[0]).toEqual({ __typename: 'TextPart', text: 't1 t2 t3 ' });
    expect(reply[1]).toMatchObject({ reason: 'RATE_LIMIT', retryable: true });
    threads.set('rate_limit after 3', { threadId, errorEvent: reply[1] as never, locale: 'en' });
  });

  it('speaks the run user’s language', async () => {
    const { threadId, events } = await runToFailure('/fail context_length', germanToken);
    const live = events.find(is('ErrorEvent'));
    if (!live) throw new Error('no ErrorEvent');
    expect(live.message).toBe(translate('de', 'error.context_length'));
    expect(live.messageKey).toBe('error.context_length');
    const errorPart = messagesOf(await conversation(server, germanToken, threadId))[1]!.parts.find(
      (part) => part.__typename === 'ErrorPart',
    );
    expect(errorPart).toMatchObject({ message: translate('de', 'error.context_length') });
  });

  it('shows exactly the same errors, once, after a server restart', async () => {
    expect(threads.size).toBe(Object.keys(expectations).length + 1);
    await server.stop();
    server = await startTestServer({ env });
    for (const [, { threadId, errorEvent }] of threads) {
      const state = await conversation(server, token, threadId);
      const errorParts = messagesOf(state)
        .flatMap((message) => message.parts)
        .filter((part) => part.__typename === 'ErrorPart');
      expect(errorParts).toHaveLength(1);
      expect(errorParts[0]).toMatchObject(errorEvent);
      expect(state.activeExecutionId).toBeNull();
    }
  });
});
