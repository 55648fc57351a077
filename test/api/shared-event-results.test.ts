import type { ExecutionResult } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { SharedEventResults, useSharedEventResults } from '../../src/server/plugins/use-shared-event-results.ts';

/**
 * The plugin on a small schema whose event fields count their executions: events made from one
 * record (`origin`) are executed once for every subscription that selects the same thing.
 */
function harness() {
  const executions = { text: 0 };
  let listeners: ((event: object) => void)[] = [];
  const schema = createSchema({
    typeDefs: /* GraphQL */ `
      type Event { cursor: String! text: String! loud: String }
      type Query { ok: Boolean }
      type Subscription { events(after: String): Event }
    `,
    resolvers: {
      Subscription: {
        events: {
          // Each subscriber gets its own object per event, made from the shared record, as the ledger does.
          subscribe: () => {
            const queue: object[] = [];
            let wake: (() => void) | null = null;
            const listener = (event: object) => {
              queue.push(event);
              wake?.();
            };
            listeners.push(listener);
            return {
              async next() {
                while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
                return { done: false, value: queue.shift() };
              },
              async return() {
                listeners = listeners.filter((other) => other !== listener);
                return { done: true, value: undefined };
              },
              [Symbol.asyncIterator]() {
                return this;
              },
            };
          },
          resolve: (event: unknown) => event,
        },
      },
      Event: {
        text: (event: { origin: { text: string } }) => {
          executions.text++;
          return event.origin.text;
        },
        loud: (event: { origin: { text: string; fail?: boolean } }) => {
          if (event.origin.fail) throw new Error('no');
          return event.origin.text.toUpperCase();
        },
      },
    },
  });
  const shared = new SharedEventResults();
  const yoga = createYoga({ schema, logging: false, plugins: [useSharedEventResults(shared)] });
  async function subscribe(query: string, variables: Record<string, unknown> = {}) {
    // Yoga's parse cache hands out one DocumentNode per query text, as graphql-ws.ts gets it.
    const { subscribe: run, contextFactory, parse: parseCached } = yoga.getEnveloped({});
    const stream = (await run({
      schema,
      document: parseCached(query),
      variableValues: variables,
      contextValue: await contextFactory(),
    })) as AsyncIterableIterator<ExecutionResult>;
    return stream;
  }
  const publish = (origin: object, cursor: string) => {
    for (const listener of listeners) listener({ cursor, origin });
  };
  return { executions, subscribe, publish, isShared: (result: unknown) => shared.isShared(result), listenerCount: () => listeners.length };
}

const SELECT = 'subscription($after: String, $loud: Boolean = false) { events(after: $after) { cursor text loud @include(if: $loud) } }';

describe('shared event results', () => {
  it('executes an event once for every subscription with the same selection, and hands out the same result', async () => {
    const { executions, subscribe, publish, isShared } = harness();
    // Different root arguments (read once, at subscribe) still share: the selection is the same.
    const first = await subscribe(SELECT, { after: '1' });
    const second = await subscribe(SELECT, { after: '7' });
    const origin = { text: 'hello' };
    const results = Promise.all([first.next(), second.next()]);
    publish(origin, '3');
    const [a, b] = await results;
    expect(a.value).toEqual({ data: { events: { cursor: '3', text: 'hello' } } });
    expect(b.value).toBe(a.value);
    expect(isShared(a.value)).toBe(true);
    // What is shared is the server's own: another server's results know nothing of it.
    expect(new SharedEventResults().isShared(a.value)).toBe(false);
    expect(executions.text).toBe(1);
    await first.return?.();
    await second.return?.();
  });

  it('executes again for a different selection, a different cursor, or a variable the selection reads', async () => {
    const { executions, subscribe, publish } = harness();
    const plain = await subscribe(SELECT);
    const loud = await subscribe(SELECT, { loud: true });
    const other = await subscribe('subscription { events { text } }');
    const origin = { text: 'hi' };
    const results = Promise.all([plain.next(), loud.next(), other.next()]);
    publish(origin, '4');
    const [a, b, c] = await results;
    expect(a.value).toEqual({ data: { events: { cursor: '4', text: 'hi' } } });
    expect(b.value).toEqual({ data: { events: { cursor: '4', text: 'hi', loud: 'HI' } } });
    expect(c.value).toEqual({ data: { events: { text: 'hi' } } });
    expect(executions.text).toBe(3);

    // The same record with another cursor (a subscriber further along) is its own result.
    const next = Promise.all([plain.next(), loud.next(), other.next()]);
    publish(origin, '4.1');
    expect((await next)[0].value).toEqual({ data: { events: { cursor: '4.1', text: 'hi' } } });
    expect(executions.text).toBe(6);
    for (const stream of [plain, loud, other]) await stream.return?.();
  });

  it('never shares a result with errors', async () => {
    const { subscribe, publish, isShared } = harness();
    const first = await subscribe(SELECT, { loud: true });
    const second = await subscribe(SELECT, { loud: true });
    const results = Promise.all([first.next(), second.next()]);
    publish({ text: 'x', fail: true }, '5');
    const [a, b] = await results;
    expect(a.value?.errors?.[0]?.message).toBeDefined();
    expect(b.value).not.toBe(a.value);
    expect(isShared(a.value)).toBe(false);
    await first.return?.();
    await second.return?.();
  });

  it('ends the source at once when the subscriber leaves while waiting', async () => {
    const { subscribe, listenerCount } = harness();
    const stream = await subscribe(SELECT);
    void stream.next();
    expect(listenerCount()).toBe(1);
    await stream.return?.();
    expect(listenerCount()).toBe(0);
  });
});
