import type { RunEventsSubscription } from '../gql/operations.ts';

// Reading a thread's runEvents as a client does: picking events, and the reply text they make.

export type RunEvent = RunEventsSubscription['runEvents'];
export type RunEventKind = RunEvent['__typename'];
export type EventOf<K extends RunEventKind> = Extract<RunEvent, { __typename: K }>;

/**
 * Matches events of one kind; `match` narrows further: an execution id (the event is of that
 * execution) or a predicate.
 */
export function is<K extends RunEventKind>(kind: K, match?: string | ((event: EventOf<K>) => boolean)) {
  return (event: RunEvent): event is EventOf<K> =>
    event.__typename === kind &&
    (match === undefined || (typeof match === 'string' ? 'executionId' in event && event.executionId === match : match(event as EventOf<K>)));
}

export function ofKind<K extends RunEventKind>(events: readonly RunEvent[], kind: K): EventOf<K>[] {
  return events.filter(is(kind));
}

export function typenames(events: readonly RunEvent[]): RunEventKind[] {
  return events.map((event) => event.__typename);
}

export const finishedOf = (executionId: string) => is('ExecutionFinished', executionId);
export const startedWith = (text: string) => is('ExecutionStarted', (event) => event.acceptedText === text);
export const startedFrom = (queueId: string) => is('ExecutionStarted', (event) => event.queueId === queueId);

/** Durable events have an integer cursor (the thread's event seq); live-only ones `<seq>.<n>`. */
export function durableSeq(event: RunEvent): number | null {
  return /^\d+$/.test(event.cursor) ? Number(event.cursor) : null;
}

export function isDurable(event: RunEvent): boolean {
  return durableSeq(event) !== null;
}

/** One event in a line, for failure messages: `cursor Type[:status][@offset+length]`. */
export function brief(event: RunEvent): string {
  const status = 'status' in event ? `:${event.status}` : '';
  const offset = event.__typename === 'TextDelta' ? `@${event.offset}+${event.text.length}` : '';
  return `${event.cursor} ${event.__typename}${status}${offset}`;
}

function snapshotText(event: EventOf<'MessageSnapshot'>): string {
  return event.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
}

/**
 * The reply text per execution as a client following the recovery contract shows it: a snapshot
 * replaces the text (its delegation cards replace their children's), a delta appends whatever part
 * of it lies beyond what the client has. Offsets count within one execution's text.
 */
export function replyTexts(events: readonly RunEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of events) {
    if (event.__typename === 'MessageSnapshot') {
      texts.set(event.executionId!, snapshotText(event));
      for (const part of event.parts) {
        if (part.__typename === 'DelegationPart') texts.set(part.childExecutionId, part.text);
      }
    } else if (event.__typename === 'TextDelta') {
      const have = texts.get(event.executionId!) ?? '';
      if (event.offset > have.length) {
        throw new Error(`gap in ${event.executionId}: have ${have.length}, delta at ${event.offset}`);
      }
      const end = event.offset + event.text.length;
      if (end > have.length) texts.set(event.executionId!, have + event.text.slice(have.length - event.offset));
    }
  }
  return texts;
}

/**
 * The checks a strict client applies to a stream: every cursor once; durable seqs strictly
 * increasing; per execution, each delta starts exactly where the text so far ends (no gap, no
 * overlap), and a snapshot only ever extends that text. Returns the reply text per execution.
 * With `textProblems`, gaps and overlaps are collected there instead of thrown.
 */
export function checkStream(events: readonly RunEvent[], textProblems?: string[]): Map<string, string> {
  const cursors = new Set<string>();
  let lastSeq = -1;
  const texts = new Map<string, string>();
  for (const event of events) {
    if (cursors.has(event.cursor)) throw new Error(`cursor ${event.cursor} delivered twice (${brief(event)})`);
    cursors.add(event.cursor);
    const seq = durableSeq(event);
    if (seq !== null) {
      if (seq <= lastSeq) throw new Error(`durable seq ${seq} after ${lastSeq}`);
      lastSeq = seq;
    }
    if (event.__typename === 'MessageSnapshot') {
      const text = snapshotText(event);
      const have = texts.get(event.executionId!) ?? '';
      if (!text.startsWith(have)) throw new Error(`snapshot of ${event.executionId} "${text}" does not extend "${have}"`);
      texts.set(event.executionId!, text);
    } else if (event.__typename === 'TextDelta') {
      const have = texts.get(event.executionId!) ?? '';
      if (event.offset !== have.length) {
        const problem = `${event.offset > have.length ? 'gap' : 'duplicate'} in ${event.executionId}: have ${have.length} characters, delta at ${event.offset} (cursor ${event.cursor})`;
        if (!textProblems) throw new Error(problem);
        textProblems.push(problem);
        // Go on as a client would that shows the hole: the missing characters as '?'.
        texts.set(event.executionId!, have.slice(0, event.offset).padEnd(event.offset, '?') + event.text);
        continue;
      }
      texts.set(event.executionId!, have + event.text);
    }
  }
  return texts;
}

/**
 * A thread runs one execution at a time, so a client following its events must never see an
 * ExecutionStarted before the previous execution's ExecutionFinished. Returns each violation with
 * the events around it (deltas left out).
 */
export function overlappingStarts(events: readonly RunEvent[]): string[] {
  const short = (id: string | null | undefined) =>
    id ? (Buffer.from(id, 'base64').toString('utf8').split(':')[1]?.slice(0, 8) ?? id) : '-';
  const overlaps: string[] = [];
  const active = new Set<string>();
  events.forEach((event, at) => {
    if (event.__typename === 'ExecutionStarted') {
      if (active.size > 0) {
        const around = events
          .slice(Math.max(0, at - 3), at + 5)
          .filter((other) => other.__typename !== 'TextDelta' && other.__typename !== 'ReasoningDelta')
          .map((other) => `${brief(other)}(${short('executionId' in other ? other.executionId : null)})`)
          .join(' | ');
        overlaps.push(`${brief(event)} of ${short(event.executionId)} while ${[...active].map(short).join(',')} active: ${around}`);
      }
      active.add(event.executionId!);
    } else if (event.__typename === 'ExecutionFinished') {
      active.delete(event.executionId!);
    }
  });
  return overlaps;
}
