import { readFileSync } from 'node:fs';
import { graphql } from '../gql/gql.ts';

// The operations the tests drive, as a client author would write them. Each selection is written
// once, as a fragment; codegen.ts turns fragment masking off, so the results carry the fields.

// ---------------------------------------------------------------------------------------------
// Fragments

export const ErrorFieldsFragment = graphql(`
  fragment ErrorFields on Error {
    message code
    ... on InvalidInputError { field }
    ... on ForbiddenError { scope }
    ... on RateLimitedError { retryAfterS }
    ... on ServiceUnavailableError { retryAfterS service }
  }
`);

// The failure taxonomy stands on three types (ExecutionError, ErrorPart, ErrorEvent) that share no
// interface; its fields are written in the same three lines on each.
export const ExecutionErrorFieldsFragment = graphql(`
  fragment ExecutionErrorFields on ExecutionError {
    reason retryable retryAfterS occurredAt
    message messageKey params
    provider httpStatus providerCode requestId detail
  }
`);

export const ProjectFieldsFragment = graphql(`
  fragment ProjectFields on Project { id name viewerRole }
`);

export const AgentFieldsFragment = graphql(`
  fragment AgentFields on Agent {
    id name model systemPrompt tools
    limits { maxConcurrentExecutions dailyTokenBudget }
  }
`);

export const ThreadFieldsFragment = graphql(`
  fragment ThreadFields on Thread { id title kind }
`);

export const QueueItemFieldsFragment = graphql(`
  fragment QueueItemFields on QueueItem { id text position steeringExecutionId }
`);

export const QueueFieldsFragment = graphql(`
  fragment QueueFields on Queue {
    threadId steerableExecutionId
    items { ...QueueItemFields }
  }
`);

/** A part of a message, in the conversation and in a MessageSnapshot. */
export const MessagePartFieldsFragment = graphql(`
  fragment MessagePartFields on MessagePart {
    __typename
    ... on TextPart { text }
    ... on ReasoningPart { text }
    ... on SteeredInputPart { queueId text }
    ... on AttachmentPart { attachmentId filename mediaType size downloadPath }
    ... on ToolCallPart { toolCallId toolName state output }
    ... on DelegationPart {
      toolCallId childExecutionId text reasoning truncated
      error { ...ExecutionErrorFields }
    }
    ... on ErrorPart {
      reason retryable retryAfterS occurredAt
      message messageKey params
      provider httpStatus providerCode requestId detail
    }
  }
`);

// ---------------------------------------------------------------------------------------------
// Queries

export const ViewerDocument = graphql(`
  query Viewer {
    viewer {
      id email locale
      projects {
        ...ProjectFields
        agents { ...AgentFields }
      }
    }
  }
`);

export const NodeDocument = graphql(`query Node($id: ID!) { node(id: $id) { id __typename } }`);

export const ProjectDocument = graphql(`query Project($id: ID!) { project(id: $id) { ...ProjectFields } }`);

export const AgentDocument = graphql(`query Agent($id: ID!) { agent(id: $id) { ...AgentFields } }`);

export const ThreadDocument = graphql(`query Thread($id: ID!) { thread(id: $id) { ...ThreadFields } }`);

export const ConversationDocument = graphql(`
  query Conversation($threadId: ID!) {
    conversation(threadId: $threadId) {
      threadId eventCursor activeExecutionId
      openSuspensions { id kind status executionId toolCallId toolName payload }
      messages(first: 100) {
        edges {
          node {
            id role executionId outcome
            parts { ...MessagePartFields }
          }
        }
      }
    }
  }
`);

export const QueueDocument = graphql(`query Queue($threadId: ID!) { queue(threadId: $threadId) { ...QueueFields } }`);

export const ExecutionDocument = graphql(`
  query Execution($id: ID!) {
    node(id: $id) {
      __typename
      ... on Execution {
        id status acceptedText acceptsSteering parentExecutionId ownerInstanceId inputTokens outputTokens
        error { ...ExecutionErrorFields }
      }
    }
  }
`);

// ---------------------------------------------------------------------------------------------
// Mutations: each answers its payload or a typed error (with the field an InvalidInputError names
// and the scope a ForbiddenError needs).

export const CreateProjectDocument = graphql(`
  mutation CreateProject($name: String!) {
    createProject(name: $name) { __typename ...ProjectFields ...ErrorFields }
  }
`);

export const AddProjectMemberDocument = graphql(`
  mutation AddProjectMember($projectId: ID!, $user: String!, $role: ProjectRole!) {
    addProjectMember(projectId: $projectId, user: $user, role: $role) { __typename ...ProjectFields ...ErrorFields }
  }
`);

export const RemoveProjectMemberDocument = graphql(`
  mutation RemoveProjectMember($projectId: ID!, $user: String!) {
    removeProjectMember(projectId: $projectId, user: $user) { __typename ...ProjectFields ...ErrorFields }
  }
`);

export const ViewerApiTokensDocument = graphql(`
  query ViewerApiTokens { viewer { id apiTokens { id label createdAt lastUsedAt expiresAt } } }
`);

export const RevokeApiTokenDocument = graphql(`
  mutation RevokeApiToken($id: ID!) {
    revokeApiToken(id: $id) { __typename ... on ApiToken { id label } ...ErrorFields }
  }
`);

export const CreateAgentDocument = graphql(`
  mutation CreateAgent(
    $projectId: ID!, $name: String!, $model: String!
    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput
  ) {
    createAgent(
      projectId: $projectId, name: $name, model: $model
      systemPrompt: $systemPrompt, tools: $tools, limits: $limits
    ) { __typename ...AgentFields ...ErrorFields }
  }
`);

export const UpdateAgentDocument = graphql(`
  mutation UpdateAgent(
    $agentId: ID!, $name: String, $model: String
    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput
  ) {
    updateAgent(
      agentId: $agentId, name: $name, model: $model
      systemPrompt: $systemPrompt, tools: $tools, limits: $limits
    ) { __typename ...AgentFields ...ErrorFields }
  }
`);

export const CreateThreadDocument = graphql(`
  mutation CreateThread($agentId: ID!, $title: String) {
    createThread(agentId: $agentId, title: $title) { __typename ...ThreadFields ...ErrorFields }
  }
`);

export const SendMessageDocument = graphql(`
  mutation SendMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {
    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {
      __typename
      ... on MessageQueued { queueId threadId cursor }
      ... on SuspensionResolved { suspensionId executionId cursor }
      ...ErrorFields
    }
  }
`);

export const RetryExecutionDocument = graphql(`
  mutation RetryExecution($executionId: ID!) {
    retryExecution(executionId: $executionId) {
      __typename
      ... on MessageQueued { queueId text cursor }
      ...ErrorFields
    }
  }
`);

export const CancelExecutionDocument = graphql(`
  mutation CancelExecution($executionId: ID!) {
    cancelExecution(executionId: $executionId) {
      __typename
      ... on CancelRequested { executionId cancelRequested }
      ...ErrorFields
    }
  }
`);

export const EditQueuedMessageDocument = graphql(`
  mutation EditQueuedMessage($queueId: ID!, $text: String!) {
    editQueuedMessage(queueId: $queueId, text: $text) { __typename ...QueueItemFields ...ErrorFields }
  }
`);

export const SteerQueuedMessageDocument = graphql(`
  mutation SteerQueuedMessage($queueId: ID!, $executionId: ID!) {
    steerQueuedMessage(queueId: $queueId, executionId: $executionId) { __typename ...QueueItemFields ...ErrorFields }
  }
`);

export const RemoveQueuedMessageDocument = graphql(`
  mutation RemoveQueuedMessage($queueId: ID!) {
    removeQueuedMessage(queueId: $queueId) {
      __typename
      ... on QueueItemRemoved { queueId }
      ...ErrorFields
    }
  }
`);

export const ReorderQueuedMessageDocument = graphql(`
  mutation ReorderQueuedMessage($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {
    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {
      __typename
      ...QueueFields
      ... on QueueChangedError { currentQueueIds }
      ...ErrorFields
    }
  }
`);

export const ResolveSuspensionDocument = graphql(`
  mutation ResolveSuspension($id: ID!, $decision: SuspensionDecision, $answer: String) {
    resolveSuspension(id: $id, decision: $decision, answer: $answer) {
      __typename
      ... on SuspensionResolved { suspensionId executionId cursor }
      ...ErrorFields
    }
  }
`);

// ---------------------------------------------------------------------------------------------
// The subscription: every kind of event with what the suites read of it. The fields every event
// has are selected once on the interfaces.

export const RunEventsDocument = graphql(`
  subscription RunEvents($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename
      cursor
      threadId
      createdAt
      ... on ExecutionEvent { executionId parentExecutionId }
      ... on MessageQueued { queueId text }
      ... on ExecutionStarted { queueId acceptedText userMessageId }
      ... on TextDelta { messageId text offset }
      ... on ReasoningDelta { text }
      ... on MessageSnapshot {
        messageId textLength
        parts { ...MessagePartFields }
      }
      ... on MessageSteered { queueIds texts }
      ... on ToolCallEvent { messageId toolCallId toolName state }
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
    }
  }
`);

/** The mutations of the committed schema.graphql, sorted: the suites that call each one check against it. */
export function schemaMutations(): string[] {
  const sdl = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  const block = /type Mutation \{([\s\S]*?)\n\}/.exec(sdl)![1]!;
  return [...block.matchAll(/^ {2}(\w+)\(/gm)].map((match) => match[1]!).sort();
}
