import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessagePart } from '../../conversation/parts.ts';
import type { ThreadEvent } from '../thread-event.ts';
import { SNAPSHOT_WAIT_MS, SubscriberLedger, type RunEvent } from '../subscriber-ledger.ts';

/*
 * A model of one thread: root executions stream text and reasoning, some through a delegated child
 * whose text lives on a card in its root's reply. A subscriber subscribes, later reads the log and
 * the running replies (fresh if this instance runs the root, else as recorded: behind, cut at any
 * character), and takes what arrived on its live channel, in order, as the event stream does. Live
 * events may be lost (a Redis outage): durable ones are still in the log.
 *
 * The model assumes what the ledger relies on: the snapshot a settlement gets is the freshest reply
 * that holds the execution's text (a child's is its root's), and a child's text fits on its card.
 */

const THREAD = 'thread-1';
const createdAt = '2025-01-01T00:00:00.000Z';
const STREAMS = ['text', 'reasoning'] as const;
type Stream = (typeof STREAMS)[number];

interface Execution {
  id: string;
  /** The root whose reply holds this execution's text: itself, or the parent of a delegated child. */
  root: string;
  text: string;
  reasoning: string;
  finished: boolean;
}

type Action =
  | { kind: 'emit'; execution: number; stream: Stream; chunk: string; lost: boolean }
  | { kind: 'snapshot'; root: number; lost: boolean }
  | { kind: 'answer'; lost: boolean }
  | { kind: 'record'; root: number; progress: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'finish'; root: number; lost: boolean }
  | { kind: 'queue'; lost: boolean }
  | { kind: 'resync' }
  | { kind: 'take'; count: number };

interface Scenario {
  roots: { hasChild: boolean }[];
  actions: Action[];
  subscribeAt: number;
  /** Actions between subscribing and reading the log and the running replies. */
  readAfter: number;
  start: { kind: 'live' } | { kind: 'cursor'; fraction: number };
  /**
   * Per root, when the subscriber reads the running replies: null when this instance runs it (a
   * fresh reply), else how far the recorder has got of what it had not written (a recorded reply).
   */
  recorderProgress: (number | null)[];
}

const lost = fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('emit' as const),
      execution: fc.nat(5),
      stream: fc.constantFrom<Stream>('text', 'text', 'reasoning'),
      chunk: fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), minLength: 1, maxLength: 4 }),
      lost,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('snapshot' as const), root: fc.nat(2), lost }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('answer' as const), lost }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('record' as const), root: fc.nat(2), progress: fraction }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(SNAPSHOT_WAIT_MS + 500) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('finish' as const), root: fc.nat(2), lost }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('queue' as const), lost }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resync' as const) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('take' as const), count: fc.integer({ min: 1, max: 6 }) }) },
);

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    roots: fc.array(fc.record({ hasChild: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    actions: fc.array(actionArb, { maxLength: 80, size: 'max' }),
    subscribeFraction: fraction,
    readAfter: fc.nat(6),
    start: fc.oneof(
      fc.constant({ kind: 'live' as const }),
      fc.record({ kind: fc.constant('cursor' as const), fraction }),
    ),
    recorderProgress: fc.array(fc.option(fraction), { minLength: 3, maxLength: 3 }),
  })
  .map(({ subscribeFraction, ...rest }) => ({
    ...rest,
    subscribeAt: Math.floor(subscribeFraction * rest.actions.length),
  }));

function key(stream: Stream, executionId: string): string {
  return `${stream}:${executionId}`;
}

/** Text and reasoning per execution in a snapshot, as the client rule reads it. */
function snapshotTexts(snapshot: ThreadEvent): Map<string, string> {
  const texts = new Map<string, string>();
  if (snapshot.payload.type !== 'MessageSnapshot') return texts;
  const parts = snapshot.payload.parts as MessagePart[];
  for (const stream of STREAMS) {
    texts.set(key(stream, snapshot.executionId!), parts.map((part) => (part.type === stream ? part.text : '')).join(''));
  }
  for (const part of parts) {
    if (part.type !== 'delegation') continue;
    texts.set(key('text', part.childExecutionId), part.text);
    texts.set(key('reasoning', part.childExecutionId), part.reasoning);
  }
  return texts;
}

/** The client rule of the recovery contract: a snapshot replaces, a delta appends what lies beyond. */
class Client {
  readonly texts = new Map<string, string>();

  apply(event: ThreadEvent): void {
    const payload = event.payload;
    if (payload.type === 'MessageSnapshot') {
      for (const [textKey, text] of snapshotTexts(event)) this.texts.set(textKey, text);
    } else if (payload.type === 'TextDelta' || payload.type === 'ReasoningDelta') {
      const textKey = key(payload.type === 'TextDelta' ? 'text' : 'reasoning', event.executionId!);
      const have = this.texts.get(textKey) ?? '';
      if (payload.offset + payload.text.length > have.length) {
        this.texts.set(textKey, have + payload.text.slice(have.length - payload.offset));
      }
    }
  }
}

function cursorOrder(cursor: string): [number, number] {
  const [seq, transient] = cursor.split('.');
  return [Number(seq), Number(transient ?? 0)];
}

/** Thrown instead of calling expect() on every step, which would make the runs slow. */
function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

const CATCH_UP = 'catch up';

function run(scenario: Scenario): void {
  const executions: Execution[] = [];
  scenario.roots.forEach(({ hasChild }, index) => {
    const id = `root${index}`;
    executions.push({ id, root: id, text: '', reasoning: '', finished: false });
    if (hasChild) executions.push({ id: `child${index}`, root: id, text: '', reasoning: '', finished: false });
  });
  const byId = new Map(executions.map((execution) => [execution.id, execution]));
  const roots = executions.filter((execution) => execution.root === execution.id);
  const family = (root: Execution) => executions.filter((execution) => execution.root === root.id);
  const truth = (textKey: string): string => {
    const [stream, id] = textKey.split(':') as [Stream, string];
    return byId.get(id)![stream];
  };

  /** A root's reply with its children's cards, each text cut at `lengthOf` (default: all of it). */
  const reply = (root: Execution, lengthOf = (_textKey: string) => Infinity): ThreadEvent => {
    const cut = (execution: Execution, stream: Stream) =>
      execution[stream].slice(0, lengthOf(key(stream, execution.id)));
    const text = cut(root, 'text');
    const half = Math.floor(text.length / 2);
    const parts: MessagePart[] = [
      { type: 'reasoning', text: cut(root, 'reasoning') },
      // Several text parts around a tool call: offsets count over all of them.
      { type: 'text', text: text.slice(0, half) },
      { type: 'tool-call', toolCallId: 'call', toolName: 'lookup', input: {}, state: 'SUCCEEDED', output: null },
      { type: 'text', text: text.slice(half) },
      ...family(root)
        .filter((child) => child !== root)
        .map(
          (child): MessagePart => ({
            type: 'delegation',
            toolCallId: `call-${child.id}`,
            childExecutionId: child.id,
            text: cut(child, 'text'),
            reasoning: cut(child, 'reasoning'),
            truncated: false,
            error: null,
          }),
        ),
    ];
    const payload = { type: 'MessageSnapshot' as const, messageId: `reply-${root.id}`, parts, textLength: text.length };
    return { threadId: THREAD, seq: null, executionId: root.id, parentExecutionId: null, createdAt, payload };
  };
  // Characters of each text the recorder has written: it falls behind between its batches.
  const recordedLengths = new Map<string, number>();
  const recordedReply = (root: Execution) => reply(root, (textKey) => recordedLengths.get(textKey) ?? 0);
  /** The recorder writes `progress` (0 to 1) of what it had not written yet: a cut at any character. */
  const record = (root: Execution, progress: number): void => {
    for (const execution of family(root)) {
      for (const stream of STREAMS) {
        const textKey = key(stream, execution.id);
        const recorded = recordedLengths.get(textKey) ?? 0;
        recordedLengths.set(textKey, recorded + Math.floor(progress * (execution[stream].length - recorded)));
      }
    }
  };

  const log: ThreadEvent[] = [];
  const appendDurable = (executionId: string | null, payload: ThreadEvent['payload']): ThreadEvent => {
    const event: ThreadEvent = { threadId: THREAD, seq: log.length + 1, executionId, parentExecutionId: null, createdAt, payload };
    log.push(event);
    return event;
  };

  const ledger = new SubscriberLedger();
  const client = new Client();
  const channel: (ThreadEvent | typeof CATCH_UP)[] = [];
  const snapshotRequests: string[] = [];
  let subscribed = false;
  let reading = false;
  let lastCursor: string | null = null;
  let clientSeq = 0;
  let now = 0;

  const publish = (event: ThreadEvent | typeof CATCH_UP, lostOnTheWay = false): void => {
    if (subscribed && !lostOnTheWay) channel.push(event);
  };

  const deliver = (event: RunEvent): void => {
    if (lastCursor !== null) {
      const [seq, transient] = cursorOrder(event.cursor);
      const [lastSeq, lastTransient] = cursorOrder(lastCursor);
      const ascending = seq > lastSeq || (seq === lastSeq && transient > lastTransient);
      check(ascending, () => `cursor ${event.cursor} after ${lastCursor}`);
    }
    lastCursor = event.cursor;
    if (event.seq !== null) {
      check(event.seq === clientSeq + 1, () => `durable seq ${event.seq} after ${clientSeq}: one missed or twice`);
      clientSeq = event.seq;
    }
    const payload = event.payload;
    if (payload.type === 'TextDelta' || payload.type === 'ReasoningDelta') {
      const textKey = key(payload.type === 'TextDelta' ? 'text' : 'reasoning', event.executionId!);
      const have = client.texts.get(textKey) ?? '';
      // Exactly at the end of what the client has: no hole, and nothing it has already.
      const atTheEnd = payload.offset === have.length && payload.text.length > 0;
      check(atTheEnd, () => `${textKey}: delta at ${payload.offset}, client has ${have.length}`);
    }
    client.apply(event);
    for (const [textKey, text] of client.texts) {
      check(truth(textKey).startsWith(text), () => `${textKey}: "${text}" is not a prefix of "${truth(textKey)}"`);
    }
  };

  /** A snapshot and what it released were delivered: the client has exactly the snapshot's texts. */
  const expectCaughtUpWith = (snapshot: ThreadEvent): void => {
    for (const [textKey, text] of snapshotTexts(snapshot)) {
      const has = client.texts.get(textKey);
      check(has === text, () => `${textKey}: client has "${has}", snapshot "${text}"`);
    }
  };

  const replay = (events: ThreadEvent[]): void => {
    for (const event of events) {
      if (event.payload.type === 'ExecutionFinished') {
        const snapshot = recordedReply(byId.get(event.executionId!)!);
        deliver(ledger.snapshot(snapshot));
        expectCaughtUpWith(snapshot);
      }
      deliver(ledger.durable(event));
    }
  };

  const settleOverdue = (): void => {
    for (const executionId of ledger.heldExecutions()) {
      if (!ledger.isOverdue(executionId, now)) continue;
      const snapshot = reply(byId.get(byId.get(executionId)!.root)!);
      ledger.settle(executionId, snapshot).forEach(deliver);
      expectCaughtUpWith(snapshot);
    }
  };

  /** Takes what arrived on the live channel, as the stream's live loop does. */
  const take = (count: number): void => {
    if (!reading) return;
    for (const event of channel.splice(0, count)) {
      if (event === CATCH_UP) {
        replay(log.filter((logged) => logged.seq! > ledger.lastSeq));
      } else if (event.seq === null) {
        const { deliver: events, askForSnapshot } = ledger.live(event, now);
        if (askForSnapshot !== null) {
          // A delegated child's reply is its parent's: asking for the child's would go unanswered.
          check(byId.get(askForSnapshot)?.root === askForSnapshot, () => `snapshot asked for ${askForSnapshot}, not a root`);
          snapshotRequests.push(askForSnapshot);
        }
        events.forEach(deliver);
        if (event.payload.type === 'MessageSnapshot') {
          expectCaughtUpWith(event);
          const stillHeld = ledger.heldExecutions().includes(event.executionId!);
          check(!stillHeld, () => `${event.executionId} still held after its snapshot`);
        }
      } else if (event.seq > ledger.lastSeq) {
        if (event.seq > ledger.lastSeq + 1) {
          replay(log.filter((logged) => logged.seq! > ledger.lastSeq && logged.seq! < event.seq!));
        }
        deliver(ledger.durable(event));
      }
    }
    settleOverdue();
  };

  /** The stream's start: the position (or the log after the cursor) and the running replies. */
  const read = (): void => {
    reading = true;
    clientSeq = log.length;
    if (scenario.start.kind === 'live') ledger.startAfter(log.length);
    const runningReplies = roots
      .filter((root) => !root.finished)
      .map((root) => {
        const progress = scenario.recorderProgress[roots.indexOf(root)]!;
        if (progress === null) return reply(root);
        record(root, progress);
        return recordedReply(root);
      });
    if (scenario.start.kind === 'cursor') {
      const cursor = Math.floor(scenario.start.fraction * log.length);
      clientSeq = cursor;
      ledger.startAfter(cursor);
      replay(log.filter((event) => event.seq! > cursor));
    }
    for (const snapshot of runningReplies) {
      deliver(ledger.snapshot(snapshot));
      expectCaughtUpWith(snapshot);
    }
  };

  const readAt = scenario.subscribeAt + scenario.readAfter;
  scenario.actions.forEach((action, index) => {
    if (index === scenario.subscribeAt) subscribed = true;
    if (index === readAt) read();
    switch (action.kind) {
      case 'emit': {
        const execution = executions[action.execution % executions.length]!;
        if (byId.get(execution.root)!.finished) break;
        const offset = execution[action.stream].length;
        execution[action.stream] += action.chunk;
        publish(delta(execution, action.stream, offset, action.chunk), action.lost);
        break;
      }
      case 'snapshot': {
        const root = roots[action.root % roots.length]!;
        if (!root.finished) publish(reply(root), action.lost);
        break;
      }
      case 'answer': {
        // Only the instance that runs a root answers, so the ledger asks for roots only.
        const root = roots.find((candidate) => candidate.id === snapshotRequests[0]);
        snapshotRequests.shift();
        if (root && !root.finished) publish(reply(root), action.lost);
        break;
      }
      case 'record': {
        const root = roots[action.root % roots.length]!;
        if (!root.finished) record(root, action.progress);
        break;
      }
      case 'tick':
        now += action.ms;
        break;
      case 'finish': {
        const root = roots[action.root % roots.length]!;
        if (root.finished) break;
        root.finished = true;
        // A run's end is recorded with all of its reply.
        for (const execution of family(root)) {
          for (const stream of STREAMS) recordedLengths.set(key(stream, execution.id), Infinity);
        }
        publish(appendDurable(root.id, { type: 'ExecutionFinished', status: 'COMPLETED' }), action.lost);
        break;
      }
      case 'queue':
        publish(appendDurable(null, { type: 'QueueUpdated' }), action.lost);
        break;
      case 'resync':
        publish(CATCH_UP);
        break;
      case 'take':
        take(action.count);
        break;
    }
  });
  subscribed = true;
  if (!reading) read();
  take(Infinity);

  // Snapshots that cover everything: each root's reply as it is now, then whatever still waits.
  for (const root of roots) publish(reply(root));
  take(Infinity);
  now += SNAPSHOT_WAIT_MS;
  settleOverdue();
  expect(ledger.heldExecutions()).toEqual([]);
  for (const execution of executions) {
    for (const stream of STREAMS) {
      expect(client.texts.get(key(stream, execution.id)), `${stream} of ${execution.id}`).toBe(execution[stream]);
    }
  }
}

function delta(execution: Execution, stream: Stream, offset: number, text: string): ThreadEvent {
  const messageId = 'reply';
  const payload =
    stream === 'text'
      ? { type: 'TextDelta' as const, messageId, text, offset }
      : { type: 'ReasoningDelta' as const, messageId, text, offset };
  const parentExecutionId = execution.root === execution.id ? null : execution.root;
  return { threadId: THREAD, seq: null, executionId: execution.id, parentExecutionId, createdAt, payload };
}

describe('the subscriber ledger over random interleavings', () => {
  it('the client’s text is a prefix of the true one without a hole, whole after a covering snapshot; nothing comes twice', () => {
    fc.assert(fc.property(scenarioArb, run), { numRuns: 500 });
  });
});
