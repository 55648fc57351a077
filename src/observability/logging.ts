import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { requestIdMixin } from './request-id.ts';

/** Parley's JSON logger: each line logged while serving a request carries its `requestId`. */
export function createLogger(level: Level | 'silent', destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'parley' }, mixin: requestIdMixin }, destination);
}
