import { APICallError } from '@ai-sdk/provider';
import type {
  JSONValue,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/*
 * The built-in demo model (SPEC §7): deterministic, offline, and able to put a run
 * into any state on purpose. It only looks at the LAST user message of the prompt and
 * at the tool results that follow it, so the same conversation always produces the
 * same output.
 *
 * Output formats (all text is streamed as word chunks, see splitIntoWordChunks):
 *   plain text          reasoning "Plain message without a command: quoting it back."
 *                       then `You said: "<text>"` (+ ` (N attachment[s])`)
 *   /slow s [text]      `You said: "<text>"`, or `Counting: 1 2 … n` (n = ceil(4·s)) without
 *                       text; chunk i is sent at i·s/chunks seconds, finish at s seconds
 *   /tokens n           exactly n chunks `t1 `, `t2 `, … `tn `
 *   /fail r [after n]   see describeDemoFailure; the n chunks are `t1 ` … `tn `
 *   /approve text       tool call approve_action {action} → `Approved: <text>` | `Not approved: <text>`
 *   /ask question       tool call ask_user {question}   → `You answered: "<answer>"` | `No answer was given.`
 *   /delegate message   tool call delegate {message}    → `The delegate replied: "<result>"` | `The delegate failed: <error>`
 *
 * Usage is countable by hand so budgets can be tested: inputTokens = whitespace-separated
 * words in the whole prompt (tool inputs and outputs as JSON), outputTokens = text chunks
 * plus reasoning chunks (reasoning only for plain messages, always 1).
 */

export const DEMO_PROVIDER = 'demo';

export const DEMO_TOOL_NAMES = {
  approve: 'approve_action',
  ask: 'ask_user',
  delegate: 'delegate',
  crash: 'demo_crash',
} as const;

export const DEMO_LIMITS = {
  maxSlowSeconds: 600,
  maxTokens: 100_000,
  maxQuotedChars: 1_000,
  slowCountPerSecond: 4,
} as const;

export const DEMO_FAILURE_REASONS = [
  'transport',
  'rate_limit',
  'quota_exceeded',
  'authentication',
  'authorization',
  'context_length',
  'content_policy',
  'invalid_request',
  'provider_internal',
  'unknown',
  'application_error',
] as const;
export type DemoFailureReason = (typeof DEMO_FAILURE_REASONS)[number];

export interface DemoCommand {
  name: string;
  usage: string;
  description: string;
}

export const DEMO_COMMANDS: readonly DemoCommand[] = [
  {
    name: '/slow',
    usage: '/slow <seconds> [text]',
    description: `Streams the reply evenly over that many seconds (at most ${DEMO_LIMITS.maxSlowSeconds}), so Stop and steering can land meanwhile.`,
  },
  {
    name: '/fail',
    usage: '/fail <reason> [after <n>]',
    description: `Fails with that error reason (${DEMO_FAILURE_REASONS.join(', ')}), at once or after streaming n chunks.`,
  },
  {
    name: '/approve',
    usage: '/approve <text>',
    description: `Calls the ${DEMO_TOOL_NAMES.approve} tool, which needs approval, then answers with the decision.`,
  },
  {
    name: '/ask',
    usage: '/ask <question>',
    description: `Calls ${DEMO_TOOL_NAMES.ask}; the typed answer is quoted in the reply.`,
  },
  {
    name: '/delegate',
    usage: '/delegate <message>',
    description: 'Delegates the message (which may itself be a command) to a child execution and quotes its result.',
  },
  {
    name: '/tokens',
    usage: '/tokens <n>',
    description: `Streams exactly n chunks (at most ${DEMO_LIMITS.maxTokens}) and reports n output tokens, for benchmarks.`,
  },
];

export const DEMO_API_URL = 'https://demo.invalid/v1/chat/completions';

const UNKNOWN_FAILURE_MESSAGE = 'The demo model failed in an unrecognised way.';
const PLAIN_REASONING = 'Plain message without a command: quoting it back.';

// ---------------------------------------------------------------------------
// Failures

/** How a failure shows when it happens after some output was already streamed. */
export type DemoMidStreamFailure =
  /** A stream `error` part carrying the plain object a provider's SSE error event carries. */
  | { kind: 'error-part'; payload: Record<string, unknown> }
  /** The stream itself errors, as when the socket drops while reading the body. */
  | { kind: 'stream-error'; createError: () => Error };

export type DemoFailure =
  | {
      reason: Exclude<DemoFailureReason, 'application_error'>;
      via: 'provider';
      /** What doStream/doGenerate throw when the run fails before any output. */
      createError: () => Error;
      midStream: DemoMidStreamFailure;
    }
  | {
      reason: 'application_error';
      via: 'tool';
      /** The runtime owns a tool of this name that throws: a non-provider failure. */
      toolName: typeof DEMO_TOOL_NAMES.crash;
      input: Record<string, never>;
    };

interface OpenAIErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

interface HttpFailure {
  statusCode: number;
  error: OpenAIErrorBody;
  extraHeaders?: Record<string, string>;
}

// Bodies follow what api.openai.com sends, so the real classification path sees real markers.
const HTTP_FAILURES: Record<
  Exclude<DemoFailureReason, 'transport' | 'unknown' | 'application_error'>,
  HttpFailure
> = {
  rate_limit: {
    statusCode: 429,
    error: {
      message:
        'Rate limit reached for demo-default in organization org-demo on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 7s.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
    extraHeaders: { 'retry-after': '7' },
  },
  quota_exceeded: {
    statusCode: 429,
    error: {
      message:
        'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_quota',
    },
  },
  authentication: {
    statusCode: 401,
    error: {
      message: 'Incorrect API key provided: sk-demo****. You can find your API key in your account settings.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    },
  },
  authorization: {
    statusCode: 403,
    error: {
      message: 'Your project does not have access to the model demo-default.',
      type: 'invalid_request_error',
      param: null,
      code: 'model_access_denied',
    },
  },
  context_length: {
    statusCode: 400,
    error: {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
  content_policy: {
    statusCode: 400,
    error: {
      message:
        'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our content policy.',
      type: 'invalid_request_error',
      param: null,
      code: 'content_policy_violation',
    },
  },
  invalid_request: {
    statusCode: 400,
    error: {
      message: 'Unrecognized request argument supplied: demo_flag',
      type: 'invalid_request_error',
      param: 'demo_flag',
      code: null,
    },
  },
  provider_internal: {
    statusCode: 500,
    error: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    },
  },
};

function connectionResetError(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
}

function requestBodyFor(modelId: string, stream: boolean): Record<string, unknown> {
  // The prompt is left out on purpose: error objects get logged and stored.
  return { model: modelId, stream };
}

function createHttpError(reason: keyof typeof HTTP_FAILURES, modelId: string, stream: boolean): APICallError {
  const failure = HTTP_FAILURES[reason];
  const body = { error: failure.error };
  // isRetryable is left to APICallError's default (408/409/429/5xx), as @ai-sdk/openai does.
  return new APICallError({
    message: failure.error.message,
    url: DEMO_API_URL,
    requestBodyValues: requestBodyFor(modelId, stream),
    statusCode: failure.statusCode,
    responseHeaders: {
      'content-type': 'application/json',
      'x-request-id': `req_demo_${reason}`,
      ...failure.extraHeaders,
    },
    responseBody: JSON.stringify(body),
    data: body,
  });
}

/**
 * What `/fail <reason>` does. Provider failures are the exact objects the OpenAI
 * provider package produces; mid-stream OpenAI errors carry the inner `error` object of
 * the SSE event, because that is what @ai-sdk/openai puts into its `error` stream part.
 */
export function describeDemoFailure(reason: DemoFailureReason, modelId = 'default', stream = true): DemoFailure {
  switch (reason) {
    case 'application_error':
      return { reason, via: 'tool', toolName: DEMO_TOOL_NAMES.crash, input: {} };
    case 'transport':
      return {
        reason,
        via: 'provider',
        // Mirrors @ai-sdk/provider-utils handleFetchError for `fetch failed` caused by a reset socket.
        createError: () =>
          new APICallError({
            message: 'Cannot connect to API: read ECONNRESET',
            url: DEMO_API_URL,
            requestBodyValues: requestBodyFor(modelId, stream),
            cause: connectionResetError(),
            isRetryable: true,
          }),
        // A dropped socket cannot send an SSE event: undici errors the body stream instead.
        midStream: {
          kind: 'stream-error',
          createError: () => new TypeError('terminated', { cause: connectionResetError() }),
        },
      };
    case 'unknown':
      return {
        reason,
        via: 'provider',
        createError: () => new Error(UNKNOWN_FAILURE_MESSAGE),
        midStream: { kind: 'error-part', payload: { type: 'mystery', message: UNKNOWN_FAILURE_MESSAGE } },
      };
    case 'provider_internal':
      return {
        reason,
        via: 'provider',
        createError: () => createHttpError(reason, modelId, stream),
        // Anthropic's mid-stream overload event, as @ai-sdk/anthropic forwards it.
        midStream: { kind: 'error-part', payload: { type: 'overloaded_error', message: 'Overloaded' } },
      };
    default:
      return {
        reason,
        via: 'provider',
        createError: () => createHttpError(reason, modelId, stream),
        midStream: { kind: 'error-part', payload: { ...HTTP_FAILURES[reason].error } },
      };
  }
}

// ---------------------------------------------------------------------------
// Reading the prompt

interface ToolOutcome {
  toolName: string;
  output: LanguageModelV3ToolResultOutput;
}

interface PromptView {
  /** undefined when the prompt has no user message at all */
  userText: string | undefined;
  attachmentCount: number;
  userMessageCount: number;
  toolCallCount: number;
  outcomesAfterUser: ToolOutcome[];
  approvalDeniedAfterUser: boolean;
  wordCount: number;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function toolOutputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return jsonText(output.value);
    case 'execution-denied':
      return output.reason ?? '';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : '')).join(' ');
  }
}

function readPrompt(prompt: LanguageModelV3Prompt): PromptView {
  let lastUserIndex = -1;
  prompt.forEach((message, index) => {
    if (message.role === 'user') lastUserIndex = index;
  });

  const view: PromptView = {
    userText: undefined,
    attachmentCount: 0,
    userMessageCount: 0,
    toolCallCount: 0,
    outcomesAfterUser: [],
    approvalDeniedAfterUser: false,
    wordCount: 0,
  };

  prompt.forEach((message, index) => {
    const afterUser = index > lastUserIndex;
    if (message.role === 'system') {
      view.wordCount += countWords(message.content);
      return;
    }
    if (message.role === 'user') {
      view.userMessageCount += 1;
      const text = message.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .filter(Boolean)
        .join('\n');
      view.wordCount += countWords(text);
      if (index === lastUserIndex) {
        view.userText = text.trim();
        view.attachmentCount = message.content.filter((part) => part.type === 'file').length;
      }
      return;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          view.wordCount += countWords(part.text);
          break;
        case 'tool-call':
          view.toolCallCount += 1;
          view.wordCount += countWords(jsonText(part.input));
          break;
        case 'tool-result':
          view.wordCount += countWords(toolOutputText(part.output));
          if (afterUser) view.outcomesAfterUser.push({ toolName: part.toolName, output: part.output });
          break;
        case 'tool-approval-response':
          if (afterUser && !part.approved) view.approvalDeniedAfterUser = true;
          break;
        default:
          break;
      }
    }
  });
  return view;
}

// ---------------------------------------------------------------------------
// Planning the reply

interface DemoPlan {
  reasoning?: string;
  textChunks: string[];
  /** Chunk i is sent at i·interval; the finish part one interval after the last chunk. */
  chunkIntervalMs: number;
  toolCall?: { toolCallId: string; toolName: string; input: Record<string, unknown> };
  failure?: { before: 'output'; createError: () => Error } | { before: 'finish'; midStream: DemoMidStreamFailure; createError: () => Error };
}

/** Splits on words, keeping the whitespace, so the chunks concatenate to the text. */
export function splitIntoWordChunks(text: string): string[] {
  const chunks = text.match(/\s*\S+\s*/g);
  return chunks ?? (text ? [text] : []);
}

function numberedTokens(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `t${index + 1} `);
}

function quote(text: string): string {
  const limit = DEMO_LIMITS.maxQuotedChars;
  return `"${text.length > limit ? `${text.slice(0, limit)}…` : text}"`;
}

function textPlan(text: string, chunkIntervalMs = 0): DemoPlan {
  return { textChunks: splitIntoWordChunks(text), chunkIntervalMs };
}

function plainReply(view: PromptView): DemoPlan {
  if (view.userText === undefined) {
    return textPlan('Hello! Send me a message, or a command such as /slow 3 or /ask <question>.');
  }
  const attachments =
    view.attachmentCount === 0 ? '' : ` (${view.attachmentCount} attachment${view.attachmentCount === 1 ? '' : 's'})`;
  return { ...textPlan(`You said: ${quote(view.userText)}${attachments}`), reasoning: PLAIN_REASONING };
}

function usageReply(commandName: string, detail?: string): DemoPlan {
  const command = DEMO_COMMANDS.find((candidate) => candidate.name === commandName);
  return textPlan(`Usage: ${command?.usage ?? commandName}${detail ? ` (${detail})` : ''}`);
}

/** Picks a readable value out of a tool's JSON result without knowing its exact shape. */
function readableValue(value: JSONValue | undefined): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of ['answer', 'text', 'result', 'reply', 'output', 'message']) {
      const field = value[key];
      if (typeof field === 'string') return field;
    }
  }
  return jsonText(value ?? null);
}

function outcomeSucceeded(output: LanguageModelV3ToolResultOutput): boolean {
  return output.type === 'text' || output.type === 'json' || output.type === 'content';
}

function outcomeValue(output: LanguageModelV3ToolResultOutput): string {
  if (output.type === 'json' || output.type === 'error-json') return readableValue(output.value);
  return toolOutputText(output);
}

function approvalGranted(output: LanguageModelV3ToolResultOutput): boolean {
  if (!outcomeSucceeded(output)) return false;
  if (output.type === 'json' && output.value && typeof output.value === 'object' && !Array.isArray(output.value)) {
    const { approved, decision } = output.value;
    if (typeof approved === 'boolean') return approved;
    if (typeof decision === 'string') return !/^(deny|denied|reject|rejected|no)\b/i.test(decision);
  }
  return !/^(deny|denied|rejected|not approved|no)\b/i.test(outcomeValue(output).trim());
}

function findOutcome(view: PromptView, toolName: string): ToolOutcome | undefined {
  return view.outcomesAfterUser.findLast((outcome) => outcome.toolName === toolName);
}

function parseCommand(text: string | undefined): { name: string; args: string } | undefined {
  const match = text === undefined ? null : /^(\/[a-z]+)(?:\s+([\s\S]*))?$/i.exec(text);
  if (!match) return undefined;
  const name = match[1].toLowerCase();
  if (!DEMO_COMMANDS.some((command) => command.name === name)) return undefined;
  return { name, args: (match[2] ?? '').trim() };
}

interface PlanContext {
  modelId: string;
  stream: boolean;
  availableTools: ReadonlySet<string>;
}

function planFor(view: PromptView, context: PlanContext): DemoPlan {
  const command = parseCommand(view.userText);
  if (!command) return plainReply(view);

  const nextToolCallId = `call_demo_${view.userMessageCount}_${view.toolCallCount + 1}`;
  const callTool = (toolName: string, input: Record<string, unknown>, leadingChunks: string[] = []): DemoPlan => ({
    textChunks: leadingChunks,
    chunkIntervalMs: 0,
    toolCall: { toolCallId: nextToolCallId, toolName, input },
  });
  const toolMissing = (toolName: string): DemoPlan | undefined =>
    context.availableTools.has(toolName) ? undefined : textPlan(`The tool ${toolName} is not available to this agent.`);

  switch (command.name) {
    case '/slow': {
      const match = /^(\d+(?:\.\d+)?)(?:\s+([\s\S]+))?$/.exec(command.args);
      const seconds = match ? Number(match[1]) : Number.NaN;
      if (!(seconds >= 0 && seconds <= DEMO_LIMITS.maxSlowSeconds)) {
        return usageReply('/slow', `seconds from 0 to ${DEMO_LIMITS.maxSlowSeconds}`);
      }
      const text = match?.[2]?.trim();
      const count = Math.max(1, Math.ceil(seconds * DEMO_LIMITS.slowCountPerSecond));
      const reply = text
        ? `You said: ${quote(text)}`
        : `Counting: ${Array.from({ length: count }, (_, index) => index + 1).join(' ')}`;
      const chunks = splitIntoWordChunks(reply);
      return { textChunks: chunks, chunkIntervalMs: (seconds * 1000) / chunks.length };
    }
    case '/tokens': {
      const count = /^\d+$/.test(command.args) ? Number(command.args) : Number.NaN;
      if (!(count <= DEMO_LIMITS.maxTokens)) return usageReply('/tokens', `n from 0 to ${DEMO_LIMITS.maxTokens}`);
      return { textChunks: numberedTokens(count), chunkIntervalMs: 0 };
    }
    case '/fail': {
      const match = /^(\S+)(?:\s+after\s+(\d+))?$/i.exec(command.args);
      const reason = match?.[1].toLowerCase() as DemoFailureReason | undefined;
      const after = match?.[2] === undefined ? undefined : Number(match[2]);
      if (!reason || !DEMO_FAILURE_REASONS.includes(reason) || (after ?? 0) > DEMO_LIMITS.maxTokens) {
        return usageReply('/fail', `reasons: ${DEMO_FAILURE_REASONS.join(', ')}`);
      }
      const failure = describeDemoFailure(reason, context.modelId, context.stream);
      const leadingChunks = numberedTokens(after ?? 0);
      if (failure.via === 'tool') {
        const outcome = findOutcome(view, failure.toolName);
        if (!outcome) return callTool(failure.toolName, failure.input, leadingChunks);
        return textPlan(
          outcomeSucceeded(outcome.output)
            ? `The tool ${failure.toolName} returned: ${outcomeValue(outcome.output)}`
            : `The tool ${failure.toolName} failed: ${outcomeValue(outcome.output)}`,
        );
      }
      if (after === undefined) {
        return { textChunks: [], chunkIntervalMs: 0, failure: { before: 'output', createError: failure.createError } };
      }
      return {
        textChunks: leadingChunks,
        chunkIntervalMs: 0,
        failure: { before: 'finish', midStream: failure.midStream, createError: failure.createError },
      };
    }
    case '/approve': {
      if (!command.args) return usageReply('/approve');
      const denied = view.approvalDeniedAfterUser;
      const outcome = findOutcome(view, DEMO_TOOL_NAMES.approve);
      if (!outcome && !denied) {
        return toolMissing(DEMO_TOOL_NAMES.approve) ?? callTool(DEMO_TOOL_NAMES.approve, { action: command.args });
      }
      const granted = !denied && outcome !== undefined && approvalGranted(outcome.output);
      return textPlan(`${granted ? 'Approved' : 'Not approved'}: ${command.args}`);
    }
    case '/ask': {
      if (!command.args) return usageReply('/ask');
      const outcome = findOutcome(view, DEMO_TOOL_NAMES.ask);
      if (!outcome) {
        return toolMissing(DEMO_TOOL_NAMES.ask) ?? callTool(DEMO_TOOL_NAMES.ask, { question: command.args });
      }
      return textPlan(
        outcomeSucceeded(outcome.output) ? `You answered: ${quote(outcomeValue(outcome.output))}` : 'No answer was given.',
      );
    }
    case '/delegate': {
      if (!command.args) return usageReply('/delegate');
      const outcome = findOutcome(view, DEMO_TOOL_NAMES.delegate);
      if (!outcome) {
        return (
          toolMissing(DEMO_TOOL_NAMES.delegate) ?? callTool(DEMO_TOOL_NAMES.delegate, { message: command.args })
        );
      }
      return textPlan(
        outcomeSucceeded(outcome.output)
          ? `The delegate replied: ${quote(outcomeValue(outcome.output))}`
          : `The delegate failed: ${outcomeValue(outcome.output)}`,
      );
    }
    default:
      return plainReply(view);
  }
}

// ---------------------------------------------------------------------------
// Producing output

function usageFor(view: PromptView, textChunks: number, reasoningChunks: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: view.wordCount, noCache: view.wordCount, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: textChunks + reasoningChunks, text: textChunks, reasoning: reasoningChunks },
  };
}

function finishReasonFor(plan: DemoPlan): LanguageModelV3FinishReason {
  return plan.toolCall ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Resolves after ms, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function* streamParts(
  plan: DemoPlan,
  view: PromptView,
  modelId: string,
  signal: AbortSignal,
): AsyncGenerator<LanguageModelV3StreamPart> {
  const textId = 'txt-0';
  const reasoningChunks = plan.reasoning ? 1 : 0;
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'response-metadata', id: `demo-resp-${view.userMessageCount}-${view.toolCallCount}`, modelId, timestamp: new Date() };
  if (plan.reasoning) {
    yield { type: 'reasoning-start', id: 'rsn-0' };
    yield { type: 'reasoning-delta', id: 'rsn-0', delta: plan.reasoning };
    yield { type: 'reasoning-end', id: 'rsn-0' };
  }
  for (const [index, chunk] of plan.textChunks.entries()) {
    if (index === 0) yield { type: 'text-start', id: textId };
    else await pause(plan.chunkIntervalMs, signal);
    yield { type: 'text-delta', id: textId, delta: chunk };
  }
  if (plan.textChunks.length > 0) await pause(plan.chunkIntervalMs, signal);

  const textStarted = plan.textChunks.length > 0;
  if (plan.failure?.before === 'finish') {
    const midStream = plan.failure.midStream;
    if (midStream.kind === 'stream-error') throw midStream.createError();
    // Same order as @ai-sdk/openai: the error part, then text-end and finish from flush.
    yield { type: 'error', error: midStream.payload };
    if (textStarted) yield { type: 'text-end', id: textId };
    yield {
      type: 'finish',
      finishReason: { unified: 'error', raw: undefined },
      usage: usageFor(view, plan.textChunks.length, reasoningChunks),
    };
    return;
  }
  if (textStarted) yield { type: 'text-end', id: textId };
  if (plan.toolCall) {
    yield {
      type: 'tool-call',
      toolCallId: plan.toolCall.toolCallId,
      toolName: plan.toolCall.toolName,
      input: JSON.stringify(plan.toolCall.input),
    };
  }
  yield {
    type: 'finish',
    finishReason: finishReasonFor(plan),
    usage: usageFor(view, plan.textChunks.length, reasoningChunks),
  };
}

/**
 * Pull-based so a fast consumer sets the pace of /tokens, and the caller's abort errors
 * the stream at once, dropping anything still queued.
 */
function toReadableStream(
  produce: (signal: AbortSignal) => AsyncGenerator<LanguageModelV3StreamPart>,
  abortSignal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  const stopped = new AbortController();
  const signal = abortSignal ? AbortSignal.any([abortSignal, stopped.signal]) : stopped.signal;
  const parts = produce(signal);
  let detachAbort = () => {};
  const finish = () => {
    detachAbort();
    stopped.abort();
  };
  return new ReadableStream<LanguageModelV3StreamPart>(
    {
      start(controller) {
        if (!abortSignal) return;
        const onAbort = () => {
          controller.error(abortReason(abortSignal));
          finish();
        };
        abortSignal.addEventListener('abort', onAbort, { once: true });
        detachAbort = () => abortSignal.removeEventListener('abort', onAbort);
      },
      async pull(controller) {
        try {
          const next = await parts.next();
          if (next.done) {
            finish();
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          finish();
          controller.error(abortSignal?.aborted ? abortReason(abortSignal) : error);
        }
      },
      cancel() {
        finish();
        void parts.return(undefined).catch(() => {});
      },
    },
    { highWaterMark: 1 },
  );
}

function generatedContent(plan: DemoPlan): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (plan.reasoning) content.push({ type: 'reasoning', text: plan.reasoning });
  if (plan.textChunks.length > 0) content.push({ type: 'text', text: plan.textChunks.join('') });
  if (plan.toolCall) {
    content.push({
      type: 'tool-call',
      toolCallId: plan.toolCall.toolCallId,
      toolName: plan.toolCall.toolName,
      input: JSON.stringify(plan.toolCall.input),
    });
  }
  return content;
}

class DemoLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = DEMO_PROVIDER;
  readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(readonly modelId: string) {}

  private prepare(options: LanguageModelV3CallOptions, stream: boolean) {
    if (options.abortSignal?.aborted) throw abortReason(options.abortSignal);
    const view = readPrompt(options.prompt);
    const availableTools = new Set((options.tools ?? []).map((tool) => tool.name));
    const plan = planFor(view, { modelId: this.modelId, stream, availableTools });
    return { view, plan, requestBody: requestBodyFor(this.modelId, stream) };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { view, plan, requestBody } = this.prepare(options, false);
    // A non-streaming request has no "after n chunks": it fails as a whole.
    if (plan.failure) throw plan.failure.createError();
    const signal = options.abortSignal ?? new AbortController().signal;
    await pause(plan.chunkIntervalMs * plan.textChunks.length, signal);
    return {
      content: generatedContent(plan),
      finishReason: finishReasonFor(plan),
      usage: usageFor(view, plan.textChunks.length, plan.reasoning ? 1 : 0),
      request: { body: requestBody },
      response: { id: `demo-resp-${view.userMessageCount}-${view.toolCallCount}`, modelId: this.modelId, timestamp: new Date() },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { view, plan, requestBody } = this.prepare(options, true);
    if (plan.failure?.before === 'output') throw plan.failure.createError();
    return {
      stream: toReadableStream((signal) => streamParts(plan, view, this.modelId, signal), options.abortSignal),
      request: { body: requestBody },
    };
  }
}

export function createDemoModel(modelId = 'default'): LanguageModelV3 {
  return new DemoLanguageModel(modelId);
}
