import { graphql } from '../gql/gql.ts';

// The operations the tests drive, as a client author would write them.

export const ViewerDocument = graphql(`
  query Viewer {
    viewer {
      id
      email
      locale
      projects {
        id
        name
        agents {
          id
          name
          model
        }
      }
    }
  }
`);

export const CreateProjectDocument = graphql(`
  mutation CreateProject($name: String!) {
    createProject(name: $name) {
      __typename
      ... on Project {
        id
        name
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const CreateAgentDocument = graphql(`
  mutation CreateAgent(
    $projectId: ID!
    $name: String!
    $model: String!
    $systemPrompt: String
    $tools: [String!]
    $limits: AgentLimitsInput
  ) {
    createAgent(
      projectId: $projectId
      name: $name
      model: $model
      systemPrompt: $systemPrompt
      tools: $tools
      limits: $limits
    ) {
      __typename
      ... on Agent {
        id
        name
        model
        tools
        limits {
          maxConcurrentExecutions
          dailyTokenBudget
        }
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const UpdateAgentDocument = graphql(`
  mutation UpdateAgent($agentId: ID!, $name: String, $model: String, $limits: AgentLimitsInput) {
    updateAgent(agentId: $agentId, name: $name, model: $model, limits: $limits) {
      __typename
      ... on Agent {
        id
        name
        model
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const AddProjectMemberDocument = graphql(`
  mutation AddProjectMember($projectId: ID!, $user: String!, $role: ProjectRole!) {
    addProjectMember(projectId: $projectId, user: $user, role: $role) {
      __typename
      ... on Project {
        id
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const CreateThreadDocument = graphql(`
  mutation CreateThread($agentId: ID!, $title: String) {
    createThread(agentId: $agentId, title: $title) {
      __typename
      ... on Thread {
        id
        title
        kind
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const SendMessageDocument = graphql(`
  mutation SendMessage($threadId: ID!, $text: String!, $idempotencyKey: String) {
    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey) {
      __typename
      ... on MessageQueued {
        queueId
        threadId
        cursor
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const ThreadDocument = graphql(`
  query Thread($id: ID!) {
    thread(id: $id) {
      id
      title
      kind
    }
  }
`);

export const NodeDocument = graphql(`
  query Node($id: ID!) {
    node(id: $id) {
      id
      __typename
    }
  }
`);

export const ConversationDocument = graphql(`
  query Conversation($threadId: ID!) {
    conversation(threadId: $threadId) {
      threadId
      eventCursor
      activeExecutionId
      openSuspensions {
        id
        kind
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
              ... on ReasoningPart {
                text
              }
              ... on ToolCallPart {
                toolCallId
                toolName
                state
              }
              ... on DelegationPart {
                toolCallId
                childExecutionId
                text
                reasoning
                truncated
                error {
                  reason
                  retryable
                  message
                  messageKey
                }
              }
              ... on ErrorPart {
                reason
                retryable
                retryAfterS
                message
                messageKey
                params
                provider
                httpStatus
                providerCode
                requestId
              }
            }
          }
        }
      }
    }
  }
`);

export const QueueDocument = graphql(`
  query Queue($threadId: ID!) {
    queue(threadId: $threadId) {
      threadId
      steerableExecutionId
      items {
        id
        text
        position
        steeringExecutionId
      }
    }
  }
`);

export const ExecutionDocument = graphql(`
  query Execution($id: ID!) {
    node(id: $id) {
      __typename
      ... on Execution {
        id
        status
        inputTokens
        outputTokens
        error {
          reason
          retryable
          retryAfterS
          message
          messageKey
        }
      }
    }
  }
`);

export const RunEventsDocument = graphql(`
  subscription RunEvents($threadId: ID!, $after: String) {
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
        threadId
        acceptedText
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
      ... on ToolCallEvent {
        cursor
        executionId
        toolName
        state
      }
      ... on RetryScheduled {
        cursor
        executionId
        attempt
        delayS
        reason
      }
      ... on ErrorEvent {
        cursor
        executionId
        reason
        retryable
        retryAfterS
        message
        messageKey
        params
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

// Mutations with the details of their typed errors (the field an InvalidInputError names, the scope a
// ForbiddenError needs), for the permission and bad-input suites.

export const CreateProjectDetailedDocument = graphql(`
  mutation CreateProjectDetailed($name: String!) {
    createProject(name: $name) {
      __typename
      ... on Project {
        id
        name
        viewerRole
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const AddProjectMemberDetailedDocument = graphql(`
  mutation AddProjectMemberDetailed($projectId: ID!, $user: String!, $role: ProjectRole!) {
    addProjectMember(projectId: $projectId, user: $user, role: $role) {
      __typename
      ... on Project {
        id
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const CreateAgentDetailedDocument = graphql(`
  mutation CreateAgentDetailed(
    $projectId: ID!
    $name: String!
    $model: String!
    $systemPrompt: String
    $tools: [String!]
    $limits: AgentLimitsInput
  ) {
    createAgent(
      projectId: $projectId
      name: $name
      model: $model
      systemPrompt: $systemPrompt
      tools: $tools
      limits: $limits
    ) {
      __typename
      ... on Agent {
        id
        name
        model
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const UpdateAgentDetailedDocument = graphql(`
  mutation UpdateAgentDetailed(
    $agentId: ID!
    $name: String
    $model: String
    $systemPrompt: String
    $tools: [String!]
    $limits: AgentLimitsInput
  ) {
    updateAgent(
      agentId: $agentId
      name: $name
      model: $model
      systemPrompt: $systemPrompt
      tools: $tools
      limits: $limits
    ) {
      __typename
      ... on Agent {
        id
        name
        model
        systemPrompt
        tools
        limits {
          maxConcurrentExecutions
          dailyTokenBudget
        }
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const CreateThreadDetailedDocument = graphql(`
  mutation CreateThreadDetailed($agentId: ID!, $title: String) {
    createThread(agentId: $agentId, title: $title) {
      __typename
      ... on Thread {
        id
        title
        kind
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const SendMessageDetailedDocument = graphql(`
  mutation SendMessageDetailed($threadId: ID!, $text: String!, $idempotencyKey: String) {
    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey) {
      __typename
      ... on MessageQueued {
        queueId
        threadId
        cursor
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const ProjectDocument = graphql(`
  query Project($id: ID!) {
    project(id: $id) {
      id
      name
      viewerRole
    }
  }
`);

export const AgentDocument = graphql(`
  query Agent($id: ID!) {
    agent(id: $id) {
      id
      name
      model
      systemPrompt
      tools
      limits {
        maxConcurrentExecutions
        dailyTokenBudget
      }
    }
  }
`);

// The failure taxonomy in full (provider details included), live, stored and on the execution, for the
// provider and failure-recording suites.

export const RunEventsFailureDetailsDocument = graphql(`
  subscription RunEventsFailureDetails($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename
      ... on ExecutionStarted {
        cursor
        executionId
      }
      ... on TextDelta {
        cursor
        executionId
        messageId
        text
        offset
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
        }
      }
      ... on RetryScheduled {
        cursor
        executionId
        attempt
        delayS
        reason
      }
      ... on ErrorEvent {
        cursor
        executionId
        reason
        retryable
        retryAfterS
        message
        messageKey
        params
        provider
        httpStatus
        providerCode
        requestId
        detail
      }
      ... on ExecutionFinished {
        cursor
        executionId
        status
      }
    }
  }
`);

export const ConversationFailureDetailsDocument = graphql(`
  query ConversationFailureDetails($threadId: ID!) {
    conversation(threadId: $threadId) {
      threadId
      activeExecutionId
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
              ... on ErrorPart {
                reason
                retryable
                retryAfterS
                message
                messageKey
                params
                provider
                httpStatus
                providerCode
                requestId
                detail
              }
            }
          }
        }
      }
    }
  }
`);

export const ExecutionFailureDetailsDocument = graphql(`
  query ExecutionFailureDetails($id: ID!) {
    node(id: $id) {
      __typename
      ... on Execution {
        id
        status
        inputTokens
        outputTokens
        error {
          reason
          retryable
          retryAfterS
          message
          messageKey
          params
          provider
          httpStatus
          providerCode
          requestId
          detail
        }
      }
    }
  }
`);

export const RetryExecutionDocument = graphql(`
  mutation RetryExecution($executionId: ID!) {
    retryExecution(executionId: $executionId) {
      __typename
      ... on MessageQueued {
        queueId
        text
        cursor
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const RetryExecutionDetailedDocument = graphql(`
  mutation RetryExecutionDetailed($executionId: ID!) {
    retryExecution(executionId: $executionId) {
      __typename
      ... on MessageQueued {
        queueId
        text
        cursor
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const CancelExecutionDetailedDocument = graphql(`
  mutation CancelExecutionDetailed($executionId: ID!) {
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
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const EditQueuedMessageDetailedDocument = graphql(`
  mutation EditQueuedMessageDetailed($queueId: ID!, $text: String!) {
    editQueuedMessage(queueId: $queueId, text: $text) {
      __typename
      ... on QueueItem {
        id
        text
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const RemoveQueuedMessageDetailedDocument = graphql(`
  mutation RemoveQueuedMessageDetailed($queueId: ID!) {
    removeQueuedMessage(queueId: $queueId) {
      __typename
      ... on QueueItemRemoved {
        queueId
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const ReorderQueuedMessageDetailedDocument = graphql(`
  mutation ReorderQueuedMessageDetailed($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {
    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {
      __typename
      ... on Queue {
        threadId
      }
      ... on QueueChangedError {
        currentQueueIds
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const ResolveSuspensionDetailedDocument = graphql(`
  mutation ResolveSuspensionDetailed($id: ID!, $decision: SuspensionDecision, $answer: String) {
    resolveSuspension(id: $id, decision: $decision, answer: $answer) {
      __typename
      ... on SuspensionResolved {
        suspensionId
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

export const SteerQueuedMessageDetailedDocument = graphql(`
  mutation SteerQueuedMessageDetailed($queueId: ID!, $executionId: ID!) {
    steerQueuedMessage(queueId: $queueId, executionId: $executionId) {
      __typename
      ... on QueueItem {
        id
        steeringExecutionId
      }
      ... on Error {
        message
        code
      }
      ... on InvalidInputError {
        field
      }
      ... on ForbiddenError {
        scope
      }
    }
  }
`);

// Queue operations, steering and Stop, with what their suites check: the run events a queue panel and
// a transcript follow (MessageSteered included), positions, and the steered-input markers of a reply.

export const QueueOpsEventsDocument = graphql(`
  subscription QueueOpsEvents($threadId: ID!, $after: String) {
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
      }
      ... on TextDelta {
        cursor
        executionId
        messageId
        text
        offset
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
      ... on SuspensionOpened {
        cursor
        executionId
        suspensionId
        kind
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

export const QueueOpsConversationDocument = graphql(`
  query QueueOpsConversation($threadId: ID!) {
    conversation(threadId: $threadId) {
      activeExecutionId
      eventCursor
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
              ... on SteeredInputPart {
                queueId
                text
              }
            }
          }
        }
      }
    }
  }
`);

export const QueueOpsEditDocument = graphql(`
  mutation QueueOpsEdit($queueId: ID!, $text: String!) {
    editQueuedMessage(queueId: $queueId, text: $text) {
      __typename
      ... on QueueItem {
        id
        text
        position
        steeringExecutionId
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const QueueOpsReorderDocument = graphql(`
  mutation QueueOpsReorder($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {
    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {
      __typename
      ... on Queue {
        threadId
        steerableExecutionId
        items {
          id
          text
          position
          steeringExecutionId
        }
      }
      ... on QueueChangedError {
        currentQueueIds
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

export const QueueOpsExecutionDocument = graphql(`
  query QueueOpsExecution($id: ID!) {
    node(id: $id) {
      __typename
      ... on Execution {
        id
        status
        acceptedText
        acceptsSteering
      }
    }
  }
`);

export const SendMessageWithFilesDocument = graphql(`
  mutation SendMessageWithFiles($threadId: ID!, $text: String!, $attachments: [File!]) {
    sendMessage(threadId: $threadId, text: $text, attachments: $attachments) {
      __typename
      ... on MessageQueued {
        queueId
      }
      ... on Error {
        message
        code
      }
    }
  }
`);

// Multi-instance suites: which instance owns an execution.

export const MultiExecutionDocument = graphql(`
  query MultiExecution($id: ID!) {
    node(id: $id) {
      __typename
      ... on Execution {
        id
        status
        acceptedText
        ownerInstanceId
      }
    }
  }
`);

export const MultiRunEventsDocument = graphql(`
  subscription MultiRunEvents($threadId: ID!, $after: String) {
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
        }
      }
      ... on ToolCallEvent {
        cursor
        executionId
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
        executionId
      }
      ... on ExecutionUpdated {
        cursor
        executionId
        status
      }
      ... on MessageSteered {
        cursor
        executionId
      }
      ... on SuspensionOpened {
        cursor
        executionId
      }
      ... on SuspensionResolved {
        cursor
        executionId
      }
    }
  }
`);
