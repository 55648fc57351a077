import { CompactThreadNowDocument } from './compaction-documents.ts';
import {
  EditQueuedDocument,
  EditSentMessageDocument,
  RegenerateReplyDocument,
  SwitchThreadBranchDocument,
  RemoveQueuedDocument,
  ReorderQueuedDocument,
  ResolveCardDocument,
  RetryTurnDocument,
  SendThreadMessageDocument,
  SteerQueuedDocument,
  StopExecutionDocument,
} from './documents.ts';
import type {
  CompactThreadNowMutation,
  EditQueuedMutation,
  EditSentMessageMutation,
  RegenerateReplyMutation,
  SwitchThreadBranchMutation,
  RemoveQueuedMutation,
  ReorderQueuedMutation,
  ResolveCardMutation,
  RetryTurnMutation,
  SendThreadMessageMutation,
  SteerQueuedMutation,
  StopExecutionMutation,
  ElicitationAction,
  SuspensionDecision,
} from './gql/graphql.ts';
import type { SessionCore } from './session.ts';
import { isRequestError, wait, type ActionResult, type Request, type RequestError } from './transport.ts';

// What a user can do on a thread. Each action answers its result union as data (typed errors
// included) or a RequestError, never a throw, and brings the session's queue up to date.

export type SendResult = SendThreadMessageMutation['sendMessage'];
export type EditResult = EditQueuedMutation['editQueuedMessage'];
export type RemoveResult = RemoveQueuedMutation['removeQueuedMessage'];
export type ReorderResult = ReorderQueuedMutation['reorderQueuedMessage'];
export type SteerResult = SteerQueuedMutation['steerQueuedMessage'];
export type StopResult = StopExecutionMutation['cancelExecution'];
export type ResolveResult = ResolveCardMutation['resolveSuspension'];
export type RetryResult = RetryTurnMutation['retryExecution'];
export type EditMessageResult = EditSentMessageMutation['editMessage'];
export type RegenerateResult = RegenerateReplyMutation['regenerateMessage'];
export type SwitchBranchResult = SwitchThreadBranchMutation['switchBranch'];
export type CompactResult = CompactThreadNowMutation['compactThread'];

export interface BranchOptions {
  /**
   * While an execution runs, stop it first and then act (the server refuses the change otherwise,
   * with a ConflictError): one action for "stop, then edit".
   */
  stopFirst?: boolean;
}

/**
 * `allowInThread` with APPROVE of a tool-server tool: stop asking for it in this thread.
 * `elicitation` answers an ELICITATION card (a tool server's form, `payload.requestedSchema`):
 * ACCEPT with the fields by name, DECLINE or CANCEL.
 */
export type Resolution =
  | { decision: SuspensionDecision; allowInThread?: boolean }
  | { answer: string }
  | { elicitation: { action: ElicitationAction; content?: Record<string, unknown> } };

export interface SendOptions {
  idempotencyKey?: string;
  attachments?: readonly (Blob & { name?: string })[];
}

export interface ThreadActions {
  /**
   * Queues a message. Its idempotency key is made once and sent again on every retry, so a
   * request that failed on the way back never queues the message twice.
   */
  send(text: string, options?: SendOptions): Promise<ActionResult<SendResult>>;
  edit(queueId: string, text: string): Promise<ActionResult<EditResult>>;
  remove(queueId: string): Promise<ActionResult<RemoveResult>>;
  /**
   * Moves a queued message to the target's place, sending the order the state shows. On a
   * QueueChangedError the queue is read again (the state shows the current order) and the error
   * is returned, so the caller can decide again.
   */
  reorder(queueId: string, targetQueueId: string): Promise<ActionResult<ReorderResult>>;
  /** Steers a queued message into the running execution (by default the active one). */
  steer(queueId: string, executionId?: string): Promise<ActionResult<SteerResult>>;
  /** Stops the running execution (by default the active one). */
  stop(executionId?: string): Promise<ActionResult<StopResult>>;
  resolve(suspensionId: string, resolution: Resolution): Promise<ActionResult<ResolveResult>>;
  /** Re-queues a failed turn (by default the one of the current error). */
  retry(executionId?: string): Promise<ActionResult<RetryResult>>;
  /**
   * Summarises the thread's oldest turns now (compactThread), then reads the conversation again so
   * the replaced messages show as summarised. A turn that failed with CONTEXT_LENGTH can be retried after it.
   */
  compact(): Promise<ActionResult<CompactResult>>;
  /**
   * Edits a sent user message: a new message with the same parent (its files kept), made the
   * active branch, its turn queued first. Not `edit`, which changes a queued message.
   */
  editMessage(messageId: string, text: string, options?: BranchOptions & { idempotencyKey?: string }): Promise<ActionResult<EditMessageResult>>;
  /** Asks for another reply to the same user message (a sibling of the given reply), made active. */
  regenerate(messageId: string, options?: BranchOptions): Promise<ActionResult<RegenerateResult>>;
  /** Shows the branch through that message, down to the leaf last active under it. */
  switchBranch(messageId: string, options?: BranchOptions): Promise<ActionResult<SwitchBranchResult>>;
  /** Reads the conversation and the queue again. */
  refresh(): Promise<void>;
}

/** A failed action's answer: a typed error of its union (they all carry a message) or a RequestError. */
export type ActionFailure<T> = Extract<T, { message: string }> | RequestError;

/** The failure in an action's answer, or null when it did what it was asked. */
export function failureOf<T extends { __typename?: string }>(result: ActionResult<T>): ActionFailure<T> | null {
  return typeof (result as { message?: unknown }).message === 'string' ? (result as ActionFailure<T>) : null;
}

export const SEND_ATTEMPTS = 3;
const WAIT_AND_RETRY_TYPES = new Set(['RateLimitedError', 'ServiceUnavailableError']);

/** Picks the payload field of a mutation's result, or passes a RequestError through. */
function field<T, K extends keyof T>(result: ActionResult<T>, key: K): ActionResult<T[K]> {
  return isRequestError(result) ? result : result[key];
}

const noExecution = (what: string): RequestError => ({
  __typename: 'RequestError',
  message: `There is no ${what} execution.`,
  code: 'NO_EXECUTION',
  retryAfterS: null,
});

export function threadActions(session: SessionCore, request: Request): ThreadActions {
  const { threadId } = session;
  const state = () => session.getSnapshot();
  const refreshQueueAfter = async <T>(result: Promise<T>) => {
    const value = await result;
    await session.readQueue();
    return value;
  };

  /** Stops the running execution, when asked to, and waits until the state shows none running. */
  const stoppedIfAsked = async (stopFirst: boolean | undefined) => {
    const running = state().activeExecutionId;
    if (!stopFirst || !running) return;
    await request(StopExecutionDocument, { executionId: running });
    await new Promise<void>((resolve) => {
      const check = () => {
        if (state().activeExecutionId !== running) {
          stop();
          resolve();
        }
      };
      const stop = session.subscribe(check);
      check();
    });
  };
  /** A branch change, then the conversation and queue as they now are. */
  const branchChange = async <T>(stopFirst: boolean | undefined, change: () => Promise<T>) => {
    await stoppedIfAsked(stopFirst);
    const result = await change();
    await Promise.all([session.readConversation(), session.readQueue()]);
    return result;
  };

  return {
    editMessage: (messageId, text, { stopFirst, idempotencyKey = globalThis.crypto.randomUUID() } = {}) =>
      branchChange(stopFirst, async () =>
        field(await request(EditSentMessageDocument, { messageId, text, idempotencyKey, threadId }), 'editMessage'),
      ),
    regenerate: (messageId, { stopFirst } = {}) =>
      branchChange(stopFirst, async () => field(await request(RegenerateReplyDocument, { messageId, threadId }), 'regenerateMessage')),
    switchBranch: (messageId, { stopFirst } = {}) =>
      branchChange(stopFirst, async () => field(await request(SwitchThreadBranchDocument, { messageId, threadId }), 'switchBranch')),
    async send(text, { idempotencyKey = globalThis.crypto.randomUUID(), attachments = [] } = {}) {
      const files = attachments.map((file, index) => ({ variablePath: `attachments.${index}`, file }));
      // The multipart spec puts a null where each file goes; the map fills it in on the server.
      const variables = { threadId, text, idempotencyKey, attachments: files.length ? attachments.map(() => null) : undefined };
      let result!: ActionResult<SendResult>;
      for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
        result = field(await request(SendThreadMessageDocument, variables as never, files), 'sendMessage');
        // A spent budget and an outage (the typed member or the error of a request) are waited out
        // and sent again with the same idempotency key, so the message is queued once.
        if (!isRequestError(result) && !WAIT_AND_RETRY_TYPES.has(result.__typename)) break;
        const retryAfterS = 'retryAfterS' in result ? result.retryAfterS : null;
        const retryable = retryAfterS != null || (isRequestError(result) && (result.code === null || result.code === 'SERVICE_UNAVAILABLE'));
        if (!retryable || attempt === SEND_ATTEMPTS) break;
        await wait(retryAfterS != null ? retryAfterS * 1000 : 250 * 2 ** attempt);
      }
      if (result.__typename === 'MessageQueued') void session.readQueue();
      return result;
    },
    edit: (queueId, text) => refreshQueueAfter(request(EditQueuedDocument, { queueId, text }).then((r) => field(r, 'editQueuedMessage'))),
    remove: (queueId) => refreshQueueAfter(request(RemoveQueuedDocument, { queueId }).then((r) => field(r, 'removeQueuedMessage'))),
    async reorder(queueId, targetQueueId) {
      const expectedQueueIds = (state().queue?.items ?? []).filter((item) => !item.steeringExecutionId).map((item) => item.id);
      const result = field(await request(ReorderQueuedDocument, { queueId, targetQueueId, expectedQueueIds }), 'reorderQueuedMessage');
      if (result.__typename === 'Queue') session.dispatch({ type: 'queue', queue: result });
      else await session.readQueue();
      return result;
    },
    steer(queueId, executionId = state().activeExecutionId ?? undefined) {
      if (!executionId) return Promise.resolve(noExecution('running'));
      return refreshQueueAfter(request(SteerQueuedDocument, { queueId, executionId }).then((r) => field(r, 'steerQueuedMessage')));
    },
    async stop(executionId = state().activeExecutionId ?? undefined) {
      if (!executionId) return noExecution('running');
      return field(await request(StopExecutionDocument, { executionId }), 'cancelExecution');
    },
    async resolve(suspensionId, resolution) {
      const variables =
        'decision' in resolution
          ? { id: suspensionId, decision: resolution.decision, ...(resolution.allowInThread ? { allowInThread: true } : {}) }
          : 'elicitation' in resolution
            ? { id: suspensionId, elicitation: resolution.elicitation }
            : { id: suspensionId, answer: resolution.answer };
      return field(await request(ResolveCardDocument, variables), 'resolveSuspension');
    },
    async retry(executionId = state().error?.executionId) {
      if (!executionId) return noExecution('failed');
      return refreshQueueAfter(request(RetryTurnDocument, { executionId }).then((r) => field(r, 'retryExecution')));
    },
    async compact() {
      const result = field(await request(CompactThreadNowDocument, { threadId }), 'compactThread');
      if (result.__typename === 'Conversation') await session.readConversation();
      return result;
    },
    async refresh() {
      await Promise.all([session.readConversation(), session.readQueue()]);
    },
  };
}
