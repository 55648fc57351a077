/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO-8601 timestamp in UTC. */
  DateTime: { input: string; output: string; }
  /** A file sent with a GraphQL multipart request (input only). */
  File: { input: File; output: File; }
  /** Arbitrary JSON (tool inputs and outputs, suspension payloads). */
  JSON: { input: unknown; output: unknown; }
};

export type Agent = Node & {
  __typename?: 'Agent';
  compaction: AgentCompaction;
  /** The context window the agent’s threads are measured against: its own setting, else the model dataset’s; null when neither knows it. */
  contextWindowTokens?: Maybe<Scalars['Int']['output']>;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  limits: AgentLimits;
  /** `provider:model`, e.g. `demo:default` or `openai:gpt-4.1-mini`. */
  model: Scalars['String']['output'];
  name: Scalars['String']['output'];
  project: Project;
  systemPrompt: Scalars['String']['output'];
  /** The threads you can see, the last active first (Thread.lastActivityAt). */
  threads: AgentThreadsConnection;
  /** Approval policies of tool-server tools; a tool without one asks each time (ALWAYS). */
  toolApprovals: Array<ToolApprovalRule>;
  tools: Array<Scalars['String']['output']>;
};


export type AgentThreadsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

/** When a thread’s history is summarised before a model call, and what stays verbatim (docs/compaction.md). */
export type AgentCompaction = {
  __typename?: 'AgentCompaction';
  /** The share of the context window the next call’s history may reach. */
  atPercent: Scalars['Int']['output'];
  /** The most recent turns, always sent verbatim. */
  keptTurns: Scalars['Int']['output'];
  /** The model that writes summaries; null: the agent’s own. */
  model?: Maybe<Scalars['String']['output']>;
};

export type AgentCompactionInput = {
  /** 1 to 100; default 80. */
  atPercent?: InputMaybe<Scalars['Int']['input']>;
  /** 1 to 100; default 4. */
  keptTurns?: InputMaybe<Scalars['Int']['input']>;
  /** `provider:model`; null: the agent’s own. */
  model?: InputMaybe<Scalars['String']['input']>;
};

export type AgentLimits = {
  __typename?: 'AgentLimits';
  dailyTokenBudget?: Maybe<Scalars['Int']['output']>;
  maxConcurrentExecutions?: Maybe<Scalars['Int']['output']>;
};

/** Run limits checked at admission; null = unlimited. */
export type AgentLimitsInput = {
  /** Tokens per user per UTC day. */
  dailyTokenBudget?: InputMaybe<Scalars['Int']['input']>;
  maxConcurrentExecutions?: InputMaybe<Scalars['Int']['input']>;
};

export type AgentThreadsConnection = {
  __typename?: 'AgentThreadsConnection';
  edges: Array<AgentThreadsConnectionEdge>;
  pageInfo: PageInfo;
};

export type AgentThreadsConnectionEdge = {
  __typename?: 'AgentThreadsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Thread;
};

/** One of the viewer’s API tokens. The token itself is shown only when it is created. */
export type ApiToken = {
  __typename?: 'ApiToken';
  createdAt: Scalars['DateTime']['output'];
  /** Null: never expires. */
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** Pass to revokeApiToken (the CLI prints the same id). */
  id: Scalars['ID']['output'];
  label: Scalars['String']['output'];
  /** Updated at most once a minute. */
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
};

export type AttachmentPart = {
  __typename?: 'AttachmentPart';
  attachmentId: Scalars['String']['output'];
  /** GET it on this server with the same Authorization header; it is always served as a download (Content-Disposition: attachment, X-Content-Type-Options: nosniff). */
  downloadPath: Scalars['String']['output'];
  filename: Scalars['String']['output'];
  mediaType: Scalars['String']['output'];
  size: Scalars['Int']['output'];
};

/** The active path now ends at leafMessageId (an edit or regeneration cut it at the parent of its new message; a switch moved it); read conversation again unless you hold that path. */
export type BranchSwitched = RunEvent & {
  __typename?: 'BranchSwitched';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  /** Null when no message is on the path (the first message was edited and its turn has not started). */
  leafMessageId?: Maybe<Scalars['ID']['output']>;
  threadId: Scalars['ID']['output'];
};

/** A cap on a project’s spend per period: of one agent or of all, shared by everyone or for each user apart. */
export type Budget = {
  __typename?: 'Budget';
  agent?: Maybe<Agent>;
  /** Null: every agent of the project. */
  agentId?: Maybe<Scalars['ID']['output']>;
  amount: Money;
  id: Scalars['ID']['output'];
  /** Each user has the whole amount; otherwise everyone shares it. */
  perUser: Scalars['Boolean']['output'];
  period: BudgetPeriod;
  resetsAt: Scalars['DateTime']['output'];
  /** Spent in the current period (and held by running replies): of a per-user budget, by the viewer; of a shared one, by everyone. */
  spent: Money;
  /** A BudgetWarning run event comes once per period when the spend reaches this share. */
  warnAtPercent: Scalars['Int']['output'];
};

export type BudgetPeriod =
  /** A UTC day. */
  | 'DAY'
  /** A UTC calendar month. */
  | 'MONTH';

export type BudgetRemoved = {
  __typename?: 'BudgetRemoved';
  budgetId: Scalars['ID']['output'];
};

/** A budget’s spend reached its warning share (once per budget and period; per user for a per-user budget). */
export type BudgetWarning = ExecutionEvent & RunEvent & {
  __typename?: 'BudgetWarning';
  agentId?: Maybe<Scalars['ID']['output']>;
  amount: Money;
  budgetId: Scalars['ID']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  perUser: Scalars['Boolean']['output'];
  period: BudgetPeriod;
  spent: Money;
  threadId: Scalars['ID']['output'];
  warnAtPercent: Scalars['Int']['output'];
};

/** Stop was requested. The execution’s recorded status (ExecutionFinished) says when it has ended. */
export type CancelRequested = {
  __typename?: 'CancelRequested';
  cancelRequested: Scalars['Boolean']['output'];
  executionId: Scalars['ID']['output'];
};

/** A summary that replaces, for the model, the messages of the path before the message that holds it (docs/compaction.md); they stay readable here. Undone (uncompactThread): the model is sent the originals again. */
export type CompactionPart = {
  __typename?: 'CompactionPart';
  createdAt: Scalars['DateTime']['output'];
  firstMessageId: Scalars['ID']['output'];
  /** What the summary’s model call took, as its provider reported. */
  inputTokens: Scalars['Int']['output'];
  /** The model that wrote the summary. */
  model: Scalars['String']['output'];
  outputTokens: Scalars['Int']['output'];
  replacedMessages: Scalars['Int']['output'];
  /** The replaced messages, estimated in the agent’s model’s tokens. */
  replacedTokens: Scalars['Int']['output'];
  summary: Scalars['String']['output'];
  /** The summary, estimated the same way. */
  summaryTokens: Scalars['Int']['output'];
  /** The last message the summary replaces. */
  throughMessageId: Scalars['ID']['output'];
  undone: Scalars['Boolean']['output'];
};

/** The state changed under you (e.g. the item already started); refresh and retry. */
export type ConflictError = Error & {
  __typename?: 'ConflictError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** Everything a reloading client needs; then follow runEvents(after: eventCursor). Its messages are the active path, first to last. */
export type Conversation = {
  __typename?: 'Conversation';
  /** Set from the moment an execution is admitted, before any output; null when none runs. */
  activeExecutionId?: Maybe<Scalars['ID']['output']>;
  context: ConversationContext;
  eventCursor: Scalars['String']['output'];
  messages: ConversationMessagesConnection;
  openSuspensions: Array<Suspension>;
  threadId: Scalars['ID']['output'];
};


/** Everything a reloading client needs; then follow runEvents(after: eventCursor). Its messages are the active path, first to last. */
export type ConversationMessagesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

/** How full the context window is for the next model call (docs/compaction.md). */
export type ConversationContext = {
  __typename?: 'ConversationContext';
  /** The last message the summary in force replaces: the model is sent the summary instead of it and the messages before it. */
  compactedThrough?: Maybe<Scalars['ID']['output']>;
  /** The input tokens the provider reported for the thread’s last model call, plus an estimate of what the next call adds. */
  usedTokens: Scalars['Int']['output'];
  /** The agent’s context window; null when unknown (nothing is compacted). */
  windowTokens?: Maybe<Scalars['Int']['output']>;
};

export type ConversationMessagesConnection = {
  __typename?: 'ConversationMessagesConnection';
  edges: Array<ConversationMessagesConnectionEdge>;
  pageInfo: PageInfo;
};

export type ConversationMessagesConnectionEdge = {
  __typename?: 'ConversationMessagesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Message;
};

/** A new user and its first API token (shown only here). */
export type CreatedUser = {
  __typename?: 'CreatedUser';
  /** Hand it to the user (or keep it in the backend); only its hash is stored. */
  apiToken: Scalars['String']['output'];
  user: User;
};

export type DelegationPart = {
  __typename?: 'DelegationPart';
  childExecutionId: Scalars['ID']['output'];
  error?: Maybe<ExecutionError>;
  reasoning: Scalars['String']['output'];
  text: Scalars['String']['output'];
  toolCallId: Scalars['String']['output'];
  /** Text beyond 4,000 characters is not recorded. */
  truncated: Scalars['Boolean']['output'];
};

/** The user’s response to a tool server’s question (MCP elicitation): the filled form, a refusal, or a dismissal. */
export type ElicitationAction =
  | 'ACCEPT'
  | 'CANCEL'
  | 'DECLINE';

export type ElicitationResponseInput = {
  action: ElicitationAction;
  /** With ACCEPT: the form’s fields by name, checked against the card’s requestedSchema. */
  content?: InputMaybe<Scalars['JSON']['input']>;
};

export type Error = {
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** The run’s one failure, with the full taxonomy; the same as its ErrorPart. */
export type ErrorEvent = ExecutionEvent & RunEvent & {
  __typename?: 'ErrorEvent';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  /** The provider’s own technical message (for a details view, not the headline). */
  detail: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  httpStatus?: Maybe<Scalars['Int']['output']>;
  /** Localized copy in the language of the run’s user. */
  message: Scalars['String']['output'];
  /** Catalog key of `message`, to re-localize. */
  messageKey: Scalars['String']['output'];
  /** When the failure happened: a countdown resumes at occurredAt + retryAfterS after a reload. */
  occurredAt: Scalars['DateTime']['output'];
  params: Scalars['JSON']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  provider?: Maybe<Scalars['String']['output']>;
  providerCode?: Maybe<Scalars['String']['output']>;
  reason: ErrorReason;
  requestId?: Maybe<Scalars['String']['output']>;
  retryAfterS?: Maybe<Scalars['Float']['output']>;
  retryable: Scalars['Boolean']['output'];
  threadId: Scalars['ID']['output'];
};

export type ErrorPart = {
  __typename?: 'ErrorPart';
  /** The provider’s own technical message (for a details view, not the headline). */
  detail: Scalars['String']['output'];
  httpStatus?: Maybe<Scalars['Int']['output']>;
  /** Localized copy in the language of the run’s user. */
  message: Scalars['String']['output'];
  /** Catalog key of `message`, to re-localize. */
  messageKey: Scalars['String']['output'];
  /** When the failure happened: a countdown resumes at occurredAt + retryAfterS after a reload. */
  occurredAt: Scalars['DateTime']['output'];
  params: Scalars['JSON']['output'];
  provider?: Maybe<Scalars['String']['output']>;
  providerCode?: Maybe<Scalars['String']['output']>;
  reason: ErrorReason;
  requestId?: Maybe<Scalars['String']['output']>;
  retryAfterS?: Maybe<Scalars['Float']['output']>;
  retryable: Scalars['Boolean']['output'];
};

export type ErrorReason =
  | 'APPLICATION_ERROR'
  | 'AUTHENTICATION'
  | 'AUTHORIZATION'
  | 'CONTENT_POLICY'
  | 'CONTEXT_LENGTH'
  | 'INVALID_REQUEST'
  | 'PROVIDER_INTERNAL'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMIT'
  | 'TRANSPORT'
  | 'UNKNOWN';

export type Execution = Node & {
  __typename?: 'Execution';
  acceptedText: Scalars['String']['output'];
  acceptsSteering: Scalars['Boolean']['output'];
  createdAt: Scalars['DateTime']['output'];
  error?: Maybe<ExecutionError>;
  finishedAt?: Maybe<Scalars['DateTime']['output']>;
  id: Scalars['ID']['output'];
  inputTokens: Scalars['Int']['output'];
  outputTokens: Scalars['Int']['output'];
  ownerInstanceId?: Maybe<Scalars['String']['output']>;
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  startedAt?: Maybe<Scalars['DateTime']['output']>;
  status: ExecutionStatus;
  thread: Thread;
  usage: RunUsage;
};

export type ExecutionError = {
  __typename?: 'ExecutionError';
  /** The provider’s own technical message (for a details view, not the headline). */
  detail: Scalars['String']['output'];
  httpStatus?: Maybe<Scalars['Int']['output']>;
  /** Localized copy in the language of the run’s user. */
  message: Scalars['String']['output'];
  /** Catalog key of `message`, to re-localize. */
  messageKey: Scalars['String']['output'];
  /** When the failure happened: a countdown resumes at occurredAt + retryAfterS after a reload. */
  occurredAt: Scalars['DateTime']['output'];
  params: Scalars['JSON']['output'];
  provider?: Maybe<Scalars['String']['output']>;
  providerCode?: Maybe<Scalars['String']['output']>;
  reason: ErrorReason;
  requestId?: Maybe<Scalars['String']['output']>;
  retryAfterS?: Maybe<Scalars['Float']['output']>;
  retryable: Scalars['Boolean']['output'];
};

/** An event about one execution (every event but MessageQueued, QueueUpdated, BranchSwitched and ThreadCompacted). */
export type ExecutionEvent = {
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  threadId: Scalars['ID']['output'];
};

/** The execution reached a final (or suspended) state. */
export type ExecutionFinished = ExecutionEvent & RunEvent & {
  __typename?: 'ExecutionFinished';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  status: ExecutionStatus;
  threadId: Scalars['ID']['output'];
  /** The run’s usage as recorded with its end (read when selected). */
  usage: RunUsage;
};

/** An execution was admitted; carries the text it accepted. */
export type ExecutionStarted = ExecutionEvent & RunEvent & {
  __typename?: 'ExecutionStarted';
  acceptedText: Scalars['String']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  queueId: Scalars['ID']['output'];
  threadId: Scalars['ID']['output'];
  userMessageId: Scalars['ID']['output'];
};

export type ExecutionStatus =
  | 'CANCELLED'
  | 'COMPLETED'
  | 'FAILED'
  | 'INTERRUPTED'
  | 'REFUSED'
  | 'RUNNING'
  | 'SUSPENDED';

/** An execution changed state; read conversation again. */
export type ExecutionUpdated = ExecutionEvent & RunEvent & {
  __typename?: 'ExecutionUpdated';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  status: ExecutionStatus;
  threadId: Scalars['ID']['output'];
};

/** Your role in the project lacks the scope this needs. */
export type ForbiddenError = Error & {
  __typename?: 'ForbiddenError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  scope: Scalars['String']['output'];
};

/** An argument was rejected; nothing was changed. */
export type InvalidInputError = Error & {
  __typename?: 'InvalidInputError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  field: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** A bound on stored data was reached (see setting); nothing was stored. Free some (remove queued messages, wait for the queue to run) or ask the operator to raise the setting. */
export type LimitExceededError = Error & {
  __typename?: 'LimitExceededError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  /** The limit (a whole number; a Float because byte limits pass 2^31). */
  limit: Scalars['Float']['output'];
  message: Scalars['String']['output'];
  /** The server setting that sets the limit, e.g. PARLEY_MAX_QUEUED_PER_THREAD. */
  setting: Scalars['String']['output'];
};

export type Message = Node & {
  __typename?: 'Message';
  createdAt: Scalars['DateTime']['output'];
  executionId?: Maybe<Scalars['ID']['output']>;
  id: Scalars['ID']['output'];
  /** How the execution of this turn ended, or where it is: a reply that was stopped reads CANCELLED after a reload, one that failed FAILED. Null for a message of no execution. */
  outcome?: Maybe<ExecutionStatus>;
  /** The message this one follows in its branch; null for a first message. */
  parentId?: Maybe<Scalars['ID']['output']>;
  parts: Array<MessagePart>;
  role: MessageRole;
  /** The messages with the same parent and role, oldest first, this one included: show "2 / 3" and switchBranch to a neighbour. */
  siblingIds: Array<Scalars['ID']['output']>;
};

export type MessagePart = AttachmentPart | CompactionPart | DelegationPart | ErrorPart | ReasoningPart | SteeredInputPart | TextPart | ToolCallPart;

/** A message was accepted into the queue (committed). */
export type MessageQueued = RunEvent & {
  __typename?: 'MessageQueued';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  queueId: Scalars['ID']['output'];
  text: Scalars['String']['output'];
  threadId: Scalars['ID']['output'];
};

export type MessageRole =
  | 'ASSISTANT'
  | 'USER';

/** The running reply as recorded so far, sent on resume before live deltas. */
export type MessageSnapshot = ExecutionEvent & RunEvent & {
  __typename?: 'MessageSnapshot';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  messageId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  parts: Array<MessagePart>;
  textLength: Scalars['Int']['output'];
  threadId: Scalars['ID']['output'];
};

/** Queued messages entered the running execution. */
export type MessageSteered = ExecutionEvent & RunEvent & {
  __typename?: 'MessageSteered';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  queueIds: Array<Scalars['ID']['output']>;
  texts: Array<Scalars['String']['output']>;
  threadId: Scalars['ID']['output'];
};

/** A model’s price per million tokens of each kind, as decimal strings. A kind without a price is charged as input (cached input, cache writes) or as output (reasoning). */
export type ModelPrice = {
  __typename?: 'ModelPrice';
  cacheWritePerMillion?: Maybe<Scalars['String']['output']>;
  cachedInputPerMillion?: Maybe<Scalars['String']['output']>;
  currency: Scalars['String']['output'];
  inputPerMillion: Scalars['String']['output'];
  model: Scalars['String']['output'];
  outputPerMillion: Scalars['String']['output'];
  reasoningPerMillion?: Maybe<Scalars['String']['output']>;
  /** "operator" (setModelPrice), "demo", or the price dataset and its version. */
  source: Scalars['String']['output'];
};

/** An exact amount (a decimal string, never a float) in the deployment’s currency (PARLEY_CURRENCY). */
export type Money = {
  __typename?: 'Money';
  /** A decimal string such as "0.0042" (down to 10⁻¹² of the currency). */
  amount: Scalars['String']['output'];
  /** ISO 4217, e.g. USD. */
  currency: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Adds a user (by id or email) to the project, or changes their role. Needs agent:manage, or an admin credential (which may add to any project, and is told when no such user exists). For anyone else the answer is the same whether an account with that email or id exists or not; without one, nothing is recorded. Demoting the last admin is a ConflictError. */
  addProjectMember: MutationAddProjectMemberResult;
  /** Adds an MCP server (streamable HTTP, or HTTP+SSE) to the project and connects to it. Needs agent:manage. */
  addToolServer: MutationAddToolServerResult;
  /** Stop. Cancels a running execution (on whichever instance runs it) or a suspended one; queued messages stay. An execution that already ended is a ConflictError, so a late Stop never touches a later execution. */
  cancelExecution: MutationCancelExecutionResult;
  /** Summarises the thread’s oldest turns now (all but its agent’s kept turns) with the agent’s model, as a turn past its threshold would (ThreadCompacted); answers the conversation as it now is. A ConflictError while a run is active or when there is nothing to compact; an InvalidInputError when the kept turns alone exceed the window. */
  compactThread: MutationCompactThreadResult;
  createAgent: MutationCreateAgentResult;
  /** Creates a project whose admin is the viewer, or — for an admin credential — the user `ownerId` (the credential’s own user is then not a member). */
  createProject: MutationCreateProjectResult;
  createThread: MutationCreateThreadResult;
  /** Admin: creates a user (as `parley user create` does) with an API token. An email already taken is a ConflictError. */
  createUser: MutationCreateUserResult;
  /** Deletes the thread with its messages, events, queue items, suspensions and files; its subscribers end with NOT_FOUND. Its owner may (for a SHARED thread, also a project admin); a ConflictError while an execution runs. */
  deleteThread: MutationDeleteThreadResult;
  /** Admin: refuses every API token and JWT of the user from now on, on every instance, and closes their open WebSockets (4403) and SSE subscriptions (UNAUTHENTICATED). Their data stays; enableUser lets them back in. */
  disableUser: MutationDisableUserResult;
  /** A new user message with the same parent as the edited one (its attachments kept), made the active branch; its turn is queued first, before pending messages. A ConflictError while an execution runs: stop it first. */
  editMessage: MutationEditMessageResult;
  /** Changes a pending message’s text (position and attachments stay); refused once it has started. */
  editQueuedMessage: MutationEditQueuedMessageResult;
  /** Admin: lets a disabled user sign in again (their tokens that are not revoked or expired work again). */
  enableUser: MutationEnableUserResult;
  /** A new thread of the viewer with the agent, holding the messages of a JSON export (exportThread) as finished history: nothing runs. Anything but a valid export of this version (docs/thread-export.md) is an InvalidInputError on `content`, and nothing is made. */
  importThread: MutationImportThreadResult;
  /** Reconnects now and lists the server’s tools again. Needs agent:manage. */
  refreshToolServer: MutationRefreshToolServerResult;
  /** A new reply to the same user message, a sibling of the given reply, made active; its turn is queued first. A ConflictError while an execution runs: stop it first. */
  regenerateMessage: MutationRegenerateMessageResult;
  /** Project admins: removes a budget; runs are no longer checked against it from their next model call on. */
  removeBudget: MutationRemoveBudgetResult;
  /** Removes a user (by id or email) from the project: anyone may leave, removing others needs agent:manage. Removing the last admin is a ConflictError. */
  removeProjectMember: MutationRemoveProjectMemberResult;
  /** Removes a pending message and discards its attachments; refused once it has started. */
  removeQueuedMessage: MutationRemoveQueuedMessageResult;
  /** Removes a tool server; agents naming its tools no longer get them. Needs agent:manage. An operator-declared server is a ForbiddenError (it is removed from PARLEY_TOOL_SERVERS_FILE). */
  removeToolServer: MutationRemoveToolServerResult;
  renameThread: MutationRenameThreadResult;
  /** Moves a pending message to the target’s position, shifting those between, if the pending order (steers excluded) is exactly expectedQueueIds. */
  reorderQueuedMessage: MutationReorderQueuedMessageResult;
  /** Approves or denies an approval card, answers a question card, or gives a frontend tool call (kind CLIENT_TOOL, an AG-UI client’s tool) its result as answer; the execution resumes. An ELICITATION card (a tool server asks during a call) takes `elicitation`, and the call goes on. */
  resolveSuspension: MutationResolveSuspensionResult;
  /** Re-queues the input of a failed turn (a retryable failure, the thread’s latest turn) at the head of the queue. */
  retryExecution: MutationRetryExecutionResult;
  /** Revokes one of the viewer’s API tokens; every instance refuses it from the next request on. Revoking the token this request uses is allowed. */
  revokeApiToken: MutationRevokeApiTokenResult;
  /** Its owner: the link stops working at once (its page and sharedThread answer not found). */
  revokeShareLink: MutationRevokeShareLinkResult;
  /** Queues a message; it is committed before this returns. The same idempotencyKey never queues twice. While a question card is open, the text answers it and resumes the execution instead. */
  sendMessage: SendMessageResult;
  /** Project admins: caps the spend of the project (or of one agent) per UTC day or month, for everyone together or for each user (`perUser`). Setting it again for the same agent, sharing and period changes its amount. It binds every run from its next model call on. */
  setBudget: MutationSetBudgetResult;
  /** Admin: sets the price of a model (`provider:model`) per million tokens, amounts as decimal strings; it applies to every model call from now on, on every instance. */
  setModelPrice: MutationSetModelPriceResult;
  /** Its owner: a read-only snapshot of the thread’s active path up to `throughMessageId`, behind a link anyone may open (later messages, other threads, the owner’s email and files are not in it; files only with includeAttachments). Another user’s thread is not found; a message off the active path is an InvalidInputError. */
  shareThread: MutationShareThreadResult;
  /** Reserves a pending message for that running execution, which takes it after its current model request and tool batch (MessageSteered). A request for an execution that is no longer running is refused. */
  steerQueuedMessage: MutationSteerQueuedMessageResult;
  /** The active path goes through that message, down to the leaf last active under it (BranchSwitched); answers the conversation as it now is. A ConflictError while an execution runs: stop it first. */
  switchBranch: MutationSwitchBranchResult;
  /** Undoes the summary in force on the active branch: the next call sends the messages it replaced (ThreadCompacted, undone). A ConflictError while a run is active, when nothing is compacted, or when the originals would pass the agent’s threshold. */
  uncompactThread: MutationUncompactThreadResult;
  updateAgent: MutationUpdateAgentResult;
  /** Changes a tool server and reconnects; `headers`, when given, replace all of them. Needs agent:manage. An operator-declared server is a ForbiddenError (it is changed in PARLEY_TOOL_SERVERS_FILE). */
  updateToolServer: MutationUpdateToolServerResult;
};


export type MutationAddProjectMemberArgs = {
  projectId: Scalars['ID']['input'];
  role: ProjectRole;
  user: Scalars['String']['input'];
};


export type MutationAddToolServerArgs = {
  headers?: InputMaybe<Array<ToolServerHeaderInput>>;
  name: Scalars['String']['input'];
  projectId: Scalars['ID']['input'];
  timeoutMs?: InputMaybe<Scalars['Int']['input']>;
  url: Scalars['String']['input'];
};


export type MutationCancelExecutionArgs = {
  executionId: Scalars['ID']['input'];
};


export type MutationCompactThreadArgs = {
  threadId: Scalars['ID']['input'];
};


export type MutationCreateAgentArgs = {
  compaction?: InputMaybe<AgentCompactionInput>;
  contextWindowTokens?: InputMaybe<Scalars['Int']['input']>;
  limits?: InputMaybe<AgentLimitsInput>;
  model: Scalars['String']['input'];
  name: Scalars['String']['input'];
  projectId: Scalars['ID']['input'];
  systemPrompt?: InputMaybe<Scalars['String']['input']>;
  toolApprovals?: InputMaybe<Array<ToolApprovalInput>>;
  tools?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type MutationCreateProjectArgs = {
  name: Scalars['String']['input'];
  ownerId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationCreateThreadArgs = {
  agentId: Scalars['ID']['input'];
  title?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateUserArgs = {
  email: Scalars['String']['input'];
  locale?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
};


export type MutationDeleteThreadArgs = {
  threadId: Scalars['ID']['input'];
};


export type MutationDisableUserArgs = {
  userId: Scalars['ID']['input'];
};


export type MutationEditMessageArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  messageId: Scalars['ID']['input'];
  text: Scalars['String']['input'];
  threadId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationEditQueuedMessageArgs = {
  queueId: Scalars['ID']['input'];
  text: Scalars['String']['input'];
};


export type MutationEnableUserArgs = {
  userId: Scalars['ID']['input'];
};


export type MutationImportThreadArgs = {
  agentId: Scalars['ID']['input'];
  content: Scalars['String']['input'];
};


export type MutationRefreshToolServerArgs = {
  toolServerId: Scalars['ID']['input'];
};


export type MutationRegenerateMessageArgs = {
  messageId: Scalars['ID']['input'];
  threadId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationRemoveBudgetArgs = {
  budgetId: Scalars['ID']['input'];
};


export type MutationRemoveProjectMemberArgs = {
  projectId: Scalars['ID']['input'];
  user: Scalars['String']['input'];
};


export type MutationRemoveQueuedMessageArgs = {
  queueId: Scalars['ID']['input'];
};


export type MutationRemoveToolServerArgs = {
  toolServerId: Scalars['ID']['input'];
};


export type MutationRenameThreadArgs = {
  threadId: Scalars['ID']['input'];
  title: Scalars['String']['input'];
};


export type MutationReorderQueuedMessageArgs = {
  expectedQueueIds: Array<Scalars['ID']['input']>;
  queueId: Scalars['ID']['input'];
  targetQueueId: Scalars['ID']['input'];
};


export type MutationResolveSuspensionArgs = {
  allowInThread?: InputMaybe<Scalars['Boolean']['input']>;
  answer?: InputMaybe<Scalars['String']['input']>;
  decision?: InputMaybe<SuspensionDecision>;
  elicitation?: InputMaybe<ElicitationResponseInput>;
  id: Scalars['ID']['input'];
};


export type MutationRetryExecutionArgs = {
  executionId: Scalars['ID']['input'];
};


export type MutationRevokeApiTokenArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRevokeShareLinkArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSendMessageArgs = {
  attachments?: InputMaybe<Array<Scalars['File']['input']>>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  text: Scalars['String']['input'];
  threadId: Scalars['ID']['input'];
};


export type MutationSetBudgetArgs = {
  agentId?: InputMaybe<Scalars['ID']['input']>;
  amount: Scalars['String']['input'];
  perUser: Scalars['Boolean']['input'];
  period: BudgetPeriod;
  projectId: Scalars['ID']['input'];
  warnAtPercent?: InputMaybe<Scalars['Int']['input']>;
};


export type MutationSetModelPriceArgs = {
  cacheWritePerMillion?: InputMaybe<Scalars['String']['input']>;
  cachedInputPerMillion?: InputMaybe<Scalars['String']['input']>;
  inputPerMillion: Scalars['String']['input'];
  model: Scalars['String']['input'];
  outputPerMillion: Scalars['String']['input'];
  reasoningPerMillion?: InputMaybe<Scalars['String']['input']>;
};


export type MutationShareThreadArgs = {
  includeAttachments?: InputMaybe<Scalars['Boolean']['input']>;
  threadId: Scalars['ID']['input'];
  throughMessageId: Scalars['ID']['input'];
};


export type MutationSteerQueuedMessageArgs = {
  executionId: Scalars['ID']['input'];
  queueId: Scalars['ID']['input'];
};


export type MutationSwitchBranchArgs = {
  messageId: Scalars['ID']['input'];
  threadId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationUncompactThreadArgs = {
  threadId: Scalars['ID']['input'];
};


export type MutationUpdateAgentArgs = {
  agentId: Scalars['ID']['input'];
  compaction?: InputMaybe<AgentCompactionInput>;
  contextWindowTokens?: InputMaybe<Scalars['Int']['input']>;
  limits?: InputMaybe<AgentLimitsInput>;
  model?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  systemPrompt?: InputMaybe<Scalars['String']['input']>;
  toolApprovals?: InputMaybe<Array<ToolApprovalInput>>;
  tools?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type MutationUpdateToolServerArgs = {
  headers?: InputMaybe<Array<ToolServerHeaderInput>>;
  name?: InputMaybe<Scalars['String']['input']>;
  timeoutMs?: InputMaybe<Scalars['Int']['input']>;
  toolServerId: Scalars['ID']['input'];
  url?: InputMaybe<Scalars['String']['input']>;
};

export type MutationAddProjectMemberResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | Project | RateLimitedError | ServiceUnavailableError;

export type MutationAddToolServerResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ToolServer;

export type MutationCancelExecutionResult = CancelRequested | ConflictError | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationCompactThreadResult = ConflictError | Conversation | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationCreateAgentResult = Agent | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationCreateProjectResult = ForbiddenError | InvalidInputError | NotFoundError | Project | RateLimitedError | ServiceUnavailableError;

export type MutationCreateThreadResult = ForbiddenError | InvalidInputError | LimitExceededError | NotFoundError | RateLimitedError | ServiceUnavailableError | Thread;

export type MutationCreateUserResult = ConflictError | CreatedUser | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationDeleteThreadResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ThreadDeleted;

export type MutationDisableUserResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | User;

export type MutationEditMessageResult = ConflictError | ForbiddenError | InvalidInputError | LimitExceededError | MessageQueued | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationEditQueuedMessageResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | QueueItem | RateLimitedError | ServiceUnavailableError;

export type MutationEnableUserResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | User;

export type MutationImportThreadResult = ForbiddenError | InvalidInputError | LimitExceededError | NotFoundError | RateLimitedError | ServiceUnavailableError | Thread;

export type MutationRefreshToolServerResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ToolServer;

export type MutationRegenerateMessageResult = ConflictError | ForbiddenError | InvalidInputError | LimitExceededError | MessageQueued | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationRemoveBudgetResult = BudgetRemoved | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationRemoveProjectMemberResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | Project | RateLimitedError | ServiceUnavailableError;

export type MutationRemoveQueuedMessageResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | QueueItemRemoved | RateLimitedError | ServiceUnavailableError;

export type MutationRemoveToolServerResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ToolServerRemoved;

export type MutationRenameThreadResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | Thread;

export type MutationReorderQueuedMessageResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | Queue | QueueChangedError | RateLimitedError | ServiceUnavailableError;

export type MutationResolveSuspensionResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | SuspensionResolved;

export type MutationRetryExecutionResult = ConflictError | ForbiddenError | InvalidInputError | MessageQueued | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationRevokeApiTokenResult = ApiToken | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationRevokeShareLinkResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ShareLinkRevoked;

export type MutationSetBudgetResult = Budget | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationSetModelPriceResult = ForbiddenError | InvalidInputError | ModelPrice | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationShareThreadResult = ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ShareLink;

export type MutationSteerQueuedMessageResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | QueueItem | RateLimitedError | ServiceUnavailableError;

export type MutationSwitchBranchResult = ConflictError | Conversation | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationUncompactThreadResult = ConflictError | Conversation | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationUpdateAgentResult = Agent | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError;

export type MutationUpdateToolServerResult = ConflictError | ForbiddenError | InvalidInputError | NotFoundError | RateLimitedError | ServiceUnavailableError | ToolServer;

export type Node = {
  id: Scalars['ID']['output'];
};

/** The thing does not exist, or is not visible to you (another user’s TEST thread). */
export type NotFoundError = Error & {
  __typename?: 'NotFoundError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type Project = Node & {
  __typename?: 'Project';
  agents: Array<Agent>;
  /** The project’s budgets in money, each with what is spent of it now. */
  budgets: Array<Budget>;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The project’s own servers and the operator’s declared ones it may use. */
  toolServers: Array<ToolServer>;
  viewerRole?: Maybe<ProjectRole>;
};

export type ProjectRole =
  | 'ADMIN'
  | 'MEMBER'
  | 'VIEWER';

export type Query = {
  __typename?: 'Query';
  agent: Agent;
  conversation: Conversation;
  /** The thread’s active path with every part (text, reasoning, tool calls with their results, error cards, attachments as links), as JSON (docs/thread-export.md) or Markdown. A thread the viewer may not read is NOT_FOUND, like an unknown one. */
  exportThread: ThreadExport;
  /** The prices operators set, and for each model named in `models` without one, its default price when Parley knows one. */
  modelPrices: Array<ModelPrice>;
  node: Node;
  project: Project;
  queue: Queue;
  /** The viewer’s own threads whose title or active path’s text has every word of `query` (English and German word forms; the last word also as a prefix), title matches first, then by rank. Text on other branches is found once they are active again. A query without a word or over 200 characters, or `first` outside 1–50, is BAD_USER_INPUT. */
  searchThreads: ThreadSearchResults;
  /** The snapshot behind a share link, without signing in (rate-limited per client address like any anonymous query). An unknown, malformed or revoked token is one NotFoundError. */
  sharedThread: QuerySharedThreadResult;
  thread: Thread;
  /** A project’s model calls from `from` (inclusive) to `to` (exclusive, at most 366 days later), grouped as asked (no grouping: one row, or none without calls). Its admins read everyone’s; any other member their own. */
  usage: Array<UsageRow>;
  viewer: User;
};


export type QueryAgentArgs = {
  id: Scalars['ID']['input'];
};


export type QueryConversationArgs = {
  threadId: Scalars['ID']['input'];
};


export type QueryExportThreadArgs = {
  format: ThreadExportFormat;
  threadId: Scalars['ID']['input'];
};


export type QueryModelPricesArgs = {
  models?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


export type QueryProjectArgs = {
  id: Scalars['ID']['input'];
};


export type QueryQueueArgs = {
  threadId: Scalars['ID']['input'];
};


export type QuerySearchThreadsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  agentId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  query: Scalars['String']['input'];
};


export type QuerySharedThreadArgs = {
  token: Scalars['String']['input'];
};


export type QueryThreadArgs = {
  id: Scalars['ID']['input'];
};


export type QueryUsageArgs = {
  from: Scalars['DateTime']['input'];
  groupBy?: InputMaybe<Array<UsageGrouping>>;
  projectId: Scalars['ID']['input'];
  to: Scalars['DateTime']['input'];
};

export type QuerySharedThreadResult = NotFoundError | ThreadSnapshot;

/** Pending messages of a thread in their saved order. */
export type Queue = {
  __typename?: 'Queue';
  items: Array<QueueItem>;
  steerableExecutionId?: Maybe<Scalars['ID']['output']>;
  threadId: Scalars['ID']['output'];
};

/** The 409 of reorder: the pending order differs from expectedQueueIds (or an item started). */
export type QueueChangedError = Error & {
  __typename?: 'QueueChangedError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  currentQueueIds: Array<Scalars['ID']['output']>;
  message: Scalars['String']['output'];
};

export type QueueItem = Node & {
  __typename?: 'QueueItem';
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  position: Scalars['Int']['output'];
  /** Set while the item is reserved for steering into that running execution. */
  steeringExecutionId?: Maybe<Scalars['ID']['output']>;
  text: Scalars['String']['output'];
};

export type QueueItemRemoved = {
  __typename?: 'QueueItemRemoved';
  queueId: Scalars['ID']['output'];
};

/** The queue changed; read queue(threadId) again. */
export type QueueUpdated = RunEvent & {
  __typename?: 'QueueUpdated';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  threadId: Scalars['ID']['output'];
};

/** Too many mutations; wait retryAfterS seconds. */
export type RateLimitedError = Error & {
  __typename?: 'RateLimitedError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  retryAfterS: Scalars['Int']['output'];
};

/** Streamed reasoning (live only). */
export type ReasoningDelta = ExecutionEvent & RunEvent & {
  __typename?: 'ReasoningDelta';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  messageId: Scalars['ID']['output'];
  offset: Scalars['Int']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  text: Scalars['String']['output'];
  threadId: Scalars['ID']['output'];
};

export type ReasoningPart = {
  __typename?: 'ReasoningPart';
  text: Scalars['String']['output'];
};

/** A retryable failure; the next attempt starts after delayS. */
export type RetryScheduled = ExecutionEvent & RunEvent & {
  __typename?: 'RetryScheduled';
  attempt: Scalars['Int']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  delayS: Scalars['Float']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  reason: ErrorReason;
  threadId: Scalars['ID']['output'];
};

/** Every event of a thread. Select `cursor` here once: pass the last durable one (no dot) to `runEvents(after:)` to resume. */
export type RunEvent = {
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  threadId: Scalars['ID']['output'];
};

/** A run’s usage: its own model calls, its delegated children’s, and both. */
export type RunUsage = {
  __typename?: 'RunUsage';
  delegated: Usage;
  own: Usage;
  total: Usage;
};

/** Text around what matched, as plain text and as parts that mark the matched words; "…" where it was cut. */
export type SearchSnippet = {
  __typename?: 'SearchSnippet';
  parts: Array<SnippetPart>;
  /** The parts’ texts joined. */
  text: Scalars['String']['output'];
};

/** MessageQueued, or SuspensionResolved when the text answered the open question card instead; else a typed error. */
export type SendMessageResult = ConflictError | ForbiddenError | InvalidInputError | LimitExceededError | MessageQueued | NotFoundError | RateLimitedError | ServiceUnavailableError | SuspensionResolved;

export type ServerTool = {
  __typename?: 'ServerTool';
  annotations: ToolAnnotations;
  description: Scalars['String']['output'];
  inputSchema: Scalars['JSON']['output'];
  /** `<server>/<tool>`, as agents name it. */
  name: Scalars['String']['output'];
};

/** A service Parley depends on (the database) is unreachable, restarting or saturated; nothing was done. Send the same request again (same idempotency key) after retryAfterS seconds. */
export type ServiceUnavailableError = Error & {
  __typename?: 'ServiceUnavailableError';
  /** Also the `extensions.code` this error has as a GraphQL error. */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  retryAfterS: Scalars['Int']['output'];
  service: Scalars['String']['output'];
};

/** A read-only snapshot of a thread’s active path up to one message, readable by anyone with its url. */
export type ShareLink = {
  __typename?: 'ShareLink';
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** Whether readers of the link may see and download its files. */
  includeAttachments: Scalars['Boolean']['output'];
  /** The last message of the snapshot. */
  throughMessageId: Scalars['ID']['output'];
  /** The page’s path on this server (`/share/<token>`), prefix it with the server’s origin. Only in shareThread’s answer: the token is stored hashed, so it cannot be shown again. */
  url?: Maybe<Scalars['String']['output']>;
};

export type ShareLinkRevoked = {
  __typename?: 'ShareLinkRevoked';
  shareLinkId: Scalars['ID']['output'];
};

/** A message of a shared snapshot, as it was when it was shared. */
export type SnapshotMessage = {
  __typename?: 'SnapshotMessage';
  createdAt: Scalars['DateTime']['output'];
  parts: Array<MessagePart>;
  role: MessageRole;
};

/** A piece of a snippet, plain text: render each as text (never as markup), emphasised when highlighted. */
export type SnippetPart = {
  __typename?: 'SnippetPart';
  /** A word the query matched (as written, by its English or German stem, or by prefix). */
  highlighted: Scalars['Boolean']['output'];
  text: Scalars['String']['output'];
};

/** Marks where a steered message entered the running reply. */
export type SteeredInputPart = {
  __typename?: 'SteeredInputPart';
  queueId: Scalars['ID']['output'];
  text: Scalars['String']['output'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /** A thread’s events. With `after`, replays what came after that cursor first: nothing missed, nothing twice. */
  runEvents: RunEvent;
};


export type SubscriptionRunEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  threadId: Scalars['ID']['input'];
};

export type Suspension = Node & {
  __typename?: 'Suspension';
  createdAt: Scalars['DateTime']['output'];
  executionId: Scalars['ID']['output'];
  id: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  payload: Scalars['JSON']['output'];
  /** An ELICITATION card’s form: the flat JSON schema its tool server sent (null for other kinds). */
  requestedSchema?: Maybe<Scalars['JSON']['output']>;
  status: Scalars['String']['output'];
  toolCallId: Scalars['String']['output'];
  toolName: Scalars['String']['output'];
};

export type SuspensionDecision =
  | 'APPROVE'
  | 'DENY';

/** The execution waits for an approval or an answer. */
export type SuspensionOpened = ExecutionEvent & RunEvent & {
  __typename?: 'SuspensionOpened';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  payload: Scalars['JSON']['output'];
  suspensionId: Scalars['ID']['output'];
  threadId: Scalars['ID']['output'];
  toolCallId: Scalars['String']['output'];
};

/** An approval or question was answered (or cancelled with its execution). */
export type SuspensionResolved = ExecutionEvent & RunEvent & {
  __typename?: 'SuspensionResolved';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  resolution?: Maybe<Scalars['JSON']['output']>;
  suspensionId: Scalars['ID']['output'];
  threadId: Scalars['ID']['output'];
};

/** Streamed reply text (live only; a reload shows the recorded snapshot). */
export type TextDelta = ExecutionEvent & RunEvent & {
  __typename?: 'TextDelta';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  messageId: Scalars['ID']['output'];
  /** Characters of the message’s text before this delta. */
  offset: Scalars['Int']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  text: Scalars['String']['output'];
  threadId: Scalars['ID']['output'];
};

export type TextPart = {
  __typename?: 'TextPart';
  text: Scalars['String']['output'];
};

export type Thread = Node & {
  __typename?: 'Thread';
  agent: Agent;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  kind: ThreadKind;
  /** The last message sent, turn started, edit or branch switch; Agent.threads lists the newest first. */
  lastActivityAt: Scalars['DateTime']['output'];
  owner: User;
  /** The thread’s share links, newest first: its owner’s only (empty for anyone else). */
  shareLinks: Array<ShareLink>;
  title: Scalars['String']['output'];
  /** Every model call of the thread’s runs. */
  usage: Usage;
};

/** A summary now replaces, for the model, the messages before messageId (its CompactionPart says which and how); undone: they are sent again (uncompactThread). */
export type ThreadCompacted = RunEvent & {
  __typename?: 'ThreadCompacted';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  /** The message that holds the CompactionPart: the first one the model is still sent. */
  messageId: Scalars['ID']['output'];
  threadId: Scalars['ID']['output'];
  /** The last message the summary replaces. */
  throughMessageId: Scalars['ID']['output'];
  undone: Scalars['Boolean']['output'];
};

export type ThreadDeleted = {
  __typename?: 'ThreadDeleted';
  threadId: Scalars['ID']['output'];
};

/** A thread’s active path as a file: save `content` as `fileName` (e.g. a Blob with `mediaType`). */
export type ThreadExport = {
  __typename?: 'ThreadExport';
  content: Scalars['String']['output'];
  fileName: Scalars['String']['output'];
  mediaType: Scalars['String']['output'];
};

export type ThreadExportFormat =
  /** The versioned JSON of docs/thread-export.md, which importThread reads. */
  | 'JSON'
  /** For people: the same messages and parts as Markdown. */
  | 'MARKDOWN';

export type ThreadKind =
  /** Visible to the project’s members. */
  | 'SHARED'
  /** Private to its owner: other users can neither read nor act on it. */
  | 'TEST';

/** A thread of the viewer that matched, with its best-matching message on the active path. */
export type ThreadSearchHit = {
  __typename?: 'ThreadSearchHit';
  /** Pass as `after` for the hits after this one. */
  cursor: Scalars['String']['output'];
  message?: Maybe<Message>;
  /** The best-matching message of the active path; null when only the title matched. */
  messageId?: Maybe<Scalars['ID']['output']>;
  /** The message’s text around its first match. */
  snippet?: Maybe<SearchSnippet>;
  thread: Thread;
  threadId: Scalars['ID']['output'];
  /** The whole title, its matched words highlighted. */
  title: SearchSnippet;
  /** The title has a matched word; such hits come first. */
  titleMatched: Scalars['Boolean']['output'];
};

export type ThreadSearchResults = {
  __typename?: 'ThreadSearchResults';
  /** The last hit’s cursor: `after` for the next page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hits: Array<ThreadSearchHit>;
};

/** What a share link shows: the thread’s title, its agent’s name and its messages up to the shared one, nothing else. */
export type ThreadSnapshot = {
  __typename?: 'ThreadSnapshot';
  agentName: Scalars['String']['output'];
  messages: Array<SnapshotMessage>;
  sharedAt: Scalars['DateTime']['output'];
  title: Scalars['String']['output'];
};

/** The MCP annotations the server gives its tool (hints, not guarantees). */
export type ToolAnnotations = {
  __typename?: 'ToolAnnotations';
  destructiveHint?: Maybe<Scalars['Boolean']['output']>;
  idempotentHint?: Maybe<Scalars['Boolean']['output']>;
  openWorldHint?: Maybe<Scalars['Boolean']['output']>;
  readOnlyHint?: Maybe<Scalars['Boolean']['output']>;
  title?: Maybe<Scalars['String']['output']>;
};

/** ALWAYS: each call waits for the user’s approval (the default); NEVER: calls run at once. */
export type ToolApproval =
  | 'ALWAYS'
  | 'NEVER';

export type ToolApprovalInput = {
  approval: ToolApproval;
  /** `<server>/<tool>` or `<server>/*`. */
  tool: Scalars['String']['input'];
};

export type ToolApprovalRule = {
  __typename?: 'ToolApprovalRule';
  approval: ToolApproval;
  /** `<server>/<tool>` or `<server>/*`. */
  tool: Scalars['String']['output'];
};

/** A tool call was made or changed state. */
export type ToolCallEvent = ExecutionEvent & RunEvent & {
  __typename?: 'ToolCallEvent';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  durationMs?: Maybe<Scalars['Int']['output']>;
  error?: Maybe<Scalars['String']['output']>;
  executionId: Scalars['ID']['output'];
  input?: Maybe<Scalars['JSON']['output']>;
  messageId: Scalars['ID']['output'];
  output?: Maybe<Scalars['JSON']['output']>;
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  state: ToolCallState;
  threadId: Scalars['ID']['output'];
  toolCallId: Scalars['String']['output'];
  toolName: Scalars['String']['output'];
};

export type ToolCallPart = {
  __typename?: 'ToolCallPart';
  durationMs?: Maybe<Scalars['Int']['output']>;
  /** Why a FAILED call failed, as the model was told. */
  error?: Maybe<Scalars['String']['output']>;
  input?: Maybe<Scalars['JSON']['output']>;
  /** A tool server’s call: `{ text, truncated }`, with `attachments` (`attachmentId`, `filename`, `mediaType`, `size`, `downloadPath`) when files of its result were kept as attachments of the reply. */
  output?: Maybe<Scalars['JSON']['output']>;
  /** The last progress the tool server reported while the call ran (live: ToolCallProgress events); null when it reported none. */
  progress?: Maybe<ToolProgress>;
  state: ToolCallState;
  toolCallId: Scalars['String']['output'];
  toolName: Scalars['String']['output'];
};

/** A running tool call’s server reported progress (live only, coalesced like text deltas: the latest within a window; a reload shows the last one on its ToolCallPart). */
export type ToolCallProgress = ExecutionEvent & RunEvent & {
  __typename?: 'ToolCallProgress';
  createdAt: Scalars['DateTime']['output'];
  /** Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection. */
  cursor: Scalars['String']['output'];
  executionId: Scalars['ID']['output'];
  messageId: Scalars['ID']['output'];
  /** Set on a delegated child’s events: the execution whose reply shows the child’s card. */
  parentExecutionId?: Maybe<Scalars['ID']['output']>;
  progress: ToolProgress;
  threadId: Scalars['ID']['output'];
  toolCallId: Scalars['String']['output'];
};

export type ToolCallState =
  | 'AWAITING_ANSWER'
  | 'AWAITING_APPROVAL'
  | 'CALLED'
  | 'CANCELLED'
  | 'DENIED'
  | 'FAILED'
  | 'INTERRUPTED'
  | 'SUCCEEDED';

/** How far a running tool call has got, as its tool server reported it (MCP progress notifications). */
export type ToolProgress = {
  __typename?: 'ToolProgress';
  /** What the server says it is doing, in its own words. */
  message?: Maybe<Scalars['String']['output']>;
  /** Grows with each report; a fraction of `total` when there is one. */
  progress: Scalars['Float']['output'];
  /** Null when the server does not know the total. */
  total?: Maybe<Scalars['Float']['output']>;
};

/** An MCP server whose tools the project’s agents may use. Header values are write-only. */
export type ToolServer = Node & {
  __typename?: 'ToolServer';
  /** The names of the headers sent; their values are never shown. */
  headerNames: Array<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  lastError?: Maybe<Scalars['String']['output']>;
  /** When the last of `reconnects` happened. */
  lastReconnectAt?: Maybe<Scalars['DateTime']['output']>;
  name: Scalars['String']['output'];
  /** Declared by the operator (PARLEY_TOOL_SERVERS_FILE): refreshed through the API, never changed or removed through it. */
  operatorDeclared: Scalars['Boolean']['output'];
  /** Times the server lost Parley’s session (it restarted) and a new one was opened to retry a call the server had refused unrun, on any instance. */
  reconnects: Scalars['Int']['output'];
  status: ToolServerStatus;
  /** null: PARLEY_TOOL_TIMEOUT_MS. */
  timeoutMs?: Maybe<Scalars['Int']['output']>;
  /** As last listed by the server. */
  tools: Array<ServerTool>;
  transport: ToolServerTransport;
  /** HTTP: the MCP endpoint; STDIO: `stdio:<command>` (never its arguments or environment). */
  url: Scalars['String']['output'];
};

/** A header sent with every request to the server (e.g. Authorization); its value is stored encrypted. */
export type ToolServerHeaderInput = {
  name: Scalars['String']['input'];
  value: Scalars['String']['input'];
};

export type ToolServerRemoved = {
  __typename?: 'ToolServerRemoved';
  toolServerId: Scalars['ID']['output'];
};

/** As this server’s instances last saw it: CONNECTED (tools listed), UNAVAILABLE, UNAUTHORIZED (HTTP 401/403). */
export type ToolServerStatus =
  | 'CONNECTED'
  | 'UNAUTHORIZED'
  | 'UNAVAILABLE';

/** HTTP: MCP over streamable HTTP (or HTTP+SSE), added by a project’s admins; STDIO: a command the operator declares in PARLEY_TOOL_SERVERS_FILE. */
export type ToolServerTransport =
  | 'HTTP'
  | 'STDIO';

/** Tokens by kind and cost, summed over model calls. inputTokens and outputTokens are totals; cached input, cache writes and reasoning are among them. */
export type Usage = {
  __typename?: 'Usage';
  /** Input written to the provider’s prompt cache. */
  cacheWriteTokens: Scalars['Int']['output'];
  /** Input read from the provider’s prompt cache. */
  cachedInputTokens: Scalars['Int']['output'];
  /** What the calls cost; null when any of them had no price (see pricedCost), never a made-up zero. */
  cost?: Maybe<Money>;
  inputTokens: Scalars['Int']['output'];
  modelCalls: Scalars['Int']['output'];
  outputTokens: Scalars['Int']['output'];
  /** What the priced calls cost. */
  pricedCost: Money;
  reasoningTokens: Scalars['Int']['output'];
  /** Calls of models without a price: their cost is unknown. */
  unpricedCalls: Scalars['Int']['output'];
};

export type UsageGrouping =
  | 'AGENT'
  | 'DAY'
  | 'MODEL'
  | 'MONTH'
  | 'USER';

/** A project’s usage for one value of each grouping asked for (days and months in UTC); the keys not grouped by are null. */
export type UsageRow = {
  __typename?: 'UsageRow';
  /** Null when grouped otherwise, or when the agent was deleted since (agentId stays). */
  agent?: Maybe<Agent>;
  agentId?: Maybe<Scalars['ID']['output']>;
  /** YYYY-MM-DD */
  day?: Maybe<Scalars['String']['output']>;
  model?: Maybe<Scalars['String']['output']>;
  /** YYYY-MM */
  month?: Maybe<Scalars['String']['output']>;
  usage: Usage;
  user?: Maybe<User>;
  userId?: Maybe<Scalars['ID']['output']>;
};

export type User = Node & {
  __typename?: 'User';
  /** The viewer’s own API tokens (empty for any other user). */
  apiTokens: Array<ApiToken>;
  createdAt: Scalars['DateTime']['output'];
  /** When an admin disabled the user (seen by an admin credential only; null otherwise). */
  disabledAt?: Maybe<Scalars['DateTime']['output']>;
  /** The viewer’s own email (any user’s, for an admin credential); null for any other user. */
  email?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  locale: Scalars['String']['output'];
  /** The user’s projects; of another user, only the projects the viewer belongs to as well. */
  projects: Array<Project>;
};

export type ThreadContextQueryVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type ThreadContextQuery = { __typename?: 'Query', conversation: { __typename?: 'Conversation', threadId: string, context: { __typename?: 'ConversationContext', usedTokens: number, windowTokens?: number | null, compactedThrough?: string | null } } };

export type CompactThreadNowMutationVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type CompactThreadNowMutation = { __typename?: 'Mutation', compactThread: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'Conversation', threadId: string, context: { __typename?: 'ConversationContext', usedTokens: number, windowTokens?: number | null, compactedThrough?: string | null } } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

type ClientErrorFields_ConflictError_Fragment = { __typename: 'ConflictError', message: string, code: string };

type ClientErrorFields_ForbiddenError_Fragment = { __typename: 'ForbiddenError', scope: string, message: string, code: string };

type ClientErrorFields_InvalidInputError_Fragment = { __typename: 'InvalidInputError', field: string, message: string, code: string };

type ClientErrorFields_LimitExceededError_Fragment = { __typename: 'LimitExceededError', message: string, code: string };

type ClientErrorFields_NotFoundError_Fragment = { __typename: 'NotFoundError', message: string, code: string };

type ClientErrorFields_QueueChangedError_Fragment = { __typename: 'QueueChangedError', currentQueueIds: Array<string>, message: string, code: string };

type ClientErrorFields_RateLimitedError_Fragment = { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string };

type ClientErrorFields_ServiceUnavailableError_Fragment = { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string };

export type ClientErrorFieldsFragment = ClientErrorFields_ConflictError_Fragment | ClientErrorFields_ForbiddenError_Fragment | ClientErrorFields_InvalidInputError_Fragment | ClientErrorFields_LimitExceededError_Fragment | ClientErrorFields_NotFoundError_Fragment | ClientErrorFields_QueueChangedError_Fragment | ClientErrorFields_RateLimitedError_Fragment | ClientErrorFields_ServiceUnavailableError_Fragment;

export type ClientFailureFieldsFragment = { __typename?: 'ExecutionError', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string };

export type ClientQueueFieldsFragment = { __typename?: 'Queue', threadId: string, steerableExecutionId?: string | null, items: Array<{ __typename?: 'QueueItem', id: string, text: string, position: number, steeringExecutionId?: string | null }> };

type ClientMessagePartFields_AttachmentPart_Fragment = { __typename: 'AttachmentPart', attachmentId: string, filename: string, mediaType: string, size: number };

type ClientMessagePartFields_CompactionPart_Fragment = { __typename: 'CompactionPart', summary: string, firstMessageId: string, throughMessageId: string, replacedMessages: number, model: string, undone: boolean };

type ClientMessagePartFields_DelegationPart_Fragment = { __typename: 'DelegationPart', toolCallId: string, childExecutionId: string, text: string, reasoning: string, truncated: boolean, error?: { __typename?: 'ExecutionError', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string } | null };

type ClientMessagePartFields_ErrorPart_Fragment = { __typename: 'ErrorPart', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string };

type ClientMessagePartFields_ReasoningPart_Fragment = { __typename: 'ReasoningPart', text: string };

type ClientMessagePartFields_SteeredInputPart_Fragment = { __typename: 'SteeredInputPart', queueId: string, text: string };

type ClientMessagePartFields_TextPart_Fragment = { __typename: 'TextPart', text: string };

type ClientMessagePartFields_ToolCallPart_Fragment = { __typename: 'ToolCallPart', toolCallId: string, toolName: string, state: ToolCallState, input?: unknown | null, output?: unknown | null, durationMs?: number | null, toolError?: string | null, progress?: { __typename?: 'ToolProgress', progress: number, total?: number | null, message?: string | null } | null };

export type ClientMessagePartFieldsFragment = ClientMessagePartFields_AttachmentPart_Fragment | ClientMessagePartFields_CompactionPart_Fragment | ClientMessagePartFields_DelegationPart_Fragment | ClientMessagePartFields_ErrorPart_Fragment | ClientMessagePartFields_ReasoningPart_Fragment | ClientMessagePartFields_SteeredInputPart_Fragment | ClientMessagePartFields_TextPart_Fragment | ClientMessagePartFields_ToolCallPart_Fragment;

export type ThreadConversationQueryVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type ThreadConversationQuery = { __typename?: 'Query', conversation: { __typename?: 'Conversation', threadId: string, eventCursor: string, activeExecutionId?: string | null, openSuspensions: Array<{ __typename?: 'Suspension', id: string, kind: string, status: string, executionId: string, toolCallId: string, toolName: string, payload: unknown }>, messages: { __typename?: 'ConversationMessagesConnection', edges: Array<{ __typename?: 'ConversationMessagesConnectionEdge', node: { __typename?: 'Message', id: string, role: MessageRole, executionId?: string | null, outcome?: ExecutionStatus | null, parentId?: string | null, siblingIds: Array<string>, parts: Array<{ __typename: 'AttachmentPart', attachmentId: string, filename: string, mediaType: string, size: number } | { __typename: 'CompactionPart', summary: string, firstMessageId: string, throughMessageId: string, replacedMessages: number, model: string, undone: boolean } | { __typename: 'DelegationPart', toolCallId: string, childExecutionId: string, text: string, reasoning: string, truncated: boolean, error?: { __typename?: 'ExecutionError', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string } | null } | { __typename: 'ErrorPart', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string } | { __typename: 'ReasoningPart', text: string } | { __typename: 'SteeredInputPart', queueId: string, text: string } | { __typename: 'TextPart', text: string } | { __typename: 'ToolCallPart', toolCallId: string, toolName: string, state: ToolCallState, input?: unknown | null, output?: unknown | null, durationMs?: number | null, toolError?: string | null, progress?: { __typename?: 'ToolProgress', progress: number, total?: number | null, message?: string | null } | null }> } }> } } };

export type ThreadQueueQueryVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type ThreadQueueQuery = { __typename?: 'Query', queue: { __typename?: 'Queue', threadId: string, steerableExecutionId?: string | null, items: Array<{ __typename?: 'QueueItem', id: string, text: string, position: number, steeringExecutionId?: string | null }> } };

export type ThreadRunEventsSubscriptionVariables = Exact<{
  threadId: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ThreadRunEventsSubscription = { __typename?: 'Subscription', runEvents: { __typename: 'BranchSwitched', leafMessageId?: string | null, cursor: string, threadId: string, createdAt: string } | { __typename: 'BudgetWarning', executionId: string, parentExecutionId?: string | null, budgetId: string, period: BudgetPeriod, perUser: boolean, warnAtPercent: number, cursor: string, threadId: string, createdAt: string, spent: { __typename?: 'Money', amount: string, currency: string }, amount: { __typename?: 'Money', amount: string, currency: string } } | { __typename: 'ErrorEvent', executionId: string, parentExecutionId?: string | null, reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string, cursor: string, threadId: string, createdAt: string } | { __typename: 'ExecutionFinished', executionId: string, parentExecutionId?: string | null, status: ExecutionStatus, cursor: string, threadId: string, createdAt: string } | { __typename: 'ExecutionStarted', executionId: string, parentExecutionId?: string | null, queueId: string, acceptedText: string, userMessageId: string, cursor: string, threadId: string, createdAt: string } | { __typename: 'ExecutionUpdated', executionId: string, parentExecutionId?: string | null, status: ExecutionStatus, cursor: string, threadId: string, createdAt: string } | { __typename: 'MessageQueued', queueId: string, text: string, cursor: string, threadId: string, createdAt: string } | { __typename: 'MessageSnapshot', executionId: string, parentExecutionId?: string | null, messageId: string, textLength: number, cursor: string, threadId: string, createdAt: string, parts: Array<{ __typename: 'AttachmentPart', attachmentId: string, filename: string, mediaType: string, size: number } | { __typename: 'CompactionPart', summary: string, firstMessageId: string, throughMessageId: string, replacedMessages: number, model: string, undone: boolean } | { __typename: 'DelegationPart', toolCallId: string, childExecutionId: string, text: string, reasoning: string, truncated: boolean, error?: { __typename?: 'ExecutionError', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string } | null } | { __typename: 'ErrorPart', reason: ErrorReason, retryable: boolean, retryAfterS?: number | null, occurredAt: string, message: string, messageKey: string, params: unknown, provider?: string | null, httpStatus?: number | null, providerCode?: string | null, requestId?: string | null, detail: string } | { __typename: 'ReasoningPart', text: string } | { __typename: 'SteeredInputPart', queueId: string, text: string } | { __typename: 'TextPart', text: string } | { __typename: 'ToolCallPart', toolCallId: string, toolName: string, state: ToolCallState, input?: unknown | null, output?: unknown | null, durationMs?: number | null, toolError?: string | null, progress?: { __typename?: 'ToolProgress', progress: number, total?: number | null, message?: string | null } | null }> } | { __typename: 'MessageSteered', executionId: string, parentExecutionId?: string | null, queueIds: Array<string>, texts: Array<string>, cursor: string, threadId: string, createdAt: string } | { __typename: 'QueueUpdated', cursor: string, threadId: string, createdAt: string } | { __typename: 'ReasoningDelta', executionId: string, parentExecutionId?: string | null, text: string, offset: number, cursor: string, threadId: string, createdAt: string } | { __typename: 'RetryScheduled', executionId: string, parentExecutionId?: string | null, attempt: number, delayS: number, reason: ErrorReason, cursor: string, threadId: string, createdAt: string } | { __typename: 'SuspensionOpened', executionId: string, parentExecutionId?: string | null, suspensionId: string, kind: string, toolCallId: string, payload: unknown, cursor: string, threadId: string, createdAt: string } | { __typename: 'SuspensionResolved', executionId: string, parentExecutionId?: string | null, suspensionId: string, resolution?: unknown | null, cursor: string, threadId: string, createdAt: string } | { __typename: 'TextDelta', executionId: string, parentExecutionId?: string | null, messageId: string, text: string, offset: number, cursor: string, threadId: string, createdAt: string } | { __typename: 'ThreadCompacted', messageId: string, throughMessageId: string, undone: boolean, cursor: string, threadId: string, createdAt: string } | { __typename: 'ToolCallEvent', executionId: string, parentExecutionId?: string | null, messageId: string, toolCallId: string, toolName: string, state: ToolCallState, input?: unknown | null, output?: unknown | null, error?: string | null, durationMs?: number | null, cursor: string, threadId: string, createdAt: string } | { __typename: 'ToolCallProgress', executionId: string, parentExecutionId?: string | null, messageId: string, toolCallId: string, cursor: string, threadId: string, createdAt: string, progress: { __typename?: 'ToolProgress', progress: number, total?: number | null, message?: string | null } } };

export type SendThreadMessageMutationVariables = Exact<{
  threadId: Scalars['ID']['input'];
  text: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  attachments?: InputMaybe<Array<Scalars['File']['input']> | Scalars['File']['input']>;
}>;


export type SendThreadMessageMutation = { __typename?: 'Mutation', sendMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'LimitExceededError', message: string, code: string } | { __typename: 'MessageQueued', queueId: string, threadId: string, cursor: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'SuspensionResolved', suspensionId: string, executionId: string, cursor: string } };

export type EditQueuedMutationVariables = Exact<{
  queueId: Scalars['ID']['input'];
  text: Scalars['String']['input'];
}>;


export type EditQueuedMutation = { __typename?: 'Mutation', editQueuedMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'QueueItem', id: string, text: string, position: number, steeringExecutionId?: string | null } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type RemoveQueuedMutationVariables = Exact<{
  queueId: Scalars['ID']['input'];
}>;


export type RemoveQueuedMutation = { __typename?: 'Mutation', removeQueuedMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'QueueItemRemoved', queueId: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type ReorderQueuedMutationVariables = Exact<{
  queueId: Scalars['ID']['input'];
  targetQueueId: Scalars['ID']['input'];
  expectedQueueIds: Array<Scalars['ID']['input']> | Scalars['ID']['input'];
}>;


export type ReorderQueuedMutation = { __typename?: 'Mutation', reorderQueuedMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'Queue', threadId: string, steerableExecutionId?: string | null, items: Array<{ __typename?: 'QueueItem', id: string, text: string, position: number, steeringExecutionId?: string | null }> } | { __typename: 'QueueChangedError', currentQueueIds: Array<string>, message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type SteerQueuedMutationVariables = Exact<{
  queueId: Scalars['ID']['input'];
  executionId: Scalars['ID']['input'];
}>;


export type SteerQueuedMutation = { __typename?: 'Mutation', steerQueuedMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'QueueItem', id: string, text: string, position: number, steeringExecutionId?: string | null } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type StopExecutionMutationVariables = Exact<{
  executionId: Scalars['ID']['input'];
}>;


export type StopExecutionMutation = { __typename?: 'Mutation', cancelExecution: { __typename: 'CancelRequested', executionId: string, cancelRequested: boolean } | { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type ResolveCardMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  decision?: InputMaybe<SuspensionDecision>;
  answer?: InputMaybe<Scalars['String']['input']>;
  allowInThread?: InputMaybe<Scalars['Boolean']['input']>;
  elicitation?: InputMaybe<ElicitationResponseInput>;
}>;


export type ResolveCardMutation = { __typename?: 'Mutation', resolveSuspension: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'SuspensionResolved', suspensionId: string, executionId: string, cursor: string } };

export type RetryTurnMutationVariables = Exact<{
  executionId: Scalars['ID']['input'];
}>;


export type RetryTurnMutation = { __typename?: 'Mutation', retryExecution: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'MessageQueued', queueId: string, threadId: string, cursor: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type EditSentMessageMutationVariables = Exact<{
  messageId: Scalars['ID']['input'];
  text: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  threadId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type EditSentMessageMutation = { __typename?: 'Mutation', editMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'LimitExceededError', message: string, code: string } | { __typename: 'MessageQueued', queueId: string, threadId: string, cursor: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type RegenerateReplyMutationVariables = Exact<{
  messageId: Scalars['ID']['input'];
  threadId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type RegenerateReplyMutation = { __typename?: 'Mutation', regenerateMessage: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'LimitExceededError', message: string, code: string } | { __typename: 'MessageQueued', queueId: string, threadId: string, cursor: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type SwitchThreadBranchMutationVariables = Exact<{
  messageId: Scalars['ID']['input'];
  threadId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type SwitchThreadBranchMutation = { __typename?: 'Mutation', switchBranch: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'Conversation', threadId: string, eventCursor: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type RenameThreadTitleMutationVariables = Exact<{
  threadId: Scalars['ID']['input'];
  title: Scalars['String']['input'];
}>;


export type RenameThreadTitleMutation = { __typename?: 'Mutation', renameThread: { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'Thread', id: string, title: string, lastActivityAt: string } };

export type DeleteThreadForGoodMutationVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type DeleteThreadForGoodMutation = { __typename?: 'Mutation', deleteThread: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'ThreadDeleted', threadId: string } };

export type AppViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type AppViewerQuery = { __typename?: 'Query', viewer: { __typename?: 'User', id: string, email?: string | null, locale: string, projects: Array<{ __typename?: 'Project', id: string, name: string, viewerRole?: ProjectRole | null, agents: Array<{ __typename?: 'Agent', id: string, name: string, model: string }> }> } };

export type AgentThreadsQueryVariables = Exact<{
  agentId: Scalars['ID']['input'];
}>;


export type AgentThreadsQuery = { __typename?: 'Query', agent: { __typename?: 'Agent', id: string, threads: { __typename?: 'AgentThreadsConnection', edges: Array<{ __typename?: 'AgentThreadsConnectionEdge', node: { __typename?: 'Thread', id: string, title: string, createdAt: string, lastActivityAt: string } }> } } };

export type ThreadSummaryQueryVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type ThreadSummaryQuery = { __typename?: 'Query', thread: { __typename?: 'Thread', id: string, title: string, createdAt: string, agent: { __typename?: 'Agent', id: string } } };

export type StartThreadMutationVariables = Exact<{
  agentId: Scalars['ID']['input'];
  title?: InputMaybe<Scalars['String']['input']>;
}>;


export type StartThreadMutation = { __typename?: 'Mutation', createThread: { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'LimitExceededError', message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'Thread', id: string, title: string, createdAt: string } };

export type ThreadSearchQueryVariables = Exact<{
  query: Scalars['String']['input'];
  agentId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ThreadSearchQuery = { __typename?: 'Query', searchThreads: { __typename?: 'ThreadSearchResults', hasNextPage: boolean, endCursor?: string | null, hits: Array<{ __typename?: 'ThreadSearchHit', cursor: string, threadId: string, messageId?: string | null, titleMatched: boolean, title: { __typename?: 'SearchSnippet', text: string, parts: Array<{ __typename?: 'SnippetPart', text: string, highlighted: boolean }> }, snippet?: { __typename?: 'SearchSnippet', text: string, parts: Array<{ __typename?: 'SnippetPart', text: string, highlighted: boolean }> } | null }> } };

export type ShareThreadLinkMutationVariables = Exact<{
  threadId: Scalars['ID']['input'];
  throughMessageId: Scalars['ID']['input'];
  includeAttachments?: InputMaybe<Scalars['Boolean']['input']>;
}>;


export type ShareThreadLinkMutation = { __typename?: 'Mutation', shareThread: { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'ShareLink', id: string, url?: string | null, createdAt: string, throughMessageId: string, includeAttachments: boolean } };

export type ThreadShareLinkListQueryVariables = Exact<{
  threadId: Scalars['ID']['input'];
}>;


export type ThreadShareLinkListQuery = { __typename?: 'Query', thread: { __typename?: 'Thread', id: string, shareLinks: Array<{ __typename?: 'ShareLink', id: string, createdAt: string, throughMessageId: string, includeAttachments: boolean }> } };

export type RevokeThreadShareLinkMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RevokeThreadShareLinkMutation = { __typename?: 'Mutation', revokeShareLink: { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'ShareLinkRevoked', shareLinkId: string } };

export type SharedSnapshotQueryVariables = Exact<{
  token: Scalars['String']['input'];
}>;


export type SharedSnapshotQuery = { __typename?: 'Query', sharedThread: { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'ThreadSnapshot', title: string, agentName: string, sharedAt: string, messages: Array<{ __typename?: 'SnapshotMessage', role: MessageRole, createdAt: string, parts: Array<{ __typename: 'AttachmentPart', attachmentId: string, filename: string, mediaType: string, size: number, downloadPath: string } | { __typename: 'CompactionPart' } | { __typename: 'DelegationPart', toolCallId: string, text: string } | { __typename: 'ErrorPart' } | { __typename: 'ReasoningPart', text: string } | { __typename: 'SteeredInputPart', text: string } | { __typename: 'TextPart', text: string } | { __typename: 'ToolCallPart', toolCallId: string, toolName: string, state: ToolCallState }> }> } };

export type ClientToolServerFieldsFragment = { __typename: 'ToolServer', id: string, name: string, url: string, transport: ToolServerTransport, status: ToolServerStatus, lastError?: string | null, headerNames: Array<string>, timeoutMs?: number | null, operatorDeclared: boolean, reconnects: number, lastReconnectAt?: string | null, tools: Array<{ __typename?: 'ServerTool', name: string, description: string }> };

export type ProjectToolServersQueryVariables = Exact<{
  projectId: Scalars['ID']['input'];
}>;


export type ProjectToolServersQuery = { __typename?: 'Query', project: { __typename?: 'Project', id: string, name: string, viewerRole?: ProjectRole | null, toolServers: Array<{ __typename: 'ToolServer', id: string, name: string, url: string, transport: ToolServerTransport, status: ToolServerStatus, lastError?: string | null, headerNames: Array<string>, timeoutMs?: number | null, operatorDeclared: boolean, reconnects: number, lastReconnectAt?: string | null, tools: Array<{ __typename?: 'ServerTool', name: string, description: string }> }> } };

export type AddToolServerMutationVariables = Exact<{
  projectId: Scalars['ID']['input'];
  name: Scalars['String']['input'];
  url: Scalars['String']['input'];
  headers?: InputMaybe<Array<ToolServerHeaderInput> | ToolServerHeaderInput>;
  timeoutMs?: InputMaybe<Scalars['Int']['input']>;
}>;


export type AddToolServerMutation = { __typename?: 'Mutation', addToolServer: { __typename: 'ConflictError', message: string, code: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'ToolServer', id: string, name: string, url: string, transport: ToolServerTransport, status: ToolServerStatus, lastError?: string | null, headerNames: Array<string>, timeoutMs?: number | null, operatorDeclared: boolean, reconnects: number, lastReconnectAt?: string | null, tools: Array<{ __typename?: 'ServerTool', name: string, description: string }> } };

export type RefreshToolServerMutationVariables = Exact<{
  toolServerId: Scalars['ID']['input'];
}>;


export type RefreshToolServerMutation = { __typename?: 'Mutation', refreshToolServer: { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'ToolServer', id: string, name: string, url: string, transport: ToolServerTransport, status: ToolServerStatus, lastError?: string | null, headerNames: Array<string>, timeoutMs?: number | null, operatorDeclared: boolean, reconnects: number, lastReconnectAt?: string | null, tools: Array<{ __typename?: 'ServerTool', name: string, description: string }> } };

export type RemoveToolServerMutationVariables = Exact<{
  toolServerId: Scalars['ID']['input'];
}>;


export type RemoveToolServerMutation = { __typename?: 'Mutation', removeToolServer: { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } | { __typename: 'ToolServerRemoved', toolServerId: string } };

export type ClientUsageFieldsFragment = { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } };

export type ReplyUsageQueryVariables = Exact<{
  executionId: Scalars['ID']['input'];
}>;


export type ReplyUsageQuery = { __typename?: 'Query', node: { __typename: 'Agent', id: string } | { __typename: 'Execution', id: string, usage: { __typename?: 'RunUsage', total: { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } }, delegated: { __typename?: 'Usage', modelCalls: number } } } | { __typename: 'Message', id: string } | { __typename: 'Project', id: string } | { __typename: 'QueueItem', id: string } | { __typename: 'Suspension', id: string } | { __typename: 'Thread', id: string } | { __typename: 'ToolServer', id: string } | { __typename: 'User', id: string } };

export type ProjectUsageReportQueryVariables = Exact<{
  projectId: Scalars['ID']['input'];
  from: Scalars['DateTime']['input'];
  to: Scalars['DateTime']['input'];
}>;


export type ProjectUsageReportQuery = { __typename?: 'Query', viewer: { __typename?: 'User', id: string, email?: string | null }, total: Array<{ __typename?: 'UsageRow', usage: { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } } }>, byDay: Array<{ __typename?: 'UsageRow', day?: string | null, usage: { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } } }>, byUser: Array<{ __typename?: 'UsageRow', userId?: string | null, user?: { __typename?: 'User', id: string, email?: string | null } | null, usage: { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } } }>, byModel: Array<{ __typename?: 'UsageRow', model?: string | null, usage: { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } } }>, byAgent: Array<{ __typename?: 'UsageRow', agentId?: string | null, agent?: { __typename?: 'Agent', id: string, name: string } | null, usage: { __typename?: 'Usage', inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, outputTokens: number, reasoningTokens: number, modelCalls: number, unpricedCalls: number, cost?: { __typename?: 'Money', amount: string, currency: string } | null, pricedCost: { __typename?: 'Money', amount: string, currency: string } } }> };

export type ProjectBudgetsReportQueryVariables = Exact<{
  projectId: Scalars['ID']['input'];
}>;


export type ProjectBudgetsReportQuery = { __typename?: 'Query', project: { __typename?: 'Project', id: string, agents: Array<{ __typename?: 'Agent', id: string, name: string }>, budgets: Array<{ __typename?: 'Budget', id: string, agentId?: string | null, perUser: boolean, period: BudgetPeriod, warnAtPercent: number, resetsAt: string, agent?: { __typename?: 'Agent', id: string, name: string } | null, amount: { __typename?: 'Money', amount: string, currency: string }, spent: { __typename?: 'Money', amount: string, currency: string } }> } };

export type SetProjectBudgetMutationVariables = Exact<{
  projectId: Scalars['ID']['input'];
  agentId?: InputMaybe<Scalars['ID']['input']>;
  perUser: Scalars['Boolean']['input'];
  period: BudgetPeriod;
  amount: Scalars['String']['input'];
}>;


export type SetProjectBudgetMutation = { __typename?: 'Mutation', setBudget: { __typename: 'Budget', id: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export type RemoveProjectBudgetMutationVariables = Exact<{
  budgetId: Scalars['ID']['input'];
}>;


export type RemoveProjectBudgetMutation = { __typename?: 'Mutation', removeBudget: { __typename: 'BudgetRemoved', budgetId: string } | { __typename: 'ForbiddenError', scope: string, message: string, code: string } | { __typename: 'InvalidInputError', field: string, message: string, code: string } | { __typename: 'NotFoundError', message: string, code: string } | { __typename: 'RateLimitedError', retryAfterS: number, message: string, code: string } | { __typename: 'ServiceUnavailableError', retryAfterS: number, message: string, code: string } };

export const ClientErrorFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<ClientErrorFieldsFragment, unknown>;
export const ClientQueueFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientQueueFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Queue"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"steerableExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"steeringExecutionId"}}]}}]}}]} as unknown as DocumentNode<ClientQueueFieldsFragment, unknown>;
export const ClientFailureFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientFailureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}}]} as unknown as DocumentNode<ClientFailureFieldsFragment, unknown>;
export const ClientMessagePartFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientMessagePartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessagePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SteeredInputPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttachmentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attachmentId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"size"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","alias":{"kind":"Name","value":"toolError"},"name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DelegationPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"childExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"reasoning"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientFailureFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErrorPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CompactionPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"firstMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"throughMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"replacedMessages"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"undone"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientFailureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}}]} as unknown as DocumentNode<ClientMessagePartFieldsFragment, unknown>;
export const ClientToolServerFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientToolServerFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolServer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"headerNames"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeclared"}},{"kind":"Field","name":{"kind":"Name","value":"reconnects"}},{"kind":"Field","name":{"kind":"Name","value":"lastReconnectAt"}},{"kind":"Field","name":{"kind":"Name","value":"tools"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]} as unknown as DocumentNode<ClientToolServerFieldsFragment, unknown>;
export const ClientUsageFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientUsageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Usage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cachedInputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheWriteTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"modelCalls"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"cost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricedCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]} as unknown as DocumentNode<ClientUsageFieldsFragment, unknown>;
export const ThreadContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"context"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usedTokens"}},{"kind":"Field","name":{"kind":"Name","value":"windowTokens"}},{"kind":"Field","name":{"kind":"Name","value":"compactedThrough"}}]}}]}}]}}]} as unknown as DocumentNode<ThreadContextQuery, ThreadContextQueryVariables>;
export const CompactThreadNowDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CompactThreadNow"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compactThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Conversation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"context"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usedTokens"}},{"kind":"Field","name":{"kind":"Name","value":"windowTokens"}},{"kind":"Field","name":{"kind":"Name","value":"compactedThrough"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<CompactThreadNowMutation, CompactThreadNowMutationVariables>;
export const ThreadConversationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadConversation"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"eventCursor"}},{"kind":"Field","name":{"kind":"Name","value":"activeExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"openSuspensions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"executionId"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"150"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"executionId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"siblingIds"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientMessagePartFields"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientFailureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientMessagePartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessagePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SteeredInputPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttachmentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attachmentId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"size"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","alias":{"kind":"Name","value":"toolError"},"name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DelegationPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"childExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"reasoning"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientFailureFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErrorPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CompactionPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"firstMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"throughMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"replacedMessages"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"undone"}}]}}]}}]} as unknown as DocumentNode<ThreadConversationQuery, ThreadConversationQueryVariables>;
export const ThreadQueueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientQueueFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientQueueFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Queue"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"steerableExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"steeringExecutionId"}}]}}]}}]} as unknown as DocumentNode<ThreadQueueQuery, ThreadQueueQueryVariables>;
export const ThreadRunEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ThreadRunEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"executionId"}},{"kind":"Field","name":{"kind":"Name","value":"parentExecutionId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageQueued"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionStarted"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"acceptedText"}},{"kind":"Field","name":{"kind":"Name","value":"userMessageId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextDelta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningDelta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageSnapshot"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"textLength"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientMessagePartFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageSteered"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueIds"}},{"kind":"Field","name":{"kind":"Name","value":"texts"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallProgress"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SuspensionOpened"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"suspensionId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SuspensionResolved"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"suspensionId"}},{"kind":"Field","name":{"kind":"Name","value":"resolution"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RetryScheduled"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"delayS"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErrorEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionFinished"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionUpdated"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BranchSwitched"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leafMessageId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ThreadCompacted"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"throughMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"undone"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BudgetWarning"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"budgetId"}},{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"perUser"}},{"kind":"Field","name":{"kind":"Name","value":"warnAtPercent"}},{"kind":"Field","name":{"kind":"Name","value":"spent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientFailureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExecutionError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientMessagePartFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessagePart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SteeredInputPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttachmentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attachmentId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"size"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","alias":{"kind":"Name","value":"toolError"},"name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DelegationPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"childExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"reasoning"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientFailureFields"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ErrorPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageKey"}},{"kind":"Field","name":{"kind":"Name","value":"params"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"providerCode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CompactionPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"firstMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"throughMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"replacedMessages"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"undone"}}]}}]}}]} as unknown as DocumentNode<ThreadRunEventsSubscription, ThreadRunEventsSubscriptionVariables>;
export const SendThreadMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendThreadMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"attachments"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"File"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"attachments"},"value":{"kind":"Variable","name":{"kind":"Name","value":"attachments"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageQueued"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SuspensionResolved"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"suspensionId"}},{"kind":"Field","name":{"kind":"Name","value":"executionId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<SendThreadMessageMutation, SendThreadMessageMutationVariables>;
export const EditQueuedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EditQueued"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"editQueuedMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queueId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"steeringExecutionId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<EditQueuedMutation, EditQueuedMutationVariables>;
export const RemoveQueuedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveQueued"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeQueuedMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queueId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueItemRemoved"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RemoveQueuedMutation, RemoveQueuedMutationVariables>;
export const ReorderQueuedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReorderQueued"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetQueueId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedQueueIds"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reorderQueuedMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queueId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}}},{"kind":"Argument","name":{"kind":"Name","value":"targetQueueId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetQueueId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedQueueIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedQueueIds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientQueueFields"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientQueueFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Queue"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"steerableExecutionId"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"steeringExecutionId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<ReorderQueuedMutation, ReorderQueuedMutationVariables>;
export const SteerQueuedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SteerQueued"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"steerQueuedMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queueId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queueId"}}},{"kind":"Argument","name":{"kind":"Name","value":"executionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"steeringExecutionId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<SteerQueuedMutation, SteerQueuedMutationVariables>;
export const StopExecutionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StopExecution"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelExecution"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"executionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CancelRequested"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"executionId"}},{"kind":"Field","name":{"kind":"Name","value":"cancelRequested"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<StopExecutionMutation, StopExecutionMutationVariables>;
export const ResolveCardDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ResolveCard"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"decision"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SuspensionDecision"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"answer"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allowInThread"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"elicitation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ElicitationResponseInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resolveSuspension"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"decision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"decision"}}},{"kind":"Argument","name":{"kind":"Name","value":"answer"},"value":{"kind":"Variable","name":{"kind":"Name","value":"answer"}}},{"kind":"Argument","name":{"kind":"Name","value":"allowInThread"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allowInThread"}}},{"kind":"Argument","name":{"kind":"Name","value":"elicitation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"elicitation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SuspensionResolved"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"suspensionId"}},{"kind":"Field","name":{"kind":"Name","value":"executionId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<ResolveCardMutation, ResolveCardMutationVariables>;
export const RetryTurnDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetryTurn"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryExecution"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"executionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageQueued"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RetryTurnMutation, RetryTurnMutationVariables>;
export const EditSentMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EditSentMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"editMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageQueued"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<EditSentMessageMutation, EditSentMessageMutationVariables>;
export const RegenerateReplyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegenerateReply"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"regenerateMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageQueued"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"queueId"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RegenerateReplyMutation, RegenerateReplyMutationVariables>;
export const SwitchThreadBranchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SwitchThreadBranch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"switchBranch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"messageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Conversation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"eventCursor"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<SwitchThreadBranchMutation, SwitchThreadBranchMutationVariables>;
export const RenameThreadTitleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RenameThreadTitle"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"title"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"renameThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}},{"kind":"Argument","name":{"kind":"Name","value":"title"},"value":{"kind":"Variable","name":{"kind":"Name","value":"title"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Thread"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RenameThreadTitleMutation, RenameThreadTitleMutationVariables>;
export const DeleteThreadForGoodDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteThreadForGood"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ThreadDeleted"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<DeleteThreadForGoodMutation, DeleteThreadForGoodMutationVariables>;
export const AppViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppViewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"locale"}},{"kind":"Field","name":{"kind":"Name","value":"projects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"viewerRole"}},{"kind":"Field","name":{"kind":"Name","value":"agents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AppViewerQuery, AppViewerQueryVariables>;
export const AgentThreadsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AgentThreads"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"threads"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"30"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<AgentThreadsQuery, AgentThreadsQueryVariables>;
export const ThreadSummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadSummary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"thread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"agent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<ThreadSummaryQuery, ThreadSummaryQueryVariables>;
export const StartThreadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartThread"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"title"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"title"},"value":{"kind":"Variable","name":{"kind":"Name","value":"title"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Thread"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<StartThreadMutation, StartThreadMutationVariables>;
export const ThreadSearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"searchThreads"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}},{"kind":"Field","name":{"kind":"Name","value":"hits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"titleMatched"}},{"kind":"Field","name":{"kind":"Name","value":"title"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"highlighted"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"snippet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"highlighted"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ThreadSearchQuery, ThreadSearchQueryVariables>;
export const ShareThreadLinkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ShareThreadLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"throughMessageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeAttachments"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shareThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}},{"kind":"Argument","name":{"kind":"Name","value":"throughMessageId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"throughMessageId"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeAttachments"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeAttachments"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"throughMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"includeAttachments"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<ShareThreadLinkMutation, ShareThreadLinkMutationVariables>;
export const ThreadShareLinkListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadShareLinkList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"thread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"shareLinks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"throughMessageId"}},{"kind":"Field","name":{"kind":"Name","value":"includeAttachments"}}]}}]}}]}}]} as unknown as DocumentNode<ThreadShareLinkListQuery, ThreadShareLinkListQueryVariables>;
export const RevokeThreadShareLinkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeThreadShareLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLinkRevoked"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shareLinkId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RevokeThreadShareLinkMutation, RevokeThreadShareLinkMutationVariables>;
export const SharedSnapshotDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SharedSnapshot"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ThreadSnapshot"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"agentName"}},{"kind":"Field","name":{"kind":"Name","value":"sharedAt"}},{"kind":"Field","name":{"kind":"Name","value":"messages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TextPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReasoningPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SteeredInputPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttachmentPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attachmentId"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"downloadPath"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DelegationPart"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]}}]} as unknown as DocumentNode<SharedSnapshotQuery, SharedSnapshotQueryVariables>;
export const ProjectToolServersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectToolServers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"viewerRole"}},{"kind":"Field","name":{"kind":"Name","value":"toolServers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientToolServerFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientToolServerFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolServer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"headerNames"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeclared"}},{"kind":"Field","name":{"kind":"Name","value":"reconnects"}},{"kind":"Field","name":{"kind":"Name","value":"lastReconnectAt"}},{"kind":"Field","name":{"kind":"Name","value":"tools"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]} as unknown as DocumentNode<ProjectToolServersQuery, ProjectToolServersQueryVariables>;
export const AddToolServerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddToolServer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"url"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"headers"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ToolServerHeaderInput"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addToolServer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"url"},"value":{"kind":"Variable","name":{"kind":"Name","value":"url"}}},{"kind":"Argument","name":{"kind":"Name","value":"headers"},"value":{"kind":"Variable","name":{"kind":"Name","value":"headers"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientToolServerFields"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientToolServerFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolServer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"headerNames"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeclared"}},{"kind":"Field","name":{"kind":"Name","value":"reconnects"}},{"kind":"Field","name":{"kind":"Name","value":"lastReconnectAt"}},{"kind":"Field","name":{"kind":"Name","value":"tools"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<AddToolServerMutation, AddToolServerMutationVariables>;
export const RefreshToolServerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefreshToolServer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"toolServerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refreshToolServer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"toolServerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"toolServerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientToolServerFields"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientToolServerFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolServer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"headerNames"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeclared"}},{"kind":"Field","name":{"kind":"Name","value":"reconnects"}},{"kind":"Field","name":{"kind":"Name","value":"lastReconnectAt"}},{"kind":"Field","name":{"kind":"Name","value":"tools"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RefreshToolServerMutation, RefreshToolServerMutationVariables>;
export const RemoveToolServerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveToolServer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"toolServerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeToolServer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"toolServerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"toolServerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolServerRemoved"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolServerId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RemoveToolServerMutation, RemoveToolServerMutationVariables>;
export const ReplyUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReplyUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"executionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Execution"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientUsageFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"delegated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"modelCalls"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientUsageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Usage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cachedInputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheWriteTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"modelCalls"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"cost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricedCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]} as unknown as DocumentNode<ReplyUsageQuery, ReplyUsageQueryVariables>;
export const ProjectUsageReportDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectUsageReport"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"total"},"name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientUsageFields"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"byDay"},"name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"DAY"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientUsageFields"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"byUser"},"name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"USER"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientUsageFields"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"byModel"},"name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"MODEL"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientUsageFields"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"byAgent"},"name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"AGENT"}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"agent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientUsageFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientUsageFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Usage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cachedInputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheWriteTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"reasoningTokens"}},{"kind":"Field","name":{"kind":"Name","value":"modelCalls"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"cost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricedCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]} as unknown as DocumentNode<ProjectUsageReportQuery, ProjectUsageReportQueryVariables>;
export const ProjectBudgetsReportDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectBudgetsReport"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"budgets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"perUser"}},{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"warnAtPercent"}},{"kind":"Field","name":{"kind":"Name","value":"resetsAt"}},{"kind":"Field","name":{"kind":"Name","value":"agent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"spent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ProjectBudgetsReportQuery, ProjectBudgetsReportQueryVariables>;
export const SetProjectBudgetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetProjectBudget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"perUser"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"period"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BudgetPeriod"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"amount"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setBudget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"perUser"},"value":{"kind":"Variable","name":{"kind":"Name","value":"perUser"}}},{"kind":"Argument","name":{"kind":"Name","value":"period"},"value":{"kind":"Variable","name":{"kind":"Name","value":"period"}}},{"kind":"Argument","name":{"kind":"Name","value":"amount"},"value":{"kind":"Variable","name":{"kind":"Name","value":"amount"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Budget"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<SetProjectBudgetMutation, SetProjectBudgetMutationVariables>;
export const RemoveProjectBudgetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveProjectBudget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"budgetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeBudget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"budgetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"budgetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BudgetRemoved"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"budgetId"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ClientErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ClientErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidInputError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ForbiddenError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ServiceUnavailableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryAfterS"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueChangedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentQueueIds"}}]}}]}}]} as unknown as DocumentNode<RemoveProjectBudgetMutation, RemoveProjectBudgetMutationVariables>;