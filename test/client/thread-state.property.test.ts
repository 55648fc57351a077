import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyToThread,
  initialThreadState,
  type Conversation,
  type MessagePart,
  type RunEvent,
  type ThreadInput,
  type ThreadState,
} from '../../packages/client/src/thread-state.ts';

/*
 * A model of one thread on the server: turns run one after another; each streams its reply in
 * live-only deltas (some through a delegated child whose text lives on a card in the reply), may
 * fail (one durable ErrorEvent), and finishes. The server records text in batches, so a snapshot
 * or a conversation read shows a reply cut at any character; a subscription replays the durable
 * events after its cursor, then snapshots (of the running reply, and of every reply whose end it
 * replays), then the deltas beyond the recorded text, then everything live.
 *
 * The client follows the thread in segments: each begins with a subscription (from its cursor, or
 * from the first `after` again, as graphql-ws re-sends it on its own), sometimes after a reload
 * (a fresh state from a conversation read), sometimes with a conversation read that is answered
 * only after some of the subscription's events were applied; each but the last ends with a dropped socket that
 * loses whatever was still on its way. Like the session, the client reads the conversation when a
 * reply ends. After the last segment the state must show exactly the
 * messages, parts and outcomes of the final conversation, each reply's full text, and the cursor
 * of the last durable event.
 */

const THREAD = 'thread-1';
const createdAt = '2026-01-01T00:00:00.000Z';
type FinalStatus = 'COMPLETED' | 'CANCELLED' | 'FAILED';

interface TurnPlan {
  chunks: string[];
  childChunks: string[];
  status: FinalStatus;
}

interface Turn extends TurnPlan {
  executionId: string;
  childId: string;
  userMessageId: string;
  replyId: string;
  queueId: string;
  acceptedText: string;
}

type Step =
  | { kind: 'durable'; event: RunEvent }
  | { kind: 'delta'; turn: number; child: boolean; text: string; offset: number };

interface Segment {
  /** When the subscription starts, as a fraction of the server's timeline. */
  at: number;
  /** How much of what the socket would deliver before the next segment arrives (the rest is lost). */
  delivered: number;
  fromFirstAfter: boolean;
  reload: boolean;
  /** A conversation read made as the subscription starts, applied this far into its events. */
  lateRead: number | null;
}

interface Scenario {
  turns: TurnPlan[];
  segments: Segment[];
  /** How far the recorder has got, for the successive reads and snapshots (cycled). */
  recorded: number[];
}

const failure = {
  reason: 'RATE_LIMIT' as const,
  retryable: true,
  retryAfterS: 7,
  occurredAt: '2026-01-01T00:00:01.000Z',
  message: 'The model provider is rate limiting requests.',
  messageKey: 'error.rate_limit',
  params: {},
  provider: 'demo',
  httpStatus: 429,
  providerCode: null,
  requestId: null,
  detail: 'rate limited',
};

const chunk = fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('a', 'b', 'c', ' ', 'é', '😀') });
const fraction = fc.integer({ min: 0, max: 100 }).map((percent) => percent / 100);
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  turns: fc.array(
    fc.record({
      chunks: fc.array(chunk, { minLength: 0, maxLength: 5 }),
      childChunks: fc.oneof(fc.constant<string[]>([]), fc.array(chunk, { minLength: 1, maxLength: 3 })),
      status: fc.constantFrom<FinalStatus>('COMPLETED', 'CANCELLED', 'FAILED'),
    })
      // A reply with a card has text of its own too: only a conversation read shows a card alone.
      .map((turn) => (turn.childChunks.length > 0 && turn.chunks.length === 0 ? { ...turn, chunks: ['ok'] } : turn)),
    { minLength: 1, maxLength: 3 },
  ),
  segments: fc.array(
    fc.record({
      at: fraction,
      delivered: fraction,
      fromFirstAfter: fc.boolean(),
      reload: fc.boolean(),
      lateRead: fc.option(fraction, { nil: null }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  recorded: fc.array(fraction, { minLength: 1, maxLength: 8 }),
});

/** The server's timeline: every step in order, with the durable ones numbered from 1. */
function timeline(plans: TurnPlan[]): { turns: Turn[]; steps: Step[] } {
  const steps: Step[] = [];
  let seq = 0;
  const base = (cursor: string) => ({ cursor, threadId: THREAD, createdAt });
  const durable = (event: (cursor: string) => RunEvent) => steps.push({ kind: 'durable', event: event(String(++seq)) });
  const turns = plans.map((plan, index): Turn => {
    const turn: Turn = {
      ...plan,
      executionId: `exec-${index}`,
      childId: `child-${index}`,
      userMessageId: `user-${index}`,
      replyId: `reply-${index}`,
      queueId: `queue-${index}`,
      acceptedText: `message ${index}`,
    };
    durable((cursor) => ({ __typename: 'MessageQueued', ...base(cursor), queueId: turn.queueId, text: turn.acceptedText }));
    durable((cursor) => ({
      __typename: 'ExecutionStarted',
      ...base(cursor),
      executionId: turn.executionId,
      parentExecutionId: null,
      queueId: turn.queueId,
      acceptedText: turn.acceptedText,
      userMessageId: turn.userMessageId,
    }));
    // The child's deltas interleave with the parent's.
    let text = '';
    let childText = '';
    const longest = Math.max(plan.chunks.length, plan.childChunks.length);
    for (let at = 0; at < longest; at++) {
      if (at < plan.childChunks.length) {
        steps.push({ kind: 'delta', turn: index, child: true, text: plan.childChunks[at]!, offset: childText.length });
        childText += plan.childChunks[at];
      }
      if (at < plan.chunks.length) {
        steps.push({ kind: 'delta', turn: index, child: false, text: plan.chunks[at]!, offset: text.length });
        text += plan.chunks[at];
      }
    }
    if (plan.status === 'FAILED') {
      durable((cursor) => ({ __typename: 'ErrorEvent', ...base(cursor), executionId: turn.executionId, parentExecutionId: null, ...failure }));
    }
    durable((cursor) => ({
      __typename: 'ExecutionFinished',
      ...base(cursor),
      executionId: turn.executionId,
      parentExecutionId: null,
      status: plan.status,
    }));
    return turn;
  });
  return { turns, steps };
}

/** What the server knows of each turn after the first `time` steps. */
function progress(turns: Turn[], steps: Step[], time: number) {
  const texts = turns.map(() => ({ text: '', child: '', started: false, failed: false, status: null as FinalStatus | 'RUNNING' | null }));
  let seq = 0;
  for (const step of steps.slice(0, time)) {
    if (step.kind === 'delta') {
      texts[step.turn]![step.child ? 'child' : 'text'] += step.text;
      continue;
    }
    seq = Number(step.event.cursor);
    const event = step.event;
    const index = turns.findIndex((turn) => 'executionId' in event && turn.executionId === event.executionId);
    if (event.__typename === 'ExecutionStarted') Object.assign(texts[index]!, { started: true, status: 'RUNNING' });
    if (event.__typename === 'ErrorEvent') texts[index]!.failed = true;
    if (event.__typename === 'ExecutionFinished') texts[index]!.status = event.status as FinalStatus;
  }
  return { texts, seq };
}

class Recorder {
  private next = 0;
  constructor(private readonly fractions: number[]) {}
  /** A prefix of `text`: all of it once the reply has finished, else as far as the recorder got. */
  cut(text: string, finished: boolean): string {
    if (finished) return text;
    const fraction = this.fractions[this.next++ % this.fractions.length]!;
    return text.slice(0, Math.floor(fraction * text.length));
  }
}

function replyParts(turn: Turn, recordedText: string, recordedChild: string, failed: boolean): MessagePart[] {
  const parts: MessagePart[] = [];
  if (turn.childChunks.length > 0) {
    parts.push({ __typename: 'DelegationPart', toolCallId: `call-${turn.executionId}`, childExecutionId: turn.childId, text: recordedChild, reasoning: '', truncated: false, error: null });
  }
  if (recordedText) parts.push({ __typename: 'TextPart', text: recordedText });
  if (failed) parts.push({ __typename: 'ErrorPart', ...failure });
  return parts;
}

function conversationAt(turns: Turn[], steps: Step[], time: number, recorder: Recorder): Conversation {
  const { texts, seq } = progress(turns, steps, time);
  const edges: Conversation['messages']['edges'] = [];
  let activeExecutionId: string | null = null;
  turns.forEach((turn, index) => {
    const known = texts[index]!;
    if (!known.started) return;
    const finished = known.status !== 'RUNNING';
    if (!finished) activeExecutionId = turn.executionId;
    const outcome = known.status;
    edges.push({ node: { id: turn.userMessageId, role: 'USER', executionId: turn.executionId, outcome, parentId: null, siblingIds: [turn.userMessageId], parts: [{ __typename: 'TextPart', text: turn.acceptedText }] } });
    const parts = replyParts(turn, recorder.cut(known.text, finished), recorder.cut(known.child, finished), known.failed);
    if (parts.length > 0) edges.push({ node: { id: turn.replyId, role: 'ASSISTANT', executionId: turn.executionId, outcome, parentId: turn.userMessageId, siblingIds: [turn.replyId], parts } });
  });
  return { threadId: THREAD, eventCursor: String(seq), activeExecutionId, openSuspensions: [], messages: { edges } };
}

/** What a subscription from `after`, started after `time` steps, delivers in order (each with the step it waits for). */
function delivery(turns: Turn[], steps: Step[], after: number, time: number, recorder: Recorder): { event: RunEvent; time: number }[] {
  const out: { event: RunEvent; time: number }[] = [];
  const replayed = steps.slice(0, time).flatMap((step) => (step.kind === 'durable' && Number(step.event.cursor) > after ? [step.event] : []));
  for (const event of replayed) out.push({ event, time });
  const { texts, seq } = progress(turns, steps, time);
  let live = 0;
  const liveCursor = () => `${seq}.${++live}`;
  const snapshot = (index: number, finished: boolean) => {
    const turn = turns[index]!;
    const known = texts[index]!;
    const text = recorder.cut(known.text, finished);
    const child = recorder.cut(known.child, finished);
    out.push({
      time,
      event: {
        __typename: 'MessageSnapshot',
        cursor: liveCursor(),
        threadId: THREAD,
        createdAt,
        executionId: turn.executionId,
        parentExecutionId: null,
        messageId: turn.replyId,
        textLength: text.length,
        parts: replyParts(turn, text, child, known.failed),
      },
    });
    return { text, child };
  };
  const deltaEvent = (step: Extract<Step, { kind: 'delta' }>, cursor: string): RunEvent => {
    const turn = turns[step.turn]!;
    return {
      __typename: 'TextDelta',
      cursor,
      threadId: THREAD,
      createdAt,
      executionId: step.child ? turn.childId : turn.executionId,
      parentExecutionId: step.child ? turn.executionId : null,
      messageId: turn.replyId,
      text: step.text,
      offset: step.offset,
    };
  };
  turns.forEach((turn, index) => {
    const endReplayed = replayed.some((event) => event.__typename === 'ExecutionFinished' && event.executionId === turn.executionId);
    if (endReplayed) snapshot(index, true);
  });
  const running = texts.findIndex((known) => known.status === 'RUNNING');
  if (running >= 0) {
    const recorded = snapshot(running, false);
    // The deltas beyond what the snapshot recorded, streamed before the subscription started.
    for (const step of steps.slice(0, time)) {
      if (step.kind !== 'delta' || step.turn !== running) continue;
      const have = step.child ? recorded.child : recorded.text;
      if (step.offset + step.text.length > have.length) out.push({ time, event: deltaEvent(step, liveCursor()) });
    }
  }
  let lastSeq = seq;
  let n = 0;
  steps.slice(time).forEach((step, index) => {
    const at = time + index + 1;
    if (step.kind === 'durable') {
      lastSeq = Number(step.event.cursor);
      n = 0;
      out.push({ time: at, event: step.event });
    } else {
      out.push({ time: at, event: deltaEvent(step, `${lastSeq}.${++n + live}`) });
    }
  });
  return out;
}

/**
 * Messages without what only a conversation read (not the stream) is sure to show: delegation
 * cards, and the id of a reply that is nothing but its error (an ErrorEvent names no message).
 */
function shown(messages: ThreadState['messages']) {
  return messages.map((message) => {
    const parts = message.parts.filter((part) => part.__typename !== 'DelegationPart');
    const errorOnly = parts.every((part) => part.__typename === 'ErrorPart');
    return { ...message, id: message.role === 'ASSISTANT' && errorOnly ? null : message.id, parts };
  });
}

function run(scenario: Scenario) {
  const { turns, steps } = timeline(scenario.turns);
  const recorder = new Recorder(scenario.recorded);
  const end = steps.length;
  const starts = scenario.segments.map((segment) => Math.floor(segment.at * end)).sort((a, b) => a - b);
  let state = initialThreadState(THREAD);
  let firstAfter: string | null = null;
  scenario.segments.forEach((segment, index) => {
    const time = starts[index]!;
    if (index === 0 || segment.reload) {
      state = applyToThread(initialThreadState(THREAD), { type: 'conversation', conversation: conversationAt(turns, steps, time, recorder) });
      firstAfter = state.cursor;
    }
    const after = segment.fromFirstAfter ? firstAfter! : state.cursor!;
    const isLast = index === scenario.segments.length - 1;
    const until = isLast ? end : starts[index + 1]!;
    const arriving = delivery(turns, steps, Number(after), time, recorder).filter((item) => item.time <= until);
    const kept = isLast ? arriving.length : Math.floor(segment.delivered * arriving.length);
    // A conversation read sent when the subscription started, answered after `lateAt` events.
    const lateAt = segment.lateRead === null ? -1 : Math.floor(segment.lateRead * kept);
    const lateRead = lateAt >= 0 ? conversationAt(turns, steps, time, recorder) : null;
    // What the user saw never goes back: the cursor, the messages shown, the text of each reply.
    const apply = (input: ThreadInput) => {
      const before = state;
      state = applyToThread(state, input);
      expect(Number(state.cursor)).toBeGreaterThanOrEqual(Number(before.cursor));
      expect(state.messages.length).toBeGreaterThanOrEqual(before.messages.length);
    };
    arriving.slice(0, kept).forEach(({ event, time: arrivedAt }, at) => {
      if (at === lateAt) apply({ type: 'conversation', conversation: lateRead! });
      apply({ type: 'event', event });
      // As the session does: the end of a reply reads the conversation (over HTTP, so a dropped
      // socket does not lose it). A replayed end's snapshot comes after it on the socket and may
      // be lost with it, and the deltas may have been too: only this read brings that text back.
      if (event.__typename === 'ExecutionFinished') apply({ type: 'conversation', conversation: conversationAt(turns, steps, arrivedAt, recorder) });
    });
  });
  return { state, turns, steps, recorder };
}

describe('the thread reducer follows the recovery contract', () => {
  it('any interleaving of replay, live events, snapshots, old cursors, reloads and drops ends as the final conversation shows', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { state, turns, steps, recorder } = run(scenario);
        const final = conversationAt(turns, steps, steps.length, recorder);
        expect(shown(state.messages)).toEqual(shown(final.messages.edges.map(({ node }) => ({ ...node, executionId: node.executionId ?? null, outcome: node.outcome ?? null }))));
        expect(state.cursor).toBe(final.eventCursor);
        expect(state.activeExecutionId).toBeNull();
        for (const turn of turns) {
          expect(state.executions[turn.executionId]?.text ?? '').toBe(turn.chunks.join(''));
          if (turn.childChunks.length > 0) {
            expect(state.executions[turn.childId]?.text).toBe(turn.childChunks.join(''));
            expect(state.executions[turn.childId]?.parentExecutionId).toBe(turn.executionId);
            expect(state.executions[turn.executionId]?.children).toEqual([turn.childId]);
          }
        }
        const last = turns.at(-1)!;
        if (last.status === 'FAILED') {
          expect(state.error).toMatchObject({ executionId: last.executionId, retryAt: Date.parse(failure.occurredAt) + 7_000 });
        } else {
          expect(state.error).toBeNull();
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('applying the same durable event twice, or an old snapshot after newer deltas, changes nothing it should not', () => {
    const { steps } = timeline([{ chunks: ['ab', 'cd'], childChunks: [], status: 'COMPLETED' }]);
    let state = initialThreadState(THREAD);
    for (const step of steps) if (step.kind === 'durable' && step.event.__typename !== 'ExecutionFinished') state = applyToThread(state, { type: 'event', event: step.event });
    const again = steps.find((step) => step.kind === 'durable')!;
    expect(applyToThread(state, { type: 'event', event: (again as { event: RunEvent }).event })).toBe(state);
  });
});
