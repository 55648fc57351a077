import { graphql } from '../gql/gql.ts';

// Operations of the recovery suites (suspensions, reconnects, process kills, queue invariants): the
// whole event union with suspension and steering events, and the conversation with its tool calls.

export const RecoveryEventsDocument = graphql(`
  subscription RecoveryEvents($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename
      ... on MessageQueued {
        cursor
        executionId
        queueId
        text
      }
      ... on ExecutionStarted {
        cursor
        executionId
        startedQueueId: queueId
        acceptedText
        userMessageId
      }
      ... on TextDelta {
        cursor
        executionId
        messageId
        text
        offset
      }
      ... on ReasoningDelta {
        cursor
        executionId
        text
      }
      ... on MessageSnapshot {
        cursor
        executionId
        messageId
        textLength
        parts {
          __typename
          ... on TextPart {
            text
          }
          ... on DelegationPart {
            childExecutionId
            text
          }
        }
      }
      ... on MessageSteered {
        cursor
        executionId
        queueIds
        texts
      }
      ... on ToolCallEvent {
        cursor
        executionId
        messageId
        toolCallId
        toolName
        state
      }
      ... on SuspensionOpened {
        cursor
        executionId
        suspensionId
        kind
        toolCallId
        payload
      }
      ... on SuspensionResolved {
        cursor
        executionId
        suspensionId
        resolution
      }
      ... on RetryScheduled {
        cursor
        executionId
      }
      ... on ErrorEvent {
        cursor
        executionId
        reason
        retryable
        messageKey
      }
      ... on ExecutionFinished {
        cursor
        executionId
        status
      }
      ... on QueueUpdated {
        cursor
      }
      ... on ExecutionUpdated {
        cursor
        executionId
        status
      }
    }
  }
`);

export const RecoveryConversationDocument = graphql(`
  query RecoveryConversation($threadId: ID!) {
    conversation(threadId: $threadId) {
      threadId
      eventCursor
      activeExecutionId
      openSuspensions {
        id
        kind
        status
        executionId
        toolCallId
        toolName
        payload
      }
      messages(first: 100) {
        edges {
          node {
            id
            role
            executionId
            parts {
              __typename
              ... on TextPart {
                text
              }
              ... on ToolCallPart {
                toolCallId
                toolName
                state
                output
              }
              ... on SteeredInputPart {
                queueId
                text
              }
              ... on ErrorPart {
                reason
                retryable
                messageKey
              }
            }
          }
        }
      }
    }
  }
`);

export const RecoveryExecutionDocument = graphql(`
  query RecoveryExecution($id: ID!) {
    node(id: $id) {
      __typename
      ... on Execution {
        id
        status
        acceptedText
        parentExecutionId
        error {
          reason
          retryable
          messageKey
        }
      }
    }
  }
`);

export const RecoveryResolveSuspensionDocument = graphql(`
  mutation RecoveryResolveSuspension($id: ID!, $decision: SuspensionDecision, $answer: String) {
    resolveSuspension(id: $id, decision: $decision, answer: $answer) {
      __typename
      ... on SuspensionResolved {
        suspensionId
        executionId
        cursor
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
    }
  }
`);

export const RecoverySendMessageDocument = graphql(`
  mutation RecoverySendMessage($threadId: ID!, $text: String!) {
    sendMessage(threadId: $threadId, text: $text) {
      __typename
      ... on MessageQueued {
        queueId
        cursor
      }
      ... on SuspensionResolved {
        suspensionId
        executionId
        cursor
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const RecoveryCancelExecutionDocument = graphql(`
  mutation RecoveryCancelExecution($executionId: ID!) {
    cancelExecution(executionId: $executionId) {
      __typename
      ... on CancelRequested {
        executionId
        cancelRequested
      }
      ... on Error {
        message
        code
      }
    }
  }
`);
