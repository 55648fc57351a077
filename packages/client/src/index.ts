// Parley's client: a thread session that follows the recovery contract, and its actions.
export { createParleyClient } from './client.ts';
export type { ParleyClient, ParleyClientOptions, ThreadSession } from './client.ts';
export { failureOf } from './actions.ts';
export type {
  ActionFailure,
  BranchOptions,
  CompactResult,
  EditMessageResult,
  EditResult,
  RegenerateResult,
  SwitchBranchResult,
  RemoveResult,
  ReorderResult,
  Resolution,
  ResolveResult,
  RetryResult,
  SendOptions,
  SendResult,
  SteerResult,
  StopResult,
  ThreadActions,
} from './actions.ts';
export type { QueryState, QueryStore } from './query.ts';
export { retryDecision } from './transport.ts';
export type { ActionResult, Failure, RequestError, RetryDecision, UploadedFile } from './transport.ts';
export { applyToThread, childrenOf, durableSeq, initialThreadState, textOfParts } from './thread-state.ts';
export type {
  Connection,
  ConnectionStatus,
  CurrentError,
  ExecutionView,
  FailureFields,
  MessagePart,
  Queue,
  RetryCountdown,
  RunEvent,
  Suspension,
  ThreadInput,
  ThreadMessage,
  ThreadState,
} from './thread-state.ts';
export * as documents from './documents.ts';
export { formatMoney, picosOf } from './money.ts';
export type { MoneyAmount } from './money.ts';
export { CompactThreadNowDocument, ThreadContextDocument } from './compaction-documents.ts';
export { RevokeThreadShareLinkDocument, SharedSnapshotDocument, ShareThreadLinkDocument, ThreadShareLinkListDocument } from './share-documents.ts';
export { ProjectBudgetsReportDocument, ProjectUsageReportDocument, RemoveProjectBudgetDocument, ReplyUsageDocument, SetProjectBudgetDocument } from './usage-documents.ts';
export { ThreadSearchDocument } from './search-documents.ts';
export { AddToolServerDocument, ProjectToolServersDocument, RefreshToolServerDocument, RemoveToolServerDocument } from './tool-server-documents.ts';
export {
  AgentThreadsDocument,
  AppViewerDocument,
  DeleteThreadForGoodDocument,
  RenameThreadTitleDocument,
  StartThreadDocument,
  ThreadSummaryDocument,
} from './documents.ts';
export type {
  AddToolServerMutation,
  AgentThreadsQuery,
  AppViewerQuery,
  ClientToolServerFieldsFragment,
  ClientUsageFieldsFragment,
  CompactThreadNowMutation,
  DeleteThreadForGoodMutation,
  ErrorReason,
  ProjectToolServersQuery,
  ProjectBudgetsReportQuery,
  ProjectUsageReportQuery,
  RefreshToolServerMutation,
  RemoveToolServerMutation,
  RenameThreadTitleMutation,
  ReplyUsageQuery,
  SharedSnapshotQuery,
  StartThreadMutation,
  ThreadContextQuery,
  ThreadSearchQuery,
  ThreadSummaryQuery,
  ToolServerHeaderInput,
} from './gql/graphql.ts';
