/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment ErrorFields on Error {\n    message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS service }\n  }\n": typeof types.ErrorFieldsFragmentDoc,
    "\n  fragment ExecutionErrorFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n": typeof types.ExecutionErrorFieldsFragmentDoc,
    "\n  fragment ProjectFields on Project { id name viewerRole }\n": typeof types.ProjectFieldsFragmentDoc,
    "\n  fragment AgentFields on Agent {\n    id name model systemPrompt tools\n    limits { maxConcurrentExecutions dailyTokenBudget }\n  }\n": typeof types.AgentFieldsFragmentDoc,
    "\n  fragment ThreadFields on Thread { id title kind }\n": typeof types.ThreadFieldsFragmentDoc,
    "\n  fragment QueueItemFields on QueueItem { id text position steeringExecutionId }\n": typeof types.QueueItemFieldsFragmentDoc,
    "\n  fragment QueueFields on Queue {\n    threadId steerableExecutionId\n    items { ...QueueItemFields }\n  }\n": typeof types.QueueFieldsFragmentDoc,
    "\n  fragment MessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size downloadPath }\n    ... on ToolCallPart { toolCallId toolName state output }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ExecutionErrorFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n": typeof types.MessagePartFieldsFragmentDoc,
    "\n  query Viewer {\n    viewer {\n      id email locale\n      projects {\n        ...ProjectFields\n        agents { ...AgentFields }\n      }\n    }\n  }\n": typeof types.ViewerDocument,
    "query Node($id: ID!) { node(id: $id) { id __typename } }": typeof types.NodeDocument,
    "query Project($id: ID!) { project(id: $id) { ...ProjectFields } }": typeof types.ProjectDocument,
    "query Agent($id: ID!) { agent(id: $id) { ...AgentFields } }": typeof types.AgentDocument,
    "query Thread($id: ID!) { thread(id: $id) { ...ThreadFields } }": typeof types.ThreadDocument,
    "\n  query Conversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(first: 100) {\n        edges {\n          node {\n            id role executionId outcome\n            parts { ...MessagePartFields }\n          }\n        }\n      }\n    }\n  }\n": typeof types.ConversationDocument,
    "query Queue($threadId: ID!) { queue(threadId: $threadId) { ...QueueFields } }": typeof types.QueueDocument,
    "\n  query Execution($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Execution {\n        id status acceptedText acceptsSteering parentExecutionId ownerInstanceId inputTokens outputTokens\n        error { ...ExecutionErrorFields }\n      }\n    }\n  }\n": typeof types.ExecutionDocument,
    "\n  mutation CreateProject($name: String!) {\n    createProject(name: $name) { __typename ...ProjectFields ...ErrorFields }\n  }\n": typeof types.CreateProjectDocument,
    "\n  mutation AddProjectMember($projectId: ID!, $user: String!, $role: ProjectRole!) {\n    addProjectMember(projectId: $projectId, user: $user, role: $role) { __typename ...ProjectFields ...ErrorFields }\n  }\n": typeof types.AddProjectMemberDocument,
    "\n  mutation RemoveProjectMember($projectId: ID!, $user: String!) {\n    removeProjectMember(projectId: $projectId, user: $user) { __typename ...ProjectFields ...ErrorFields }\n  }\n": typeof types.RemoveProjectMemberDocument,
    "\n  query ViewerApiTokens { viewer { id apiTokens { id label createdAt lastUsedAt expiresAt } } }\n": typeof types.ViewerApiTokensDocument,
    "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { __typename ... on ApiToken { id label } ...ErrorFields }\n  }\n": typeof types.RevokeApiTokenDocument,
    "\n  mutation CreateAgent(\n    $projectId: ID!, $name: String!, $model: String!\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    createAgent(\n      projectId: $projectId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n": typeof types.CreateAgentDocument,
    "\n  mutation UpdateAgent(\n    $agentId: ID!, $name: String, $model: String\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    updateAgent(\n      agentId: $agentId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n": typeof types.UpdateAgentDocument,
    "\n  mutation CreateThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) { __typename ...ThreadFields ...ErrorFields }\n  }\n": typeof types.CreateThreadDocument,
    "\n  mutation SendMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n": typeof types.SendMessageDocument,
    "\n  mutation RetryExecution($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId text cursor }\n      ...ErrorFields\n    }\n  }\n": typeof types.RetryExecutionDocument,
    "\n  mutation CancelExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ErrorFields\n    }\n  }\n": typeof types.CancelExecutionDocument,
    "\n  mutation EditQueuedMessage($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) { __typename ...QueueItemFields ...ErrorFields }\n  }\n": typeof types.EditQueuedMessageDocument,
    "\n  mutation SteerQueuedMessage($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) { __typename ...QueueItemFields ...ErrorFields }\n  }\n": typeof types.SteerQueuedMessageDocument,
    "\n  mutation RemoveQueuedMessage($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ErrorFields\n    }\n  }\n": typeof types.RemoveQueuedMessageDocument,
    "\n  mutation ReorderQueuedMessage($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...QueueFields\n      ... on QueueChangedError { currentQueueIds }\n      ...ErrorFields\n    }\n  }\n": typeof types.ReorderQueuedMessageDocument,
    "\n  mutation ResolveSuspension($id: ID!, $decision: SuspensionDecision, $answer: String) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n": typeof types.ResolveSuspensionDocument,
    "\n  subscription RunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename\n      cursor\n      threadId\n      createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text }\n      ... on MessageSnapshot {\n        messageId textLength\n        parts { ...MessagePartFields }\n      }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n    }\n  }\n": typeof types.RunEventsDocument,
};
const documents: Documents = {
    "\n  fragment ErrorFields on Error {\n    message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS service }\n  }\n": types.ErrorFieldsFragmentDoc,
    "\n  fragment ExecutionErrorFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n": types.ExecutionErrorFieldsFragmentDoc,
    "\n  fragment ProjectFields on Project { id name viewerRole }\n": types.ProjectFieldsFragmentDoc,
    "\n  fragment AgentFields on Agent {\n    id name model systemPrompt tools\n    limits { maxConcurrentExecutions dailyTokenBudget }\n  }\n": types.AgentFieldsFragmentDoc,
    "\n  fragment ThreadFields on Thread { id title kind }\n": types.ThreadFieldsFragmentDoc,
    "\n  fragment QueueItemFields on QueueItem { id text position steeringExecutionId }\n": types.QueueItemFieldsFragmentDoc,
    "\n  fragment QueueFields on Queue {\n    threadId steerableExecutionId\n    items { ...QueueItemFields }\n  }\n": types.QueueFieldsFragmentDoc,
    "\n  fragment MessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size downloadPath }\n    ... on ToolCallPart { toolCallId toolName state output }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ExecutionErrorFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n": types.MessagePartFieldsFragmentDoc,
    "\n  query Viewer {\n    viewer {\n      id email locale\n      projects {\n        ...ProjectFields\n        agents { ...AgentFields }\n      }\n    }\n  }\n": types.ViewerDocument,
    "query Node($id: ID!) { node(id: $id) { id __typename } }": types.NodeDocument,
    "query Project($id: ID!) { project(id: $id) { ...ProjectFields } }": types.ProjectDocument,
    "query Agent($id: ID!) { agent(id: $id) { ...AgentFields } }": types.AgentDocument,
    "query Thread($id: ID!) { thread(id: $id) { ...ThreadFields } }": types.ThreadDocument,
    "\n  query Conversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(first: 100) {\n        edges {\n          node {\n            id role executionId outcome\n            parts { ...MessagePartFields }\n          }\n        }\n      }\n    }\n  }\n": types.ConversationDocument,
    "query Queue($threadId: ID!) { queue(threadId: $threadId) { ...QueueFields } }": types.QueueDocument,
    "\n  query Execution($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Execution {\n        id status acceptedText acceptsSteering parentExecutionId ownerInstanceId inputTokens outputTokens\n        error { ...ExecutionErrorFields }\n      }\n    }\n  }\n": types.ExecutionDocument,
    "\n  mutation CreateProject($name: String!) {\n    createProject(name: $name) { __typename ...ProjectFields ...ErrorFields }\n  }\n": types.CreateProjectDocument,
    "\n  mutation AddProjectMember($projectId: ID!, $user: String!, $role: ProjectRole!) {\n    addProjectMember(projectId: $projectId, user: $user, role: $role) { __typename ...ProjectFields ...ErrorFields }\n  }\n": types.AddProjectMemberDocument,
    "\n  mutation RemoveProjectMember($projectId: ID!, $user: String!) {\n    removeProjectMember(projectId: $projectId, user: $user) { __typename ...ProjectFields ...ErrorFields }\n  }\n": types.RemoveProjectMemberDocument,
    "\n  query ViewerApiTokens { viewer { id apiTokens { id label createdAt lastUsedAt expiresAt } } }\n": types.ViewerApiTokensDocument,
    "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { __typename ... on ApiToken { id label } ...ErrorFields }\n  }\n": types.RevokeApiTokenDocument,
    "\n  mutation CreateAgent(\n    $projectId: ID!, $name: String!, $model: String!\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    createAgent(\n      projectId: $projectId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n": types.CreateAgentDocument,
    "\n  mutation UpdateAgent(\n    $agentId: ID!, $name: String, $model: String\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    updateAgent(\n      agentId: $agentId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n": types.UpdateAgentDocument,
    "\n  mutation CreateThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) { __typename ...ThreadFields ...ErrorFields }\n  }\n": types.CreateThreadDocument,
    "\n  mutation SendMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n": types.SendMessageDocument,
    "\n  mutation RetryExecution($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId text cursor }\n      ...ErrorFields\n    }\n  }\n": types.RetryExecutionDocument,
    "\n  mutation CancelExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ErrorFields\n    }\n  }\n": types.CancelExecutionDocument,
    "\n  mutation EditQueuedMessage($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) { __typename ...QueueItemFields ...ErrorFields }\n  }\n": types.EditQueuedMessageDocument,
    "\n  mutation SteerQueuedMessage($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) { __typename ...QueueItemFields ...ErrorFields }\n  }\n": types.SteerQueuedMessageDocument,
    "\n  mutation RemoveQueuedMessage($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ErrorFields\n    }\n  }\n": types.RemoveQueuedMessageDocument,
    "\n  mutation ReorderQueuedMessage($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...QueueFields\n      ... on QueueChangedError { currentQueueIds }\n      ...ErrorFields\n    }\n  }\n": types.ReorderQueuedMessageDocument,
    "\n  mutation ResolveSuspension($id: ID!, $decision: SuspensionDecision, $answer: String) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n": types.ResolveSuspensionDocument,
    "\n  subscription RunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename\n      cursor\n      threadId\n      createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text }\n      ... on MessageSnapshot {\n        messageId textLength\n        parts { ...MessagePartFields }\n      }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n    }\n  }\n": types.RunEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ErrorFields on Error {\n    message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS service }\n  }\n"): (typeof documents)["\n  fragment ErrorFields on Error {\n    message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS service }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ExecutionErrorFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n"): (typeof documents)["\n  fragment ExecutionErrorFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ProjectFields on Project { id name viewerRole }\n"): (typeof documents)["\n  fragment ProjectFields on Project { id name viewerRole }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AgentFields on Agent {\n    id name model systemPrompt tools\n    limits { maxConcurrentExecutions dailyTokenBudget }\n  }\n"): (typeof documents)["\n  fragment AgentFields on Agent {\n    id name model systemPrompt tools\n    limits { maxConcurrentExecutions dailyTokenBudget }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ThreadFields on Thread { id title kind }\n"): (typeof documents)["\n  fragment ThreadFields on Thread { id title kind }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment QueueItemFields on QueueItem { id text position steeringExecutionId }\n"): (typeof documents)["\n  fragment QueueItemFields on QueueItem { id text position steeringExecutionId }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment QueueFields on Queue {\n    threadId steerableExecutionId\n    items { ...QueueItemFields }\n  }\n"): (typeof documents)["\n  fragment QueueFields on Queue {\n    threadId steerableExecutionId\n    items { ...QueueItemFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size downloadPath }\n    ... on ToolCallPart { toolCallId toolName state output }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ExecutionErrorFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n"): (typeof documents)["\n  fragment MessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size downloadPath }\n    ... on ToolCallPart { toolCallId toolName state output }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ExecutionErrorFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer {\n      id email locale\n      projects {\n        ...ProjectFields\n        agents { ...AgentFields }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer {\n      id email locale\n      projects {\n        ...ProjectFields\n        agents { ...AgentFields }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Node($id: ID!) { node(id: $id) { id __typename } }"): (typeof documents)["query Node($id: ID!) { node(id: $id) { id __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Project($id: ID!) { project(id: $id) { ...ProjectFields } }"): (typeof documents)["query Project($id: ID!) { project(id: $id) { ...ProjectFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Agent($id: ID!) { agent(id: $id) { ...AgentFields } }"): (typeof documents)["query Agent($id: ID!) { agent(id: $id) { ...AgentFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Thread($id: ID!) { thread(id: $id) { ...ThreadFields } }"): (typeof documents)["query Thread($id: ID!) { thread(id: $id) { ...ThreadFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Conversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(first: 100) {\n        edges {\n          node {\n            id role executionId outcome\n            parts { ...MessagePartFields }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Conversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(first: 100) {\n        edges {\n          node {\n            id role executionId outcome\n            parts { ...MessagePartFields }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Queue($threadId: ID!) { queue(threadId: $threadId) { ...QueueFields } }"): (typeof documents)["query Queue($threadId: ID!) { queue(threadId: $threadId) { ...QueueFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Execution($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Execution {\n        id status acceptedText acceptsSteering parentExecutionId ownerInstanceId inputTokens outputTokens\n        error { ...ExecutionErrorFields }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Execution($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Execution {\n        id status acceptedText acceptsSteering parentExecutionId ownerInstanceId inputTokens outputTokens\n        error { ...ExecutionErrorFields }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProject($name: String!) {\n    createProject(name: $name) { __typename ...ProjectFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation CreateProject($name: String!) {\n    createProject(name: $name) { __typename ...ProjectFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddProjectMember($projectId: ID!, $user: String!, $role: ProjectRole!) {\n    addProjectMember(projectId: $projectId, user: $user, role: $role) { __typename ...ProjectFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation AddProjectMember($projectId: ID!, $user: String!, $role: ProjectRole!) {\n    addProjectMember(projectId: $projectId, user: $user, role: $role) { __typename ...ProjectFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveProjectMember($projectId: ID!, $user: String!) {\n    removeProjectMember(projectId: $projectId, user: $user) { __typename ...ProjectFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation RemoveProjectMember($projectId: ID!, $user: String!) {\n    removeProjectMember(projectId: $projectId, user: $user) { __typename ...ProjectFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ViewerApiTokens { viewer { id apiTokens { id label createdAt lastUsedAt expiresAt } } }\n"): (typeof documents)["\n  query ViewerApiTokens { viewer { id apiTokens { id label createdAt lastUsedAt expiresAt } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { __typename ... on ApiToken { id label } ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { __typename ... on ApiToken { id label } ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAgent(\n    $projectId: ID!, $name: String!, $model: String!\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    createAgent(\n      projectId: $projectId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation CreateAgent(\n    $projectId: ID!, $name: String!, $model: String!\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    createAgent(\n      projectId: $projectId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateAgent(\n    $agentId: ID!, $name: String, $model: String\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    updateAgent(\n      agentId: $agentId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation UpdateAgent(\n    $agentId: ID!, $name: String, $model: String\n    $systemPrompt: String, $tools: [String!], $limits: AgentLimitsInput\n  ) {\n    updateAgent(\n      agentId: $agentId, name: $name, model: $model\n      systemPrompt: $systemPrompt, tools: $tools, limits: $limits\n    ) { __typename ...AgentFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) { __typename ...ThreadFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation CreateThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) { __typename ...ThreadFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation SendMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryExecution($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId text cursor }\n      ...ErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RetryExecution($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId text cursor }\n      ...ErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation CancelExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditQueuedMessage($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) { __typename ...QueueItemFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation EditQueuedMessage($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) { __typename ...QueueItemFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SteerQueuedMessage($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) { __typename ...QueueItemFields ...ErrorFields }\n  }\n"): (typeof documents)["\n  mutation SteerQueuedMessage($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) { __typename ...QueueItemFields ...ErrorFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveQueuedMessage($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveQueuedMessage($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReorderQueuedMessage($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...QueueFields\n      ... on QueueChangedError { currentQueueIds }\n      ...ErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation ReorderQueuedMessage($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...QueueFields\n      ... on QueueChangedError { currentQueueIds }\n      ...ErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveSuspension($id: ID!, $decision: SuspensionDecision, $answer: String) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation ResolveSuspension($id: ID!, $decision: SuspensionDecision, $answer: String) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename\n      cursor\n      threadId\n      createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text }\n      ... on MessageSnapshot {\n        messageId textLength\n        parts { ...MessagePartFields }\n      }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n    }\n  }\n"): (typeof documents)["\n  subscription RunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename\n      cursor\n      threadId\n      createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text }\n      ... on MessageSnapshot {\n        messageId textLength\n        parts { ...MessagePartFields }\n      }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;