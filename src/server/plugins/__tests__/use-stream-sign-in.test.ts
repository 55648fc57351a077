import type { ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { untilSignInEnds } from '../use-stream-sign-in.ts';

/** A promise that counts the reactions attached to it (and to the promises derived from it). */
class CountingPromise<T> extends Promise<T> {
  static reactions = 0;
  override then<A = T, B = never>(onFulfilled?: ((value: T) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null) {
    CountingPromise.reactions++;
    return super.then(onFulfilled, onRejected);
  }
}

async function* events(count: number): AsyncGenerator<ExecutionResult> {
  for (let i = 0; i < count; i++) yield { data: { n: i } };
}

describe('untilSignInEnds', () => {
  it('passes every result through and hears the end of the sign-in through one reaction, however many events there are', async () => {
    CountingPromise.reactions = 0;
    const reason = new CountingPromise<string>(() => {});
    let released = 0;
    const seen: unknown[] = [];
    for await (const result of untilSignInEnds(events(1_000), { reason, release: () => released++ })) seen.push(result.data);
    expect(seen).toHaveLength(1_000);
    expect(seen.at(-1)).toEqual({ n: 999 });
    // Racing each next() against the end would have attached a thousand reactions, each keeping its result.
    expect(CountingPromise.reactions).toBeLessThanOrEqual(2);
    expect(released).toBe(1);
  });

  it('ends with one UNAUTHENTICATED error when the sign-in ends, while the source waits and after it', async () => {
    let endSignIn!: (message: string) => void;
    const reason = new Promise<string>((resolve) => (endSignIn = resolve));
    async function* quiet(): AsyncGenerator<ExecutionResult> {
      yield { data: { first: true } };
      await new Promise(() => {});
    }
    const stream = untilSignInEnds(quiet(), { reason, release: () => {} });
    expect((await stream.next()).value).toEqual({ data: { first: true } });
    const waiting = stream.next();
    endSignIn('expired');
    const ended = await waiting;
    expect(ended.value?.errors?.[0]?.message).toBe('expired');
    expect(ended.value?.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});
