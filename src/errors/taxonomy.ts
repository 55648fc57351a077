import type { MessageKey, MessageParams } from '../i18n/catalog.ts';

export const ERROR_REASONS = [
  'TRANSPORT',
  'RATE_LIMIT',
  'QUOTA_EXCEEDED',
  'AUTHENTICATION',
  'AUTHORIZATION',
  'CONTEXT_LENGTH',
  'CONTENT_POLICY',
  'INVALID_REQUEST',
  'PROVIDER_INTERNAL',
  'UNKNOWN',
  'APPLICATION_ERROR',
] as const;

export type ErrorReason = (typeof ERROR_REASONS)[number];

export function isErrorReason(value: unknown): value is ErrorReason {
  return typeof value === 'string' && (ERROR_REASONS as readonly string[]).includes(value);
}

// Only these can succeed on a plain retry of the same request; everything else needs
// a change by the user or the operator (key, quota, prompt, code) first.
const RETRYABLE_REASONS: ReadonlySet<ErrorReason> = new Set<ErrorReason>([
  'TRANSPORT',
  'RATE_LIMIT',
  'PROVIDER_INTERNAL',
]);

export function isRetryableByDefault(reason: ErrorReason): boolean {
  return RETRYABLE_REASONS.has(reason);
}

export interface ClassifiedFailure {
  reason: ErrorReason;
  retryable: boolean;
  retryAfterS: number | null;
  provider: string | null;
  httpStatus: number | null;
  providerCode: string | null;
  requestId: string | null;
  /** The raw provider/technical message, kept for logs and a "details" view, never shown as the main copy. */
  detail: string;
  /** Set when the failure names its own user-facing message; otherwise the copy follows from `reason`. */
  messageKey?: MessageKey;
  messageParams?: MessageParams;
}

export interface ReasonedErrorInit {
  reason: ErrorReason;
  message?: string;
  /** Defaults to whether the reason is retryable at all (TRANSPORT, RATE_LIMIT, PROVIDER_INTERNAL). */
  retryable?: boolean;
  retryAfterS?: number | null;
  provider?: string | null;
  httpStatus?: number | null;
  providerCode?: string | null;
  requestId?: string | null;
  messageKey?: MessageKey;
  messageParams?: MessageParams;
  cause?: unknown;
}

/**
 * An error that already knows what kind of failure it is. `classify()` returns its
 * fields unchanged, so a reason decided deep inside (a tool, the demo model, a
 * backend) is never re-guessed from the message text at the agent boundary.
 */
export class ReasonedError extends Error {
  readonly reason: ErrorReason;
  readonly retryable: boolean;
  readonly retryAfterS: number | null;
  readonly provider: string | null;
  readonly httpStatus: number | null;
  readonly providerCode: string | null;
  readonly requestId: string | null;
  readonly messageKey: MessageKey | undefined;
  readonly messageParams: MessageParams | undefined;

  constructor(init: ReasonedErrorInit) {
    super(init.message ?? init.reason, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ReasonedError';
    this.reason = init.reason;
    this.retryable = init.retryable ?? isRetryableByDefault(init.reason);
    this.retryAfterS = init.retryAfterS ?? null;
    this.provider = init.provider ?? null;
    this.httpStatus = init.httpStatus ?? null;
    this.providerCode = init.providerCode ?? null;
    this.requestId = init.requestId ?? null;
    this.messageKey = init.messageKey;
    this.messageParams = init.messageParams;
  }

  toFailure(): ClassifiedFailure {
    const failure: ClassifiedFailure = {
      reason: this.reason,
      retryable: this.retryable,
      retryAfterS: this.retryAfterS,
      provider: this.provider,
      httpStatus: this.httpStatus,
      providerCode: this.providerCode,
      requestId: this.requestId,
      detail: this.message,
    };
    if (this.messageKey !== undefined) failure.messageKey = this.messageKey;
    if (this.messageParams !== undefined) failure.messageParams = this.messageParams;
    return failure;
  }
}

export interface ApplicationErrorInit {
  messageKey: MessageKey;
  messageParams?: MessageParams;
  /** Technical detail for logs; the user sees the translated `messageKey`. */
  message?: string;
  cause?: unknown;
}

/**
 * A failure that did not come from a model provider: a tool crash, a backend
 * refusing the run, an agent loop that throws. Never retried automatically, because
 * repeating the same run hits the same code path.
 */
export class ApplicationError extends ReasonedError {
  constructor(init: ApplicationErrorInit) {
    super({
      reason: 'APPLICATION_ERROR',
      retryable: false,
      message: init.message ?? init.messageKey,
      messageKey: init.messageKey,
      messageParams: init.messageParams,
      cause: init.cause,
    });
    this.name = 'ApplicationError';
  }
}
