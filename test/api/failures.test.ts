import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REASONS } from '../../src/errors/taxonomy.ts';
import { translate } from '../../src/i18n/catalog.ts';
import type { ConversationQuery } from '../gql/graphql.ts';
import {
  ConversationDocument,
  CreateThreadDocument,
  ExecutionDocument,
  RunEventsDocument,
  SendMessageDocument,
} from '../support/documents.ts';
import { replyTexts, typenames } from '../support/client-rules.ts';
import { requestData, startTestServer, subscribe, wsClient, type TestServer } from '../support/server.ts';

type Part = ConversationQuery['conversation']['messages']['edges'][number]['node']['parts'][number];

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
    const english = await server.createUser({ locale: 'en' });
    const german = await server.createUser({ locale: 'de' });
    token = english.token;
    germanToken = german.token;
    const directory = server.parley.directory;
    const project = await directory.createProject(await directory.findUser(english.userId), { name: 'Failures' });
    await directory.addMember(null, { projectId: project.id, user: german.userId, role: 'member' });
    agentId = (await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default', tools: ['demo_crash'] })).id;
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function runToFailure(text: string, userToken: string) {
    const created = await requestData(server, CreateThreadDocument, { agentId }, userToken);
    if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
    const threadId = created.createThread.id;
    const client = wsClient(server, userToken);
    const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
    await requestData(server, SendMessageDocument, { threadId, text }, userToken);
    const events = await subscription.waitFor((all) => typenames(all).includes('ExecutionFinished'));
    subscription.close();
    await client.dispose();
    return { threadId, events };
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
    const errorEvents = events.map((e) => e.runEvents).filter((e) => e.__typename === 'ErrorEvent');
    expect(errorEvents).toHaveLength(1);
    const live = errorEvents[0]!;
    if (live.__typename !== 'ErrorEvent') throw new Error('unreachable');
    expect(live.reason).toBe(expected.reason);
    expect(live.retryable).toBe(expected.retryable);
    if (expected.retryAfterS !== undefined) expect(live.retryAfterS).toBe(expected.retryAfterS);
    expect(live.message.length).toBeGreaterThan(0);
    const finished = events.at(-1)!.runEvents;
    expect(finished).toMatchObject({ __typename: 'ExecutionFinished', status: 'FAILED' });

    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    const messages = conversation.messages.edges.map((edge) => edge.node);
    expect(messages.map((m) => m.role)).toEqual(['USER', 'ASSISTANT']);
    expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: `/fail ${reason}` }]);
    const errorParts = messages[1]!.parts.filter((part: Part) => part.__typename === 'ErrorPart');
    expect(errorParts).toHaveLength(1);
    const { __typename, ...stored } = errorParts[0] as Extract<Part, { __typename: 'ErrorPart' }>;
    const { __typename: _e, cursor: _c, executionId, ...shown } = live as typeof live & { __typename: string };
    expect(stored).toMatchObject(shown);

    const execution = await requestData(server, ExecutionDocument, { id: executionId! }, token);
    expect(execution.node).toMatchObject({ status: 'FAILED', error: { reason: expected.reason, message: live.message } });
    threads.set(reason, { threadId, errorEvent: shown, locale: 'en' });
  });

  it('a failure mid-stream keeps the streamed text and adds one error', async () => {
    const { threadId, events } = await runToFailure('/fail rate_limit after 3', token);
    expect([...replyTexts(events).values()]).toEqual(['t1 t2 t3 ']);
    expect(typenames(events).filter((name) => name === 'ErrorEvent')).toHaveLength(1);
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    const reply = conversation.messages.edges[1]!.node.parts;
    expect(reply.map((part) => part.__typename)).toEqual(['TextPart', 'ErrorPart']);
    expect(reply[0]).toEqual({ __typename: 'TextPart', text: 't1 t2 t3 ' });
    expect(reply[1]).toMatchObject({ reason: 'RATE_LIMIT', retryable: true });
    threads.set('rate_limit after 3', { threadId, errorEvent: reply[1] as never, locale: 'en' });
  });

  it('speaks the run user’s language', async () => {
    const { threadId, events } = await runToFailure('/fail context_length', germanToken);
    const live = events.map((e) => e.runEvents).find((e) => e.__typename === 'ErrorEvent');
    if (live?.__typename !== 'ErrorEvent') throw new Error('no ErrorEvent');
    expect(live.message).toBe(translate('de', 'error.context_length'));
    expect(live.messageKey).toBe('error.context_length');
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, germanToken);
    const errorPart = conversation.messages.edges[1]!.node.parts.find((part) => part.__typename === 'ErrorPart');
    expect(errorPart).toMatchObject({ message: translate('de', 'error.context_length') });
  });

  it('shows exactly the same errors, once, after a server restart', async () => {
    expect(threads.size).toBe(Object.keys(expectations).length + 1);
    await server.stop();
    server = await startTestServer({ env });
    for (const [, { threadId, errorEvent }] of threads) {
      const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
      const errorParts = conversation.messages.edges
        .flatMap((edge) => edge.node.parts)
        .filter((part) => part.__typename === 'ErrorPart');
      expect(errorParts).toHaveLength(1);
      expect(errorParts[0]).toMatchObject(errorEvent);
      expect(conversation.activeExecutionId).toBeNull();
    }
  });
});
