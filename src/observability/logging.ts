import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { requestIdMixin } from './request-id.ts';

/**
 * The arguments of a Redis command in an ioredis error: an AUTH or HELLO carries the password, a
 * PUBLISH a thread's event. The command's name stays.
 */
const REDIS_COMMAND_ARGUMENTS = ['err.command.args', 'err.lastNodeError.command.args', 'err.cause.command.args'];

/**
 * Parley's JSON logger: each line logged while serving a request carries its `requestId`, and no
 * line carries a Redis command's arguments.
 */
export function createLogger(level: Level | 'silent', destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'parley' }, mixin: requestIdMixin, redact: { paths: REDIS_COMMAND_ARGUMENTS, censor: '[redacted]' } }, destination);
}

/**
 * The AI SDK prints a provider's warnings (an unknown model's compatibility mode, an ignored
 * setting) with console.warn, outside the JSON log; they go to `logger` at `warn` instead. The SDK
 * reads one process-wide hook, so the last logger routed wins.
 */
export function logModelWarningsTo(logger: Logger): void {
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => logger.warn({ provider, model, warnings }, 'model provider warning');
}
