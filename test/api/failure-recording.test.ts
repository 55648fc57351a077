import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/catalog.ts';
import { runAgent } from '../../src/runtime/agent-runtime.ts';
import { conversation, execution, messagesOf, send } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { errorParts, expectOneRecordedFailure, shownFailure, type ShownFailure } from '../support/recorded-failure.ts';
import { is, ofKind } from '../support/run-events.ts';
import { addAgent, addMember, newThread, sendAndFollow, setUpAgent, type Locale, type User } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Failure recording (docs/errors.md): a failure that is not a provider error —
 * the backend refusing the run before RunStarted, an agent loop that throws — is recorded exactly
 * like one: the execution row, the user's turn, exactly one ErrorPart and one live ErrorEvent, equal,
 * in the run user's language, and the same after a server restart. A refusal by run limits is no
 * failure: REFUSED and the reason as text.
 */

interface Recorded {
  threadId: string;
  executionId: string;
  user: User;
  shown: ShownFailure;
  text: string;
}

/** An English admin and a German member of one project with an agent on `model`. */
async function setUpUsers(server: TestServer, model = 'demo:default') {
  const en = await setUpAgent(server, { project: 'Failure recording', locale: 'en', model });
  const de = await addMember(server, en.projectId, { locale: 'de' });
  return { users: { en, de }, projectId: en.projectId, agentId: en.agentId };
}

/** Sends `text` on a new thread of the agent and records its one failure. */
async function expectFailedTurn(server: TestServer, agentId: string, user: User, text: string): Promise<Recorded> {
  const threadId = await newThread(server, user.token, agentId);
  const events = await sendAndFollow(server, user.token, threadId, text);
  const { executionId, shown } = await expectOneRecordedFailure(server, user.token, threadId, text, events);
  return { threadId, executionId, user, shown, text };
}

/** After a restart: the same one ErrorPart, the same execution error, and a replay with the same one ErrorEvent. */
async function expectSameAfterRestart(server: TestServer, recorded: Recorded) {
  const { threadId, executionId, user, shown } = recorded;
  const state = await conversation(server, user.token, threadId);
  expect(state.activeExecutionId).toBeNull();
  const messages = messagesOf(state);
  expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: recorded.text }]);
  const stored = errorParts(messages);
  expect(stored).toHaveLength(1);
  const { __typename: _part, ...storedFields } = stored[0]!;
  expect(storedFields).toEqual(shown);
  const after = await execution(server, user.token, executionId);
  expect(after.status).toBe('FAILED');
  expect(after.error).toEqual(shown);

  const replay = follow(server, user.token, threadId);
  try {
    const replayed = ofKind(await replay.waitUntil((events) => events.some(is('ExecutionFinished'))), 'ErrorEvent');
    expect(replayed).toHaveLength(1);
    expect(replayed[0]!.executionId).toBe(executionId);
    expect(shownFailure(replayed[0]!)).toEqual(shown);
  } finally {
    await replay.close();
  }
}

describe('a backend that refuses the run before RunStarted', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-refusal-'));
  const withKey = { PARLEY_DATA_DIR: dataDir, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  const { OPENAI_API_KEY: _key, ...withoutKey } = withKey;
  let server: TestServer;
  let users: Record<Locale, User>;
  let agentId: string;
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    // The agent is created while OpenAI is configured …
    const configured = await startTestServer({ env: withKey });
    try {
      ({ users, agentId } = await setUpUsers(configured, 'openai:gpt-test'));
    } finally {
      await configured.stop();
    }
    // … and runs on a server where it no longer is: its model cannot be resolved.
    server = await startTestServer({ env: withoutKey });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['en', 'de'] as const)('%s user: the user turn and one APPLICATION_ERROR (error.run_rejected) in their language', async (locale) => {
    const user = users[locale];
    const failure = await expectFailedTurn(server, agentId, user, `Hello from ${locale}`);
    expect(failure.shown).toMatchObject({
      reason: 'APPLICATION_ERROR',
      retryable: false,
      retryAfterS: null,
      messageKey: 'error.run_rejected',
      params: {},
      message: translate(locale, 'error.run_rejected'),
    });
    // The technical detail says why (for a details view), the headline does not leak it.
    expect(failure.shown.detail).toContain('openai');
    // Nothing streamed: the reply holds the error only.
    const messages = messagesOf(await conversation(server, user.token, failure.threadId));
    expect(messages[1]!.parts.map((part) => part.__typename)).toEqual(['ErrorPart']);
    recorded.push(failure);
  });

  it('a server restart shows the same, once', async () => {
    expect(recorded).toHaveLength(2);
    await server.stop();
    server = await startTestServer({ env: withoutKey });
    for (const failure of recorded) await expectSameAfterRestart(server, failure);
  });
});

/** The agent loop, replaced: it throws the way a broken loop would, returns its own ending, or holds until released. */
function scriptedRuntime(gate: { release: () => void; promise: Promise<void> }): typeof runAgent {
  return async (input) => {
    const last = input.messages.at(-1);
    const text = typeof last?.content === 'string' ? last.content : '';
    if (text.startsWith('throw before start')) throw new Error('agent loop exploded before starting');
    if (text.startsWith('throw after text')) {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'Partial answer' });
      await input.emit({ type: 'boundary' });
      throw new Error('agent loop exploded mid-way');
    }
    if (text.startsWith('complete without a model')) {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'All done' });
      return { outcome: 'COMPLETED', usage: { inputTokens: 1, outputTokens: 1 }, messages: input.messages, pending: null };
    }
    // Keeps its execution running (admitted, RUNNING) until the test releases it, then runs normally.
    if (text.startsWith('hold')) await gate.promise;
    return runAgent(input);
  };
}

describe('an agent loop that throws, and run limits', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-loop-'));
  const env = { PARLEY_DATA_DIR: dataDir, PARLEY_RETRY_MAX_ATTEMPTS: '1' };
  let release!: () => void;
  const gate = { release: () => release(), promise: new Promise<void>((resolve) => (release = resolve)) };
  const overrides = { runtime: scriptedRuntime(gate) };
  let server: TestServer;
  let users: Record<Locale, User>;
  let projectId: string;
  let agentId: string;
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env, overrides });
    ({ users, projectId, agentId } = await setUpUsers(server));
  });

  afterAll(async () => {
    gate.release();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['en', 'de'] as const)('%s user: a loop that throws before RunStarted → one APPLICATION_ERROR in their language', async (locale) => {
    const failure = await expectFailedTurn(server, agentId, users[locale], 'throw before start');
    expect(failure.shown).toMatchObject({
      reason: 'APPLICATION_ERROR',
      retryable: false,
      retryAfterS: null,
      provider: null,
      httpStatus: null,
      messageKey: 'error.application_error',
      params: {},
      message: translate(locale, 'error.application_error'),
      detail: 'agent loop exploded before starting',
    });
    recorded.push(failure);
  });

  it.each(['en', 'de'] as const)('%s user: a loop that throws after streaming text keeps the text and adds one error', async (locale) => {
    const user = users[locale];
    const failure = await expectFailedTurn(server, agentId, user, 'throw after text');
    expect(failure.shown).toMatchObject({
      reason: 'APPLICATION_ERROR',
      retryable: false,
      messageKey: 'error.application_error',
      message: translate(locale, 'error.application_error'),
      detail: 'agent loop exploded mid-way',
    });
    const messages = messagesOf(await conversation(server, user.token, failure.threadId));
    expect(messages[1]!.parts.map((part) => part.__typename)).toEqual(['TextPart', 'ErrorPart']);
    expect(messages[1]!.parts[0]).toEqual({ __typename: 'TextPart', text: 'Partial answer' });
    recorded.push(failure);
  });

  it('a loop that returns its completion records no failure', async () => {
    const { token } = users.en;
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, 'complete without a model');
    expect(ofKind(events, 'ErrorEvent')).toEqual([]);
    expect(ofKind(events, 'ExecutionFinished').map((event) => event.status)).toEqual(['COMPLETED']);
    const messages = messagesOf(await conversation(server, token, threadId));
    expect(errorParts(messages)).toEqual([]);
    expect(messages[1]!.parts).toEqual([{ __typename: 'TextPart', text: 'All done' }]);
    const completed = await execution(server, token, ofKind(events, 'ExecutionFinished')[0]!.executionId!);
    expect(completed).toMatchObject({ status: 'COMPLETED', error: null });
  });

  it('concurrency limit: a second run on the agent is REFUSED with the localized reason, no error', async () => {
    const limited = await addAgent(server, projectId, { name: 'Limited', limits: { maxConcurrentExecutions: 1 } });
    const { en, de } = users;
    const threadA = await newThread(server, en.token, limited);
    const threadB = await newThread(server, de.token, limited);
    const followerA = follow(server, en.token, threadA);
    try {
      await send(server, en.token, threadA, 'hold');
      await followerA.waitFor(is('ExecutionStarted'));

      const eventsB = await sendAndFollow(server, de.token, threadB, 'Darf ich?');
      expect(ofKind(eventsB, 'ErrorEvent')).toEqual([]);
      expect(ofKind(eventsB, 'ExecutionFinished').map((event) => event.status)).toEqual(['REFUSED']);
      const refusal = translate('de', 'refusal.concurrency', { limit: 1 });
      const stateB = await conversation(server, de.token, threadB);
      expect(stateB.activeExecutionId).toBeNull();
      expect(messagesOf(stateB).map((message) => [message.role, message.parts])).toEqual([
        ['USER', [{ __typename: 'TextPart', text: 'Darf ich?' }]],
        ['ASSISTANT', [{ __typename: 'TextPart', text: refusal }]],
      ]);
      const refused = await execution(server, de.token, ofKind(eventsB, 'ExecutionFinished')[0]!.executionId!);
      expect(refused).toMatchObject({ status: 'REFUSED', error: null });
      // Thread A was not disturbed.
      expect(followerA.events.some(is('ExecutionFinished'))).toBe(false);
    } finally {
      gate.release();
    }
    const eventsA = await followerA.waitUntil((events) => events.some(is('ExecutionFinished')));
    await followerA.close();
    expect(ofKind(eventsA, 'ExecutionFinished').map((event) => event.status)).toEqual(['COMPLETED']);
    expect(ofKind(eventsA, 'ErrorEvent')).toEqual([]);
  });

  it('daily token budget: the first run is admitted, the next one REFUSED in the user’s language; others unaffected', async () => {
    // The first reply streams 5 chunks (within the budget while it runs) and then reports 2 input
    // tokens more, which spend it: that run completes, the next one is refused when it starts.
    const budgeted = await addAgent(server, projectId, { name: 'Budgeted', limits: { dailyTokenBudget: 6 } });
    const { en, de } = users;
    const threadId = await newThread(server, de.token, budgeted);
    const first = ofKind(await sendAndFollow(server, de.token, threadId, 'Hallo Welt'), 'ExecutionFinished');
    expect(first.map((event) => event.status)).toEqual(['COMPLETED']);
    const used = await execution(server, de.token, first[0]!.executionId!);
    expect(used.inputTokens + used.outputTokens).toBeGreaterThan(0);

    const second = await sendAndFollow(server, de.token, threadId, 'Noch einmal', 1);
    const secondFinished = ofKind(second, 'ExecutionFinished').slice(1);
    expect(secondFinished.map((event) => event.status)).toEqual(['REFUSED']);
    expect(ofKind(second, 'ErrorEvent')).toEqual([]);
    const messages = messagesOf(await conversation(server, de.token, threadId));
    expect(errorParts(messages)).toEqual([]);
    expect(messages.slice(2).map((message) => [message.role, message.parts])).toEqual([
      ['USER', [{ __typename: 'TextPart', text: 'Noch einmal' }]],
      ['ASSISTANT', [{ __typename: 'TextPart', text: translate('de', 'refusal.budget', { budget: 6 }) }]],
    ]);
    const refused = await execution(server, de.token, secondFinished[0]!.executionId!);
    expect(refused).toMatchObject({ status: 'REFUSED', error: null, inputTokens: 0, outputTokens: 0 });

    // The budget is per user: the English user still gets a reply.
    const otherThread = await newThread(server, en.token, budgeted);
    const other = await sendAndFollow(server, en.token, otherThread, 'Hello');
    expect(ofKind(other, 'ExecutionFinished').map((event) => event.status)).toEqual(['COMPLETED']);
  });

  it('a server restart shows the same failures, once', async () => {
    expect(recorded).toHaveLength(4);
    await server.stop();
    server = await startTestServer({ env, overrides });
    for (const failure of recorded) await expectSameAfterRestart(server, failure);
  });
});
