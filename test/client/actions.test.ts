import { afterEach, describe, expect, it } from 'vitest';
import { failureOf, threadActions } from '../../packages/client/src/actions.ts';
import type { SessionCore } from '../../packages/client/src/session.ts';
import { applyToThread, initialThreadState, type Queue, type ThreadInput } from '../../packages/client/src/thread-state.ts';
import { eventually } from '../support/server.ts';
import { scriptedRequest } from './scripted-server.ts';

// The actions alone, against a scripted endpoint: what they send, what they retry, and what they
// tell the session to read again.

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const queue = (ids: [string, string | null][]): Queue => ({
  threadId: 't',
  steerableExecutionId: null,
  items: ids.map(([id, steeringExecutionId], position) => ({ id, text: id, position, steeringExecutionId })),
});

/** A session core in memory: its state, and a count of the queue reads the actions asked for. */
function sessionCore(): SessionCore & { queueReads: number } {
  let state = initialThreadState('t');
  const core = {
    threadId: 't',
    queueReads: 0,
    getSnapshot: () => state,
    subscribe: () => () => {},
    dispatch: (input: ThreadInput) => {
      state = applyToThread(state, input);
    },
    readQueue: async () => {
      core.queueReads++;
    },
    readConversation: async () => {},
    ready: async () => {},
    close: async () => {},
  };
  return core;
}

const scripted = (answer: Parameters<typeof scriptedRequest>[0]) => scriptedRequest(answer, closers);

describe('the thread actions', () => {
  it('send waits out a spent budget and sends again with the same idempotency key, then reads the queue', async () => {
    const { server, request } = await scripted((_request, index) => ({
      body: {
        data: {
          sendMessage:
            index === 0
              ? { __typename: 'RateLimitedError', message: 'Slow down.', code: 'RATE_LIMITED', retryAfterS: 0.05 }
              : { __typename: 'MessageQueued', queueId: 'q1', threadId: 't', cursor: '3' },
        },
      },
    }));
    const session = sessionCore();
    const result = await threadActions(session, request).send('hello');
    expect(result).toMatchObject({ __typename: 'MessageQueued', queueId: 'q1' });
    expect(failureOf(result)).toBeNull();
    const keys = server.seen.map((seen) => seen.operation!.variables.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    await eventually(() => session.queueReads === 1, 5_000, 'the queue read');
  });

  it('send answers a refusal waiting cannot fix at once, as a typed failure', async () => {
    const { server, request } = await scripted(() => ({
      body: { data: { sendMessage: { __typename: 'InvalidInputError', message: 'Too long.', code: 'BAD_USER_INPUT', field: 'text' } } },
    }));
    const result = await threadActions(sessionCore(), request).send('x');
    const failure = failureOf(result);
    expect(failure?.message).toBe('Too long.');
    expect(failure?.__typename).toBe('InvalidInputError');
    expect(server.seen).toHaveLength(1);
  });

  it('reorder sends the order the state shows (steered items left out); refused, it reads the queue again', async () => {
    const { server, request } = await scripted(() => ({
      body: { data: { reorderQueuedMessage: { __typename: 'QueueChangedError', message: 'Changed.', code: 'QUEUE_CHANGED', currentQueueIds: ['b', 'a'] } } },
    }));
    const session = sessionCore();
    session.dispatch({ type: 'queue', queue: queue([['a', null], ['s', 'exec-1'], ['b', null]]) });
    const result = await threadActions(session, request).reorder('b', 'a');
    expect(result.__typename).toBe('QueueChangedError');
    expect(server.seen[0]!.operation!.variables).toEqual({ queueId: 'b', targetQueueId: 'a', expectedQueueIds: ['a', 'b'] });
    expect(session.queueReads).toBe(1);
  });

  it('stop, steer and retry with nothing to act on answer NO_EXECUTION without a request', async () => {
    const { server, request } = await scripted(() => ({ body: {} }));
    const actions = threadActions(sessionCore(), request);
    for (const result of [await actions.stop(), await actions.steer('q'), await actions.retry()]) {
      expect(result).toMatchObject({ __typename: 'RequestError', code: 'NO_EXECUTION' });
    }
    expect(server.seen).toEqual([]);
  });
});
