import { APICallError } from '@ai-sdk/provider';
import type { ToolName } from '../../runtime/tools.ts';

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

export const DEMO_API_URL = 'https://demo.invalid/v1/chat/completions';

const CRASHING_TOOL = 'demo_crash' satisfies ToolName;

const UNKNOWN_FAILURE_MESSAGE = 'The demo model failed in an unrecognised way.';

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
      toolName: typeof CRASHING_TOOL;
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

export function requestBodyFor(modelId: string, stream: boolean): Record<string, unknown> {
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
      return { reason, via: 'tool', toolName: CRASHING_TOOL, input: {} };
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
