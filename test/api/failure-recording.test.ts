import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate, type Locale } from '../../src/i18n/catalog.ts';
import { runAgent } from '../../src/runtime/agent-runtime.ts';
import type { ConversationQuery, RunEventsSubscription } from '../gql/graphql.ts';
import {
  ConversationDocument,
  CreateThreadDocument,
  ExecutionDocument,
  RunEventsDocument,
  SendMessageDocument,
} from '../support/documents.ts';
import { requestData, startTestServer, subscribe, wsClient, type TestServer } from '../support/server.ts';

/**
 * SPEC §5 failure recording: a failure that is not a provider error — the backend refusing the run
 * before RunStarted, an agent loop that throws — is recorded exactly like one: the execution row, the
 * user's turn, exactly one ErrorPart and one live ErrorEvent, equal, in the run user's language, and the
 * same after a server restart. A refusal by run limits is no failure: REFUSED and the reason as text.
 */

type RunEvent = RunEventsSubscription['runEvents'];
type ErrorEventOf = Extract<RunEvent, { __typename: 'ErrorEvent' }>;
type Message = ConversationQuery['conversation']['messages']['edges'][number]['node'];
type ErrorPartOf = Extract<Message['parts'][number], { __typename: 'ErrorPart' }>;
type Shown = Omit<ErrorEventOf, '__typename' | 'cursor' | 'executionId'>;

interface User {
  userId: string;
  token: string;
  locale: Locale;
}

interface Recorded {
  threadId: string;
  executionId: string;
  user: User;
  shown: Shown;
  text: string;
}

async function setUpUsers(server: TestServer) {
  const en = { ...(await server.createUser({ locale: 'en' })), locale: 'en' as const };
  const de = { ...(await server.createUser({ locale: 'de' })), locale: 'de' as const };
  const directory = server.parley.directory;
  const project = await directory.createProject(await directory.findUser(en.userId), { name: 'Failure recording' });
  await directory.addMember(null, { projectId: project.id, user: de.userId, role: 'member' });
  return { users: { en, de }, project };
}

async function newThread(server: TestServer, agentId: string, user: User): Promise<string> {
  const created = await requestData(server, CreateThreadDocument, { agentId }, user.token);
  if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
  return created.createThread.id;
}

/**
 * Sends `text` on the thread and follows its events from the start until its execution finished
 * (`earlierRuns` executions of the thread finished before).
 */
async function sendAndFollow(server: TestServer, threadId: string, user: User, text: string, earlierRuns = 0) {
  const client = wsClient(server, user.token);
  const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
  const finishedCount = (all: RunEventsSubscription[]) =>
    all.filter((event) => event.runEvents.__typename === 'ExecutionFinished').length;
  try {
    await requestData(server, SendMessageDocument, { threadId, text }, user.token);
    await subscription.waitFor((all) => finishedCount(all) > earlierRuns);
  } finally {
    subscription.close();
    await client.dispose();
  }
  return subscription.events.map((event) => event.runEvents);
}

async function conversationOf(server: TestServer, threadId: string, user: User) {
  const { conversation } = await requestData(server, ConversationDocument, { threadId }, user.token);
  return { messages: conversation.messages.edges.map((edge) => edge.node), activeExecutionId: conversation.activeExecutionId };
}

async function executionOf(server: TestServer, executionId: string, user: User) {
  const { node } = await requestData(server, ExecutionDocument, { id: executionId }, user.token);
  if (node?.__typename !== 'Execution') throw new Error(`not an execution: ${JSON.stringify(node)}`);
  return node;
}

function errorEvents(events: RunEvent[]): ErrorEventOf[] {
  return events.filter((event): event is ErrorEventOf => event.__typename === 'ErrorEvent');
}

function errorParts(messages: Message[]): ErrorPartOf[] {
  return messages.flatMap((message) => message.parts).filter((part): part is ErrorPartOf => part.__typename === 'ErrorPart');
}

function finished(events: RunEvent[]) {
  return events.flatMap((event) => (event.__typename === 'ExecutionFinished' ? [event] : []));
}

/**
 * One failure, recorded: exactly one ErrorEvent live, exactly one ErrorPart (in the reply that follows the
 * user's kept turn) and the execution's error, all equal; FAILED.
 */
async function expectOneFailure(server: TestServer, user: User, threadId: string, text: string, events: RunEvent[]): Promise<Recorded> {
  const live = errorEvents(events);
  expect(live).toHaveLength(1);
  const { __typename, cursor: _cursor, executionId, ...shown } = live[0]!;
  expect(executionId).toBeTruthy();
  expect(finished(events)).toEqual([expect.objectContaining({ status: 'FAILED', executionId })]);
  // The error precedes the run's end.
  expect(events.indexOf(live[0]!)).toBeLessThan(events.indexOf(finished(events)[0]!));

  const { messages, activeExecutionId } = await conversationOf(server, threadId, user);
  expect(activeExecutionId).toBeNull();
  expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
  expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text }]);
  expect(messages.every((message) => message.executionId === executionId)).toBe(true);
  const stored = errorParts(messages);
  expect(stored).toHaveLength(1);
  const { __typename: _part, ...storedFields } = stored[0]!;
  expect(storedFields).toEqual(shown);

  const execution = await executionOf(server, executionId!, user);
  expect(execution.status).toBe('FAILED');
  expect(execution.error).toEqual(shown);
  return { threadId, executionId: executionId!, user, shown, text };
}

/** After a restart: the same one ErrorPart, the same execution error, and a replay with the same one ErrorEvent. */
async function expectSameAfterRestart(server: TestServer, recorded: Recorded) {
  const { threadId, executionId, user, shown } = recorded;
  const { messages, activeExecutionId } = await conversationOf(server, threadId, user);
  expect(activeExecutionId).toBeNull();
  expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: recorded.text }]);
  const stored = errorParts(messages);
  expect(stored).toHaveLength(1);
  const { __typename: _part, ...storedFields } = stored[0]!;
  expect(storedFields).toEqual(shown);
  const execution = await executionOf(server, executionId, user);
  expect(execution.status).toBe('FAILED');
  expect(execution.error).toEqual(shown);

  const client = wsClient(server, user.token);
  const replay = subscribe(client, RunEventsDocument, { threadId, after: '0' });
  try {
    const events = (await replay.waitFor((all) => all.some((event) => event.runEvents.__typename === 'ExecutionFinished'))).map(
      (event) => event.runEvents,
    );
    const replayed = errorEvents(events);
    expect(replayed).toHaveLength(1);
    const { __typename, cursor: _cursor, executionId: replayedExecution, ...replayedShown } = replayed[0]!;
    expect(replayedExecution).toBe(executionId);
    expect(replayedShown).toEqual(shown);
  } finally {
    replay.close();
    await client.dispose();
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
      const setUp = await setUpUsers(configured);
      users = setUp.users;
      agentId = (await configured.parley.directory.createAgent(null, setUp.project.id, { name: 'GPT', model: 'openai:gpt-test' })).id;
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
    const threadId = await newThread(server, agentId, user);
    const text = `Hello from ${locale}`;
    const events = await sendAndFollow(server, threadId, user, text);
    const failure = await expectOneFailure(server, user, threadId, text, events);
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
    const { messages } = await conversationOf(server, threadId, user);
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

/** The agent loop, replaced: it throws the way a broken loop would, or holds until released. */
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
    if (text.startsWith('complete then throw')) {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'All done' });
      await input.emit({ type: 'run-completed', outcome: 'COMPLETED', usage: { inputTokens: 1, outputTokens: 1 } });
      throw new Error('agent loop threw after its run completed');
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
    const setUp = await setUpUsers(server);
    users = setUp.users;
    projectId = setUp.project.id;
    agentId = (await server.parley.directory.createAgent(null, projectId, { name: 'Demo', model: 'demo:default' })).id;
  });

  afterAll(async () => {
    gate.release();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['en', 'de'] as const)('%s user: a loop that throws before RunStarted → one APPLICATION_ERROR in their language', async (locale) => {
    const user = users[locale];
    const threadId = await newThread(server, agentId, user);
    const text = 'throw before start';
    const events = await sendAndFollow(server, threadId, user, text);
    const failure = await expectOneFailure(server, user, threadId, text, events);
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
    const threadId = await newThread(server, agentId, user);
    const text = 'throw after text';
    const events = await sendAndFollow(server, threadId, user, text);
    const failure = await expectOneFailure(server, user, threadId, text, events);
    expect(failure.shown).toMatchObject({
      reason: 'APPLICATION_ERROR',
      retryable: false,
      messageKey: 'error.application_error',
      message: translate(locale, 'error.application_error'),
      detail: 'agent loop exploded mid-way',
    });
    const { messages } = await conversationOf(server, threadId, user);
    expect(messages[1]!.parts.map((part) => part.__typename)).toEqual(['TextPart', 'ErrorPart']);
    expect(messages[1]!.parts[0]).toEqual({ __typename: 'TextPart', text: 'Partial answer' });
    recorded.push(failure);
  });

  it('a loop that throws after its run completed records no failure', async () => {
    const user = users.en;
    const threadId = await newThread(server, agentId, user);
    const events = await sendAndFollow(server, threadId, user, 'complete then throw');
    expect(errorEvents(events)).toEqual([]);
    expect(finished(events).map((event) => event.status)).toEqual(['COMPLETED']);
    const { messages } = await conversationOf(server, threadId, user);
    expect(errorParts(messages)).toEqual([]);
    expect(messages[1]!.parts).toEqual([{ __typename: 'TextPart', text: 'All done' }]);
    const execution = await executionOf(server, finished(events)[0]!.executionId!, user);
    expect(execution).toMatchObject({ status: 'COMPLETED', error: null });
  });

  it('concurrency limit: a second run on the agent is REFUSED with the localized reason, no error', async () => {
    const limited = (
      await server.parley.directory.createAgent(null, projectId, { name: 'Limited', model: 'demo:default', limits: { maxConcurrentExecutions: 1 } })
    ).id;
    const threadA = await newThread(server, limited, users.en);
    const threadB = await newThread(server, limited, users.de);
    const clientA = wsClient(server, users.en.token);
    const subscriptionA = subscribe(clientA, RunEventsDocument, { threadId: threadA, after: '0' });
    try {
      await requestData(server, SendMessageDocument, { threadId: threadA, text: 'hold' }, users.en.token);
      await subscriptionA.waitFor((all) => all.some((event) => event.runEvents.__typename === 'ExecutionStarted'));

      const eventsB = await sendAndFollow(server, threadB, users.de, 'Darf ich?');
      expect(errorEvents(eventsB)).toEqual([]);
      expect(finished(eventsB).map((event) => event.status)).toEqual(['REFUSED']);
      const refusal = translate('de', 'refusal.concurrency', { limit: 1 });
      const { messages, activeExecutionId } = await conversationOf(server, threadB, users.de);
      expect(activeExecutionId).toBeNull();
      expect(messages.map((message) => [message.role, message.parts])).toEqual([
        ['USER', [{ __typename: 'TextPart', text: 'Darf ich?' }]],
        ['ASSISTANT', [{ __typename: 'TextPart', text: refusal }]],
      ]);
      const execution = await executionOf(server, finished(eventsB)[0]!.executionId!, users.de);
      expect(execution).toMatchObject({ status: 'REFUSED', error: null });
      // Thread A was not disturbed.
      expect(subscriptionA.events.some((event) => event.runEvents.__typename === 'ExecutionFinished')).toBe(false);
    } finally {
      gate.release();
    }
    const eventsA = await subscriptionA.waitFor((all) => all.some((event) => event.runEvents.__typename === 'ExecutionFinished'));
    subscriptionA.close();
    await clientA.dispose();
    expect(finished(eventsA.map((event) => event.runEvents)).map((event) => event.status)).toEqual(['COMPLETED']);
    expect(errorEvents(eventsA.map((event) => event.runEvents))).toEqual([]);
  });

  it('daily token budget: the first run is admitted, the next one REFUSED in the user’s language; others unaffected', async () => {
    const budgeted = (
      await server.parley.directory.createAgent(null, projectId, { name: 'Budgeted', model: 'demo:default', limits: { dailyTokenBudget: 1 } })
    ).id;
    const threadId = await newThread(server, budgeted, users.de);
    const first = await sendAndFollow(server, threadId, users.de, 'Hallo Welt');
    expect(finished(first).map((event) => event.status)).toEqual(['COMPLETED']);
    const used = await executionOf(server, finished(first)[0]!.executionId!, users.de);
    expect(used.inputTokens + used.outputTokens).toBeGreaterThan(0);

    const second = await sendAndFollow(server, threadId, users.de, 'Noch einmal', 1);
    const secondFinished = finished(second).slice(1);
    expect(secondFinished.map((event) => event.status)).toEqual(['REFUSED']);
    expect(errorEvents(second)).toEqual([]);
    const { messages } = await conversationOf(server, threadId, users.de);
    expect(errorParts(messages)).toEqual([]);
    expect(messages.slice(2).map((message) => [message.role, message.parts])).toEqual([
      ['USER', [{ __typename: 'TextPart', text: 'Noch einmal' }]],
      ['ASSISTANT', [{ __typename: 'TextPart', text: translate('de', 'refusal.budget', { budget: 1 }) }]],
    ]);
    const refused = await executionOf(server, secondFinished[0]!.executionId!, users.de);
    expect(refused).toMatchObject({ status: 'REFUSED', error: null, inputTokens: 0, outputTokens: 0 });

    // The budget is per user: the English user still gets a reply.
    const otherThread = await newThread(server, budgeted, users.en);
    const other = await sendAndFollow(server, otherThread, users.en, 'Hello');
    expect(finished(other).map((event) => event.status)).toEqual(['COMPLETED']);
  });

  it('a server restart shows the same failures, once', async () => {
    expect(recorded).toHaveLength(4);
    await server.stop();
    server = await startTestServer({ env, overrides });
    for (const failure of recorded) await expectSameAfterRestart(server, failure);
  });
});
