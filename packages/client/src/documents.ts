import { graphql } from './gql/gql.ts';

// The operations a thread session needs, written once; `npm run codegen` types them into ./gql.

export const ClientErrorFieldsFragment = graphql(`
  fragment ClientErrorFields on Error {
    __typename message code
    ... on InvalidInputError { field }
    ... on ForbiddenError { scope }
    ... on RateLimitedError { retryAfterS }
    ... on ServiceUnavailableError { retryAfterS }
    ... on QueueChangedError { currentQueueIds }
  }
`);

export const ClientFailureFieldsFragment = graphql(`
  fragment ClientFailureFields on ExecutionError {
    reason retryable retryAfterS occurredAt
    message messageKey params
    provider httpStatus providerCode requestId detail
  }
`);

export const ClientQueueFieldsFragment = graphql(`
  fragment ClientQueueFields on Queue {
    threadId steerableExecutionId
    items { id text position steeringExecutionId }
  }
`);

export const ClientMessagePartFieldsFragment = graphql(`
  fragment ClientMessagePartFields on MessagePart {
    __typename
    ... on TextPart { text }
    ... on ReasoningPart { text }
    ... on SteeredInputPart { queueId text }
    ... on AttachmentPart { attachmentId filename mediaType size }
    ... on ToolCallPart { toolCallId toolName state input output toolError: error durationMs progress { progress total message } }
    ... on DelegationPart {
      toolCallId childExecutionId text reasoning truncated
      error { ...ClientFailureFields }
    }
    ... on ErrorPart {
      reason retryable retryAfterS occurredAt
      message messageKey params
      provider httpStatus providerCode requestId detail
    }
    ... on CompactionPart { summary firstMessageId throughMessageId replacedMessages model undone }
  }
`);

export const ThreadConversationDocument = graphql(`
  query ThreadConversation($threadId: ID!) {
    conversation(threadId: $threadId) {
      threadId eventCursor activeExecutionId
      openSuspensions { id kind status executionId toolCallId toolName payload }
      messages(last: 150) {
        edges {
          node {
            id role executionId outcome parentId siblingIds
            parts { ...ClientMessagePartFields }
          }
        }
      }
    }
  }
`);

export const ThreadQueueDocument = graphql(`
  query ThreadQueue($threadId: ID!) { queue(threadId: $threadId) { ...ClientQueueFields } }
`);

export const ThreadRunEventsDocument = graphql(`
  subscription ThreadRunEvents($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename cursor threadId createdAt
      ... on ExecutionEvent { executionId parentExecutionId }
      ... on MessageQueued { queueId text }
      ... on ExecutionStarted { queueId acceptedText userMessageId }
      ... on TextDelta { messageId text offset }
      ... on ReasoningDelta { text offset }
      ... on MessageSnapshot { messageId textLength parts { ...ClientMessagePartFields } }
      ... on MessageSteered { queueIds texts }
      ... on ToolCallEvent { messageId toolCallId toolName state input output error durationMs }
      ... on ToolCallProgress { messageId toolCallId progress { progress total message } }
      ... on SuspensionOpened { suspensionId kind toolCallId payload }
      ... on SuspensionResolved { suspensionId resolution }
      ... on RetryScheduled { attempt delayS reason }
      ... on ErrorEvent {
        reason retryable retryAfterS occurredAt
        message messageKey params
        provider httpStatus providerCode requestId detail
      }
      ... on ExecutionFinished { status }
      ... on ExecutionUpdated { status }
      ... on BranchSwitched { leafMessageId }
      ... on ThreadCompacted { messageId throughMessageId undone }
      ... on BudgetWarning { budgetId period perUser warnAtPercent spent { amount currency } amount { amount currency } }
    }
  }
`);

export const SendThreadMessageDocument = graphql(`
  mutation SendThreadMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {
    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {
      __typename
      ... on MessageQueued { queueId threadId cursor }
      ... on SuspensionResolved { suspensionId executionId cursor }
      ...ClientErrorFields
    }
  }
`);

export const EditQueuedDocument = graphql(`
  mutation EditQueued($queueId: ID!, $text: String!) {
    editQueuedMessage(queueId: $queueId, text: $text) {
      __typename
      ... on QueueItem { id text position steeringExecutionId }
      ...ClientErrorFields
    }
  }
`);

export const RemoveQueuedDocument = graphql(`
  mutation RemoveQueued($queueId: ID!) {
    removeQueuedMessage(queueId: $queueId) {
      __typename
      ... on QueueItemRemoved { queueId }
      ...ClientErrorFields
    }
  }
`);

export const ReorderQueuedDocument = graphql(`
  mutation ReorderQueued($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {
    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {
      __typename
      ...ClientQueueFields
      ...ClientErrorFields
    }
  }
`);

export const SteerQueuedDocument = graphql(`
  mutation SteerQueued($queueId: ID!, $executionId: ID!) {
    steerQueuedMessage(queueId: $queueId, executionId: $executionId) {
      __typename
      ... on QueueItem { id text position steeringExecutionId }
      ...ClientErrorFields
    }
  }
`);

export const StopExecutionDocument = graphql(`
  mutation StopExecution($executionId: ID!) {
    cancelExecution(executionId: $executionId) {
      __typename
      ... on CancelRequested { executionId cancelRequested }
      ...ClientErrorFields
    }
  }
`);

export const ResolveCardDocument = graphql(`
  mutation ResolveCard($id: ID!, $decision: SuspensionDecision, $answer: String, $allowInThread: Boolean, $elicitation: ElicitationResponseInput) {
    resolveSuspension(id: $id, decision: $decision, answer: $answer, allowInThread: $allowInThread, elicitation: $elicitation) {
      __typename
      ... on SuspensionResolved { suspensionId executionId cursor }
      ...ClientErrorFields
    }
  }
`);

export const RetryTurnDocument = graphql(`
  mutation RetryTurn($executionId: ID!) {
    retryExecution(executionId: $executionId) {
      __typename
      ... on MessageQueued { queueId threadId cursor }
      ...ClientErrorFields
    }
  }
`);

// The message tree: editing a sent message, asking for another reply, moving to another branch.

export const EditSentMessageDocument = graphql(`
  mutation EditSentMessage($messageId: ID!, $text: String!, $idempotencyKey: String, $threadId: ID) {
    editMessage(messageId: $messageId, text: $text, idempotencyKey: $idempotencyKey, threadId: $threadId) {
      __typename
      ... on MessageQueued { queueId threadId cursor }
      ...ClientErrorFields
    }
  }
`);

export const RegenerateReplyDocument = graphql(`
  mutation RegenerateReply($messageId: ID!, $threadId: ID) {
    regenerateMessage(messageId: $messageId, threadId: $threadId) {
      __typename
      ... on MessageQueued { queueId threadId cursor }
      ...ClientErrorFields
    }
  }
`);

export const SwitchThreadBranchDocument = graphql(`
  mutation SwitchThreadBranch($messageId: ID!, $threadId: ID) {
    switchBranch(messageId: $messageId, threadId: $threadId) {
      __typename
      ... on Conversation { threadId eventCursor }
      ...ClientErrorFields
    }
  }
`);

export const RenameThreadTitleDocument = graphql(`
  mutation RenameThreadTitle($threadId: ID!, $title: String!) {
    renameThread(threadId: $threadId, title: $title) {
      __typename
      ... on Thread { id title lastActivityAt }
      ...ClientErrorFields
    }
  }
`);

export const DeleteThreadForGoodDocument = graphql(`
  mutation DeleteThreadForGood($threadId: ID!) {
    deleteThread(threadId: $threadId) {
      __typename
      ... on ThreadDeleted { threadId }
      ...ClientErrorFields
    }
  }
`);

// The plain reads and writes an app needs around its threads: who is signed in and their projects'
// agents, an agent's latest threads (read per agent, so the viewer's read stays cheap), a new thread.

export const AppViewerDocument = graphql(`
  query AppViewer {
    viewer {
      id email locale
      projects { id name viewerRole agents { id name model } }
    }
  }
`);

export const AgentThreadsDocument = graphql(`
  query AgentThreads($agentId: ID!) {
    agent(id: $agentId) {
      id
      threads(first: 30) { edges { node { id title createdAt lastActivityAt } } }
    }
  }
`);

export const ThreadSummaryDocument = graphql(`
  query ThreadSummary($threadId: ID!) { thread(id: $threadId) { id title createdAt agent { id } } }
`);

export const StartThreadDocument = graphql(`
  mutation StartThread($agentId: ID!, $title: String) {
    createThread(agentId: $agentId, title: $title) {
      __typename
      ... on Thread { id title createdAt }
      ...ClientErrorFields
    }
  }
`);
