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
    "\n  fragment ClientErrorFields on Error {\n    __typename message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS }\n    ... on QueueChangedError { currentQueueIds }\n  }\n": typeof types.ClientErrorFieldsFragmentDoc,
    "\n  fragment ClientFailureFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n": typeof types.ClientFailureFieldsFragmentDoc,
    "\n  fragment ClientQueueFields on Queue {\n    threadId steerableExecutionId\n    items { id text position steeringExecutionId }\n  }\n": typeof types.ClientQueueFieldsFragmentDoc,
    "\n  fragment ClientMessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size }\n    ... on ToolCallPart { toolCallId toolName state input output toolError: error durationMs progress { progress total message } }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ClientFailureFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n": typeof types.ClientMessagePartFieldsFragmentDoc,
    "\n  query ThreadConversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(last: 200) {\n        edges {\n          node {\n            id role executionId outcome parentId siblingIds\n            parts { ...ClientMessagePartFields }\n          }\n        }\n      }\n    }\n  }\n": typeof types.ThreadConversationDocument,
    "\n  query ThreadQueue($threadId: ID!) { queue(threadId: $threadId) { ...ClientQueueFields } }\n": typeof types.ThreadQueueDocument,
    "\n  subscription ThreadRunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename cursor threadId createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text offset }\n      ... on MessageSnapshot { messageId textLength parts { ...ClientMessagePartFields } }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state input output error durationMs }\n      ... on ToolCallProgress { messageId toolCallId progress { progress total message } }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n      ... on BranchSwitched { leafMessageId }\n    }\n  }\n": typeof types.ThreadRunEventsDocument,
    "\n  mutation SendThreadMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.SendThreadMessageDocument,
    "\n  mutation EditQueued($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.EditQueuedDocument,
    "\n  mutation RemoveQueued($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.RemoveQueuedDocument,
    "\n  mutation ReorderQueued($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...ClientQueueFields\n      ...ClientErrorFields\n    }\n  }\n": typeof types.ReorderQueuedDocument,
    "\n  mutation SteerQueued($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.SteerQueuedDocument,
    "\n  mutation StopExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.StopExecutionDocument,
    "\n  mutation ResolveCard($id: ID!, $decision: SuspensionDecision, $answer: String, $allowInThread: Boolean) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer, allowInThread: $allowInThread) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.ResolveCardDocument,
    "\n  mutation RetryTurn($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.RetryTurnDocument,
    "\n  mutation EditSentMessage($messageId: ID!, $text: String!, $idempotencyKey: String, $threadId: ID) {\n    editMessage(messageId: $messageId, text: $text, idempotencyKey: $idempotencyKey, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.EditSentMessageDocument,
    "\n  mutation RegenerateReply($messageId: ID!, $threadId: ID) {\n    regenerateMessage(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.RegenerateReplyDocument,
    "\n  mutation SwitchThreadBranch($messageId: ID!, $threadId: ID) {\n    switchBranch(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on Conversation { threadId eventCursor }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.SwitchThreadBranchDocument,
    "\n  mutation RenameThreadTitle($threadId: ID!, $title: String!) {\n    renameThread(threadId: $threadId, title: $title) {\n      __typename\n      ... on Thread { id title lastActivityAt }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.RenameThreadTitleDocument,
    "\n  mutation DeleteThreadForGood($threadId: ID!) {\n    deleteThread(threadId: $threadId) {\n      __typename\n      ... on ThreadDeleted { threadId }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.DeleteThreadForGoodDocument,
    "\n  query AppViewer {\n    viewer {\n      id email locale\n      projects { id name viewerRole agents { id name model } }\n    }\n  }\n": typeof types.AppViewerDocument,
    "\n  query AgentThreads($agentId: ID!) {\n    agent(id: $agentId) {\n      id\n      threads(first: 30) { edges { node { id title createdAt lastActivityAt } } }\n    }\n  }\n": typeof types.AgentThreadsDocument,
    "\n  query ThreadSummary($threadId: ID!) { thread(id: $threadId) { id title createdAt agent { id } } }\n": typeof types.ThreadSummaryDocument,
    "\n  mutation StartThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) {\n      __typename\n      ... on Thread { id title createdAt }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.StartThreadDocument,
    "\n  fragment ClientToolServerFields on ToolServer {\n    __typename id name url transport status lastError headerNames timeoutMs operatorDeclared reconnects lastReconnectAt\n    tools { name description }\n  }\n": typeof types.ClientToolServerFieldsFragmentDoc,
    "\n  query ProjectToolServers($projectId: ID!) {\n    project(id: $projectId) { id name viewerRole toolServers { ...ClientToolServerFields } }\n  }\n": typeof types.ProjectToolServersDocument,
    "\n  mutation AddToolServer($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {\n    addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n": typeof types.AddToolServerDocument,
    "\n  mutation RefreshToolServer($toolServerId: ID!) {\n    refreshToolServer(toolServerId: $toolServerId) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n": typeof types.RefreshToolServerDocument,
    "\n  mutation RemoveToolServer($toolServerId: ID!) {\n    removeToolServer(toolServerId: $toolServerId) {\n      __typename\n      ... on ToolServerRemoved { toolServerId }\n      ...ClientErrorFields\n    }\n  }\n": typeof types.RemoveToolServerDocument,
};
const documents: Documents = {
    "\n  fragment ClientErrorFields on Error {\n    __typename message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS }\n    ... on QueueChangedError { currentQueueIds }\n  }\n": types.ClientErrorFieldsFragmentDoc,
    "\n  fragment ClientFailureFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n": types.ClientFailureFieldsFragmentDoc,
    "\n  fragment ClientQueueFields on Queue {\n    threadId steerableExecutionId\n    items { id text position steeringExecutionId }\n  }\n": types.ClientQueueFieldsFragmentDoc,
    "\n  fragment ClientMessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size }\n    ... on ToolCallPart { toolCallId toolName state input output toolError: error durationMs progress { progress total message } }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ClientFailureFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n": types.ClientMessagePartFieldsFragmentDoc,
    "\n  query ThreadConversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(last: 200) {\n        edges {\n          node {\n            id role executionId outcome parentId siblingIds\n            parts { ...ClientMessagePartFields }\n          }\n        }\n      }\n    }\n  }\n": types.ThreadConversationDocument,
    "\n  query ThreadQueue($threadId: ID!) { queue(threadId: $threadId) { ...ClientQueueFields } }\n": types.ThreadQueueDocument,
    "\n  subscription ThreadRunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename cursor threadId createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text offset }\n      ... on MessageSnapshot { messageId textLength parts { ...ClientMessagePartFields } }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state input output error durationMs }\n      ... on ToolCallProgress { messageId toolCallId progress { progress total message } }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n      ... on BranchSwitched { leafMessageId }\n    }\n  }\n": types.ThreadRunEventsDocument,
    "\n  mutation SendThreadMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n": types.SendThreadMessageDocument,
    "\n  mutation EditQueued($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n": types.EditQueuedDocument,
    "\n  mutation RemoveQueued($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ClientErrorFields\n    }\n  }\n": types.RemoveQueuedDocument,
    "\n  mutation ReorderQueued($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...ClientQueueFields\n      ...ClientErrorFields\n    }\n  }\n": types.ReorderQueuedDocument,
    "\n  mutation SteerQueued($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n": types.SteerQueuedDocument,
    "\n  mutation StopExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ClientErrorFields\n    }\n  }\n": types.StopExecutionDocument,
    "\n  mutation ResolveCard($id: ID!, $decision: SuspensionDecision, $answer: String, $allowInThread: Boolean) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer, allowInThread: $allowInThread) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n": types.ResolveCardDocument,
    "\n  mutation RetryTurn($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n": types.RetryTurnDocument,
    "\n  mutation EditSentMessage($messageId: ID!, $text: String!, $idempotencyKey: String, $threadId: ID) {\n    editMessage(messageId: $messageId, text: $text, idempotencyKey: $idempotencyKey, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n": types.EditSentMessageDocument,
    "\n  mutation RegenerateReply($messageId: ID!, $threadId: ID) {\n    regenerateMessage(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n": types.RegenerateReplyDocument,
    "\n  mutation SwitchThreadBranch($messageId: ID!, $threadId: ID) {\n    switchBranch(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on Conversation { threadId eventCursor }\n      ...ClientErrorFields\n    }\n  }\n": types.SwitchThreadBranchDocument,
    "\n  mutation RenameThreadTitle($threadId: ID!, $title: String!) {\n    renameThread(threadId: $threadId, title: $title) {\n      __typename\n      ... on Thread { id title lastActivityAt }\n      ...ClientErrorFields\n    }\n  }\n": types.RenameThreadTitleDocument,
    "\n  mutation DeleteThreadForGood($threadId: ID!) {\n    deleteThread(threadId: $threadId) {\n      __typename\n      ... on ThreadDeleted { threadId }\n      ...ClientErrorFields\n    }\n  }\n": types.DeleteThreadForGoodDocument,
    "\n  query AppViewer {\n    viewer {\n      id email locale\n      projects { id name viewerRole agents { id name model } }\n    }\n  }\n": types.AppViewerDocument,
    "\n  query AgentThreads($agentId: ID!) {\n    agent(id: $agentId) {\n      id\n      threads(first: 30) { edges { node { id title createdAt lastActivityAt } } }\n    }\n  }\n": types.AgentThreadsDocument,
    "\n  query ThreadSummary($threadId: ID!) { thread(id: $threadId) { id title createdAt agent { id } } }\n": types.ThreadSummaryDocument,
    "\n  mutation StartThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) {\n      __typename\n      ... on Thread { id title createdAt }\n      ...ClientErrorFields\n    }\n  }\n": types.StartThreadDocument,
    "\n  fragment ClientToolServerFields on ToolServer {\n    __typename id name url transport status lastError headerNames timeoutMs operatorDeclared reconnects lastReconnectAt\n    tools { name description }\n  }\n": types.ClientToolServerFieldsFragmentDoc,
    "\n  query ProjectToolServers($projectId: ID!) {\n    project(id: $projectId) { id name viewerRole toolServers { ...ClientToolServerFields } }\n  }\n": types.ProjectToolServersDocument,
    "\n  mutation AddToolServer($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {\n    addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n": types.AddToolServerDocument,
    "\n  mutation RefreshToolServer($toolServerId: ID!) {\n    refreshToolServer(toolServerId: $toolServerId) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n": types.RefreshToolServerDocument,
    "\n  mutation RemoveToolServer($toolServerId: ID!) {\n    removeToolServer(toolServerId: $toolServerId) {\n      __typename\n      ... on ToolServerRemoved { toolServerId }\n      ...ClientErrorFields\n    }\n  }\n": types.RemoveToolServerDocument,
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
export function graphql(source: "\n  fragment ClientErrorFields on Error {\n    __typename message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS }\n    ... on QueueChangedError { currentQueueIds }\n  }\n"): (typeof documents)["\n  fragment ClientErrorFields on Error {\n    __typename message code\n    ... on InvalidInputError { field }\n    ... on ForbiddenError { scope }\n    ... on RateLimitedError { retryAfterS }\n    ... on ServiceUnavailableError { retryAfterS }\n    ... on QueueChangedError { currentQueueIds }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClientFailureFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n"): (typeof documents)["\n  fragment ClientFailureFields on ExecutionError {\n    reason retryable retryAfterS occurredAt\n    message messageKey params\n    provider httpStatus providerCode requestId detail\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClientQueueFields on Queue {\n    threadId steerableExecutionId\n    items { id text position steeringExecutionId }\n  }\n"): (typeof documents)["\n  fragment ClientQueueFields on Queue {\n    threadId steerableExecutionId\n    items { id text position steeringExecutionId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClientMessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size }\n    ... on ToolCallPart { toolCallId toolName state input output toolError: error durationMs progress { progress total message } }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ClientFailureFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n"): (typeof documents)["\n  fragment ClientMessagePartFields on MessagePart {\n    __typename\n    ... on TextPart { text }\n    ... on ReasoningPart { text }\n    ... on SteeredInputPart { queueId text }\n    ... on AttachmentPart { attachmentId filename mediaType size }\n    ... on ToolCallPart { toolCallId toolName state input output toolError: error durationMs progress { progress total message } }\n    ... on DelegationPart {\n      toolCallId childExecutionId text reasoning truncated\n      error { ...ClientFailureFields }\n    }\n    ... on ErrorPart {\n      reason retryable retryAfterS occurredAt\n      message messageKey params\n      provider httpStatus providerCode requestId detail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ThreadConversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(last: 200) {\n        edges {\n          node {\n            id role executionId outcome parentId siblingIds\n            parts { ...ClientMessagePartFields }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ThreadConversation($threadId: ID!) {\n    conversation(threadId: $threadId) {\n      threadId eventCursor activeExecutionId\n      openSuspensions { id kind status executionId toolCallId toolName payload }\n      messages(last: 200) {\n        edges {\n          node {\n            id role executionId outcome parentId siblingIds\n            parts { ...ClientMessagePartFields }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ThreadQueue($threadId: ID!) { queue(threadId: $threadId) { ...ClientQueueFields } }\n"): (typeof documents)["\n  query ThreadQueue($threadId: ID!) { queue(threadId: $threadId) { ...ClientQueueFields } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ThreadRunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename cursor threadId createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text offset }\n      ... on MessageSnapshot { messageId textLength parts { ...ClientMessagePartFields } }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state input output error durationMs }\n      ... on ToolCallProgress { messageId toolCallId progress { progress total message } }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n      ... on BranchSwitched { leafMessageId }\n    }\n  }\n"): (typeof documents)["\n  subscription ThreadRunEvents($threadId: ID!, $after: String) {\n    runEvents(threadId: $threadId, after: $after) {\n      __typename cursor threadId createdAt\n      ... on ExecutionEvent { executionId parentExecutionId }\n      ... on MessageQueued { queueId text }\n      ... on ExecutionStarted { queueId acceptedText userMessageId }\n      ... on TextDelta { messageId text offset }\n      ... on ReasoningDelta { text offset }\n      ... on MessageSnapshot { messageId textLength parts { ...ClientMessagePartFields } }\n      ... on MessageSteered { queueIds texts }\n      ... on ToolCallEvent { messageId toolCallId toolName state input output error durationMs }\n      ... on ToolCallProgress { messageId toolCallId progress { progress total message } }\n      ... on SuspensionOpened { suspensionId kind toolCallId payload }\n      ... on SuspensionResolved { suspensionId resolution }\n      ... on RetryScheduled { attempt delayS reason }\n      ... on ErrorEvent {\n        reason retryable retryAfterS occurredAt\n        message messageKey params\n        provider httpStatus providerCode requestId detail\n      }\n      ... on ExecutionFinished { status }\n      ... on ExecutionUpdated { status }\n      ... on BranchSwitched { leafMessageId }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendThreadMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation SendThreadMessage($threadId: ID!, $text: String!, $idempotencyKey: String, $attachments: [File!]) {\n    sendMessage(threadId: $threadId, text: $text, idempotencyKey: $idempotencyKey, attachments: $attachments) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditQueued($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation EditQueued($queueId: ID!, $text: String!) {\n    editQueuedMessage(queueId: $queueId, text: $text) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveQueued($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveQueued($queueId: ID!) {\n    removeQueuedMessage(queueId: $queueId) {\n      __typename\n      ... on QueueItemRemoved { queueId }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReorderQueued($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...ClientQueueFields\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation ReorderQueued($queueId: ID!, $targetQueueId: ID!, $expectedQueueIds: [ID!]!) {\n    reorderQueuedMessage(queueId: $queueId, targetQueueId: $targetQueueId, expectedQueueIds: $expectedQueueIds) {\n      __typename\n      ...ClientQueueFields\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SteerQueued($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation SteerQueued($queueId: ID!, $executionId: ID!) {\n    steerQueuedMessage(queueId: $queueId, executionId: $executionId) {\n      __typename\n      ... on QueueItem { id text position steeringExecutionId }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StopExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation StopExecution($executionId: ID!) {\n    cancelExecution(executionId: $executionId) {\n      __typename\n      ... on CancelRequested { executionId cancelRequested }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveCard($id: ID!, $decision: SuspensionDecision, $answer: String, $allowInThread: Boolean) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer, allowInThread: $allowInThread) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation ResolveCard($id: ID!, $decision: SuspensionDecision, $answer: String, $allowInThread: Boolean) {\n    resolveSuspension(id: $id, decision: $decision, answer: $answer, allowInThread: $allowInThread) {\n      __typename\n      ... on SuspensionResolved { suspensionId executionId cursor }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryTurn($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RetryTurn($executionId: ID!) {\n    retryExecution(executionId: $executionId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditSentMessage($messageId: ID!, $text: String!, $idempotencyKey: String, $threadId: ID) {\n    editMessage(messageId: $messageId, text: $text, idempotencyKey: $idempotencyKey, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation EditSentMessage($messageId: ID!, $text: String!, $idempotencyKey: String, $threadId: ID) {\n    editMessage(messageId: $messageId, text: $text, idempotencyKey: $idempotencyKey, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateReply($messageId: ID!, $threadId: ID) {\n    regenerateMessage(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RegenerateReply($messageId: ID!, $threadId: ID) {\n    regenerateMessage(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on MessageQueued { queueId threadId cursor }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SwitchThreadBranch($messageId: ID!, $threadId: ID) {\n    switchBranch(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on Conversation { threadId eventCursor }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation SwitchThreadBranch($messageId: ID!, $threadId: ID) {\n    switchBranch(messageId: $messageId, threadId: $threadId) {\n      __typename\n      ... on Conversation { threadId eventCursor }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameThreadTitle($threadId: ID!, $title: String!) {\n    renameThread(threadId: $threadId, title: $title) {\n      __typename\n      ... on Thread { id title lastActivityAt }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RenameThreadTitle($threadId: ID!, $title: String!) {\n    renameThread(threadId: $threadId, title: $title) {\n      __typename\n      ... on Thread { id title lastActivityAt }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteThreadForGood($threadId: ID!) {\n    deleteThread(threadId: $threadId) {\n      __typename\n      ... on ThreadDeleted { threadId }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteThreadForGood($threadId: ID!) {\n    deleteThread(threadId: $threadId) {\n      __typename\n      ... on ThreadDeleted { threadId }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AppViewer {\n    viewer {\n      id email locale\n      projects { id name viewerRole agents { id name model } }\n    }\n  }\n"): (typeof documents)["\n  query AppViewer {\n    viewer {\n      id email locale\n      projects { id name viewerRole agents { id name model } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AgentThreads($agentId: ID!) {\n    agent(id: $agentId) {\n      id\n      threads(first: 30) { edges { node { id title createdAt lastActivityAt } } }\n    }\n  }\n"): (typeof documents)["\n  query AgentThreads($agentId: ID!) {\n    agent(id: $agentId) {\n      id\n      threads(first: 30) { edges { node { id title createdAt lastActivityAt } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ThreadSummary($threadId: ID!) { thread(id: $threadId) { id title createdAt agent { id } } }\n"): (typeof documents)["\n  query ThreadSummary($threadId: ID!) { thread(id: $threadId) { id title createdAt agent { id } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) {\n      __typename\n      ... on Thread { id title createdAt }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation StartThread($agentId: ID!, $title: String) {\n    createThread(agentId: $agentId, title: $title) {\n      __typename\n      ... on Thread { id title createdAt }\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClientToolServerFields on ToolServer {\n    __typename id name url transport status lastError headerNames timeoutMs operatorDeclared reconnects lastReconnectAt\n    tools { name description }\n  }\n"): (typeof documents)["\n  fragment ClientToolServerFields on ToolServer {\n    __typename id name url transport status lastError headerNames timeoutMs operatorDeclared reconnects lastReconnectAt\n    tools { name description }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectToolServers($projectId: ID!) {\n    project(id: $projectId) { id name viewerRole toolServers { ...ClientToolServerFields } }\n  }\n"): (typeof documents)["\n  query ProjectToolServers($projectId: ID!) {\n    project(id: $projectId) { id name viewerRole toolServers { ...ClientToolServerFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddToolServer($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {\n    addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation AddToolServer($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {\n    addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefreshToolServer($toolServerId: ID!) {\n    refreshToolServer(toolServerId: $toolServerId) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RefreshToolServer($toolServerId: ID!) {\n    refreshToolServer(toolServerId: $toolServerId) {\n      __typename\n      ...ClientToolServerFields\n      ...ClientErrorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveToolServer($toolServerId: ID!) {\n    removeToolServer(toolServerId: $toolServerId) {\n      __typename\n      ... on ToolServerRemoved { toolServerId }\n      ...ClientErrorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveToolServer($toolServerId: ID!) {\n    removeToolServer(toolServerId: $toolServerId) {\n      __typename\n      ... on ToolServerRemoved { toolServerId }\n      ...ClientErrorFields\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;