import type { MessagePart } from '../conversation/parts.ts';
import { InvalidInputError } from '../domain/errors.ts';
import type { ThreadEvent } from './thread-event.ts';

export interface RunEvent extends ThreadEvent {
  /** Resume point: `runEvents(after: cursor)` continues right after this event. */
  cursor: string;
  /**
   * The record this was made from: for a live event, the one object every subscriber of the thread
   * on this instance got from the bus, so that what is made of it once can serve them all.
   */
  origin: ThreadEvent;
}

/** Durable events have the cursor `<seq>`, live-only ones `<seq of the durable event before>.<n>`. */
export function parseCursor(value: string): { seq: number } {
  const match = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(value);
  if (!match) throw new InvalidInputError('after', 'is not a cursor returned by Parley.');
  return { seq: Number(match[1]) };
}

/**
 * Where a subscriber resumes: after the cursor's durable event. A cursor beyond the thread's log
 * was never given out for this thread; resuming there would silently skip every event up to it.
 */
export function resumeAfter(cursor: string, logEnd: number): { seq: number } {
  const resume = parseCursor(cursor);
  if (resume.seq > logEnd) {
    throw new InvalidInputError('after', `is beyond this thread's event log, which ends at cursor "${logEnd}".`);
  }
  return resume;
}

// How long held deltas wait for the running instance's snapshot before the subscriber settles for
// the freshest one it can read (the recorded one may be up to one text flush behind).
export const SNAPSHOT_WAIT_MS = 1_500;

export interface LiveDelivery {
  deliver: RunEvent[];
  /** The (root) execution whose snapshot the running instance should publish: the client misses text before a delta. */
  askForSnapshot: string | null;
}

/**
 * What one subscriber's client has been given: its place in the thread's log (every delivered
 * event gets its cursor here) and how many characters of each execution's text and reasoning it
 * has. Decides what of each event to deliver so that the client's text never has a hole and never
 * gets the same characters twice: a delta is trimmed to what is new, and one beyond what the
 * client has is held until a snapshot covers the hole before it (or its deadline passes).
 * No I/O and no timers: the caller passes the time and fetches the snapshots.
 */
export class SubscriberLedger {
  private lastDurableSeq = 0;
  private transientCount = 0;
  // Keys `text:<executionId>` and `reasoning:<executionId>`: a delegated child's text lives on its
  // card in the parent's message, so the keys are execution ids, not message ids.
  private readonly have = new Map<string, number>();
  private readonly held = new Map<string, { events: ThreadEvent[]; deadline: number }>();

  /** The seq of the last durable event delivered, or of the position the client starts after. */
  get lastSeq(): number {
    return this.lastDurableSeq;
  }

  /** The client starts right after this durable event: its cursor, or the thread's position for a live-only start. */
  startAfter(seq: number): void {
    this.lastDurableSeq = seq;
  }

  /** An event of the thread's log, delivered in seq order. */
  durable(event: ThreadEvent): RunEvent {
    return this.withCursor(event);
  }

  /** A snapshot replaces the client's text of its execution and of its delegation cards' children. */
  snapshot(snapshot: ThreadEvent): RunEvent {
    for (const [key, length] of snapshotLengths(snapshot)) this.have.set(key, length);
    return this.withCursor(snapshot);
  }

  /**
   * A live-only event: a snapshot, or a delta to deliver as far as it is new, or to hold while text
   * before it is missing.
   */
  live(event: ThreadEvent, now: number): LiveDelivery {
    if (event.payload.type === 'MessageSnapshot') {
      const snapshot = this.snapshot(event);
      return { deliver: [snapshot, ...this.release(event.executionId!)], askForSnapshot: null };
    }
    // Held by the reply the text lives in: a delegated child's text is on a card of its parent's
    // reply, and only the parent's snapshot (which the running instance answers) covers it.
    const replyExecutionId = event.parentExecutionId ?? event.executionId ?? '';
    const waiting = this.held.get(replyExecutionId);
    if (waiting) {
      waiting.events.push(event);
      return { deliver: [], askForSnapshot: null };
    }
    const fitted = this.fit(event);
    if (fitted === 'gap') {
      this.held.set(replyExecutionId, { events: [event], deadline: now + SNAPSHOT_WAIT_MS });
      return { deliver: [], askForSnapshot: replyExecutionId };
    }
    return { deliver: fitted ? [this.withCursor(fitted)] : [], askForSnapshot: null };
  }

  /** Root executions whose replies have held deltas, in the order their holes appeared. */
  heldExecutions(): string[] {
    return [...this.held.keys()];
  }

  isOverdue(executionId: string, now: number): boolean {
    const waiting = this.held.get(executionId);
    return waiting !== undefined && waiting.deadline <= now;
  }

  /** The earliest deadline of held deltas; Infinity when none are held. */
  nextDeadline(): number {
    return Math.min(...[...this.held.values()].map((waiting) => waiting.deadline));
  }

  /** After the wait: the best snapshot there is (if any), then the execution's held deltas. */
  settle(executionId: string, snapshot: ThreadEvent | null): RunEvent[] {
    const delivered = snapshot ? [this.snapshot(snapshot)] : [];
    return [...delivered, ...this.release(executionId)];
  }

  private release(executionId: string): RunEvent[] {
    const waiting = this.held.get(executionId);
    if (!waiting) return [];
    this.held.delete(executionId);
    return waiting.events.flatMap((event) => {
      const fitted = this.fit(event);
      // Still a hole after the best snapshot there is: deliver it, the client sees what was lost.
      if (fitted === 'gap') return [this.withCursor(event)];
      return fitted ? [this.withCursor(fitted)] : [];
    });
  }

  /** The delta as far as it is new to the client; null when it has all of it; 'gap' when text before it is missing. */
  private fit(event: ThreadEvent): ThreadEvent | null | 'gap' {
    const payload = event.payload;
    if (payload.type !== 'TextDelta' && payload.type !== 'ReasoningDelta') return event;
    const key = `${payload.type === 'TextDelta' ? 'text' : 'reasoning'}:${event.executionId}`;
    const known = this.have.get(key) ?? 0;
    if (payload.offset > known) return 'gap';
    const end = payload.offset + payload.text.length;
    if (end <= known) return null;
    this.have.set(key, end);
    if (payload.offset === known) return event;
    return { ...event, payload: { ...payload, text: payload.text.slice(known - payload.offset), offset: known } };
  }

  private withCursor(event: ThreadEvent): RunEvent {
    if (event.seq !== null) {
      this.lastDurableSeq = event.seq;
      this.transientCount = 0;
      return { ...event, cursor: String(event.seq), origin: event };
    }
    return { ...event, cursor: `${this.lastDurableSeq}.${++this.transientCount}`, origin: event };
  }
}

/** Characters per execution in a snapshot: its own text and reasoning, and its children's cards. */
function snapshotLengths(record: ThreadEvent): Map<string, number> {
  const lengths = new Map<string, number>();
  if (record.payload.type !== 'MessageSnapshot') return lengths;
  const parts = record.payload.parts as MessagePart[];
  const lengthOf = (type: 'text' | 'reasoning') =>
    parts.reduce((sum, part) => sum + (part.type === type ? part.text.length : 0), 0);
  lengths.set(`text:${record.executionId}`, lengthOf('text'));
  lengths.set(`reasoning:${record.executionId}`, lengthOf('reasoning'));
  for (const part of parts) {
    if (part.type !== 'delegation') continue;
    lengths.set(`text:${part.childExecutionId}`, part.text.length);
    lengths.set(`reasoning:${part.childExecutionId}`, part.reasoning.length);
  }
  return lengths;
}
