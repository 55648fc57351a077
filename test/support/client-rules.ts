import type { RunEventsSubscription } from '../gql/graphql.ts';

type RunEvent = RunEventsSubscription['runEvents'];

/**
 * The reply text per execution as a client following the recovery contract shows it: a snapshot
 * replaces the text (its delegation cards replace their children's), a delta appends whatever part
 * of it lies beyond what the client has. Offsets count within one execution's text.
 */
export function replyTexts(events: readonly { runEvents: RunEvent }[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const { runEvents: event } of events) {
    if (event.__typename === 'MessageSnapshot') {
      texts.set(
        event.executionId!,
        event.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join(''),
      );
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

export function typenames(events: readonly { runEvents: RunEvent }[]): string[] {
  return events.map((event) => event.runEvents.__typename);
}
