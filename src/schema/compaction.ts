import { encodeId } from './ids.ts';
import { runEventType } from './run-events.ts';

runEventType(
  'ThreadCompacted',
  'A summary now replaces, for the model, the messages before messageId (its CompactionPart says which and how); undone: they are sent again (uncompactThread).',
  (t) => ({
    messageId: t.id({ description: 'The message that holds the CompactionPart: the first one the model is still sent.', resolve: (event) => encodeId('Message', event.payload.messageId) }),
    throughMessageId: t.id({ description: 'The last message the summary replaces.', resolve: (event) => encodeId('Message', event.payload.throughMessageId) }),
    undone: t.boolean({ resolve: (event) => event.payload.undone }),
  }),
);
