import { expect } from 'vitest';
import { conversation, execution, messagesOf, type Message, type Part } from './client.ts';
import { is, ofKind, type EventOf, type RunEvent } from './run-events.ts';

// The one failure of a run, as docs/errors.md promises it: one live
// ErrorEvent, one stored ErrorPart and the execution's error, all three the same.

/** What a client shows of a failure: the ErrorEvent's taxonomy, without where it came from. */
export type ShownFailure = Omit<
  EventOf<'ErrorEvent'>,
  '__typename' | 'cursor' | 'threadId' | 'createdAt' | 'executionId' | 'parentExecutionId'
>;

export function errorParts(messages: readonly Message[]): Extract<Part, { __typename: 'ErrorPart' }>[] {
  return messages.flatMap((message) => message.parts).filter((part) => part.__typename === 'ErrorPart');
}

export function shownFailure(event: EventOf<'ErrorEvent'>): ShownFailure {
  const { __typename, cursor, threadId, createdAt, executionId, parentExecutionId, ...shown } = event;
  return shown;
}

/**
 * The turn `text` of the thread failed, recorded once: exactly one ErrorEvent live (before the
 * run's end, which is FAILED), the user's turn and a reply with exactly one ErrorPart in the
 * conversation, and the execution FAILED with its error; the three equal.
 */
export async function expectOneRecordedFailure(
  server: { url: string },
  token: string,
  threadId: string,
  text: string,
  events: readonly RunEvent[],
): Promise<{ executionId: string; shown: ShownFailure }> {
  const live = events.filter(is('ErrorEvent'));
  expect(live).toHaveLength(1);
  const executionId = live[0]!.executionId!;
  expect(executionId).toBeTruthy();
  const shown = shownFailure(live[0]!);
  const finished = ofKind(events, 'ExecutionFinished');
  expect(finished).toEqual([expect.objectContaining({ status: 'FAILED', executionId })]);
  expect(events.indexOf(live[0]!)).toBeLessThan(events.indexOf(finished[0]!));

  const state = await conversation(server, token, threadId);
  expect(state.activeExecutionId).toBeNull();
  const messages = messagesOf(state);
  expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
  expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text }]);
  expect(messages.every((message) => message.executionId === executionId)).toBe(true);
  // What the user saw survives a reload: both messages of the turn read as failed.
  expect(messages.map((message) => message.outcome)).toEqual(['FAILED', 'FAILED']);
  expect(Date.parse(shown.occurredAt as string)).not.toBeNaN();
  const stored = errorParts(messages);
  expect(stored).toHaveLength(1);
  const { __typename: _part, ...storedFields } = stored[0]!;
  expect(storedFields).toEqual(shown);

  const recorded = await execution(server, token, executionId);
  expect(recorded.status).toBe('FAILED');
  expect(recorded.error).toEqual(shown);
  return { executionId, shown };
}
