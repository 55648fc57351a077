import { graphql } from './gql/gql.ts';

// A thread's context as an app shows it (docs/compaction.md): how full the model's window is, and
// compaction by hand ("Summarise and retry" on a CONTEXT_LENGTH card is `compact` then `retry`).

/** How full the thread's context is: what the next call would send, against the agent's window (null: not measured). */
export const ThreadContextDocument = graphql(`
  query ThreadContext($threadId: ID!) {
    conversation(threadId: $threadId) {
      threadId
      context { usedTokens windowTokens compactedThrough }
    }
  }
`);

export const CompactThreadNowDocument = graphql(`
  mutation CompactThreadNow($threadId: ID!) {
    compactThread(threadId: $threadId) {
      __typename
      ... on Conversation { threadId context { usedTokens windowTokens compactedThrough } }
      ...ClientErrorFields
    }
  }
`);
