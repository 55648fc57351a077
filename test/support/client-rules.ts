import type { RunEventsSubscription } from '../gql/graphql.ts';

type RunEvent = RunEventsSubscription['runEvents'];

/**
 * The reply text per message as a client following the recovery contract shows it: a snapshot
 * replaces the text, a delta appends whatever part of it lies beyond what the client has.
 */
export function replyTexts(events: readonly { runEvents: RunEvent }[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const { runEvents: event } of events) {
    if (event.__typename === 'MessageSnapshot') {
      texts.set(
        event.messageId,
        event.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join(''),
      );
    } else if (event.__typename === 'TextDelta') {
      const have = texts.get(event.messageId) ?? '';
      if (event.offset > have.length) throw new Error(`gap in ${event.messageId}: have ${have.length}, delta at ${event.offset}`);
      const end = event.offset + event.text.length;
      if (end > have.length) texts.set(event.messageId, have + event.text.slice(have.length - event.offset));
    }
  }
  return texts;
}

export function typenames(events: readonly { runEvents: RunEvent }[]): string[] {
  return events.map((event) => event.runEvents.__typename);
}
