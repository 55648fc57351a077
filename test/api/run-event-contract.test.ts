import {
  buildSchema,
  getNamedType,
  isInterfaceType,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  type GraphQLObjectType,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { finishedOf, isDurable, ofKind, type RunEvent } from '../support/run-events.ts';
import { newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// The runEvents contract a client codes against: one interface, one type per field name, cursors
// that mean the same everywhere and are checked against the log.

const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
const eventTypes = Object.values(schema.getTypeMap()).filter(
  (type): type is GraphQLObjectType => isObjectType(type) && type.getInterfaces().some((face) => face.name === 'RunEvent'),
);

describe('the RunEvent interface', () => {
  it('is what runEvents returns, and every event type implements it', () => {
    const runEvents = schema.getSubscriptionType()!.getFields().runEvents!;
    expect(isInterfaceType(getNamedType(runEvents.type))).toBe(true);
    expect(getNamedType(runEvents.type).name).toBe('RunEvent');
    expect(eventTypes.length).toBeGreaterThanOrEqual(14);
  });

  it('lets a client select every field of every event in one document without aliases', () => {
    const selection = (type: GraphQLObjectType) =>
      Object.values(type.getFields())
        .map((field) => (isLeafType(getNamedType(field.type)) ? field.name : `${field.name} { __typename }`))
        .join(' ');
    const document = `subscription($threadId: ID!) { runEvents(threadId: $threadId) { __typename ${eventTypes
      .map((type) => `... on ${type.name} { ${selection(type)} }`)
      .join(' ')} } }`;
    expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
  });

  it('has a non-null executionId on every event about an execution, and none on the queue’s and the branch’s events', () => {
    const withoutExecution = eventTypes.filter((type) => !type.getInterfaces().some((face) => face.name === 'ExecutionEvent'));
    expect(withoutExecution.map((type) => type.name).sort()).toEqual(['BranchSwitched', 'MessageQueued', 'QueueUpdated', 'ThreadCompacted']);
    for (const type of eventTypes) {
      const executionId = type.getFields().executionId;
      if (withoutExecution.includes(type)) expect(executionId, type.name).toBeUndefined();
      else expect(isNonNullType(executionId!.type), type.name).toBe(true);
      expect(String(type.getFields().createdAt!.type), type.name).toBe('DateTime!');
    }
  });
});

describe('runEvents cursors', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ token, agentId } = await setUpAgent(server, { project: 'Cursors' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a cursor beyond the thread’s log, saying where the log ends, instead of skipping every event', async () => {
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, 'hello');
    const logEnd = Math.max(...events.filter(isDurable).map((event) => Number(event.cursor)));

    const beyond = follow(server, token, threadId, '999');
    await eventually(() => beyond.errors.length > 0, 15_000, 'the subscription error');
    expect(beyond.errors).toEqual([
      expect.objectContaining({
        message: `after: is beyond this thread's event log, which ends at cursor "${logEnd}".`,
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    expect(beyond.events).toEqual([]);
    await beyond.close();

    // The end of the log itself is a valid place to resume: nothing is replayed, the next turn is live.
    const atEnd = follow(server, token, threadId, String(logEnd));
    const queued = await send(server, token, threadId, 'again');
    const started = await atEnd.waitFor((event) => event.__typename === 'ExecutionStarted');
    await atEnd.waitFor(finishedOf((started as Extract<RunEvent, { executionId: string }>).executionId));
    expect(ofKind(atEnd.events, 'MessageQueued').map((event) => event.queueId)).toEqual([queued.queueId]);
    await atEnd.close();
  });

  it('gives a durable event the same cursor on every connection', async () => {
    const threadId = await newThread(server, token, agentId);
    const early = follow(server, token, threadId);
    await sendAndFollow(server, token, threadId, '/tokens 5');
    await early.waitFor((event) => event.__typename === 'ExecutionFinished');
    const late = follow(server, token, threadId);
    await late.waitFor((event) => event.__typename === 'ExecutionFinished');
    const durable = (events: RunEvent[]) => events.filter(isDurable).map((event) => `${event.cursor} ${event.__typename}`);
    expect(durable(late.events)).toEqual(durable(early.events));
    expect(durable(early.events).length).toBeGreaterThanOrEqual(3);
    await Promise.all([early.close(), late.close()]);
  });
});
