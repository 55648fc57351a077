// Parley's client: a thread session that follows the recovery contract, and its actions.
export { createParleyClient } from './client.ts';
export type { ActionResult, ParleyClient, ParleyClientOptions, RequestError, ThreadSession, UploadedFile } from './client.ts';
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
