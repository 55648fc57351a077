import { describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_S, isDatabaseOutage, serviceUnavailableFor } from '../../src/db/outage.ts';
import { ConflictError, ServiceUnavailableError } from '../../src/domain/errors.ts';
import { recordedFailure } from '../../src/errors/recorded-failure.ts';
import { failureOfThrown } from '../../src/execution/ending.ts';
import type { Locale } from '../../src/i18n/catalog.ts';

/** What a run that threw `error` records: classified by the launcher, localized by the recording. */
const recordedFailureOf = (error: unknown, locale: Locale) => recordedFailure(failureOfThrown(error), locale);

// The shapes below are what Prisma 6 with @prisma/adapter-pg and node-postgres raised against a
// private cluster that was stopped (pg_ctl stop -m fast), restarted, saturated or locked; Prisma 7.10
// raises the same ones (checked against PostgreSQL: a statement timeout, a pool with no free
// connection, a backend terminated mid-query, a connection reset mid-query, a refused connection).
const prismaError = (code: string, cause: object) =>
  Object.assign(new Error('Invalid `prisma.x()` invocation'), {
    name: 'PrismaClientKnownRequestError',
    code,
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
  });

describe('isDatabaseOutage', () => {
  it.each([
    ['the server is down (P1001, DatabaseNotReachable)', prismaError('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 })],
    ['a session ended by a fast shutdown (57P01 in a raw query)', prismaError('P2010', { kind: 'postgres', code: '57P01', originalCode: '57P01' })],
    ['a statement cancelled by statement_timeout (a DriverAdapterError)', Object.assign(new Error('canceling statement due to statement timeout'), { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57014' } })],
    ['the database is starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['too many connections (53300)', prismaError('P2010', { kind: 'TooManyConnections' })],
    ['a connection reset mid-query (ConnectionClosed)', prismaError('P2010', { kind: 'ConnectionClosed' })],
    ['a connection refused by the socket (the readiness probe)', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['no pooled connection within the acquisition timeout', new Error('timeout exceeded when trying to connect')],
    ['a connection that died mid-query', new Error('Connection terminated unexpectedly')],
    ['a client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
  ])('%s: an outage', (_, error) => {
    expect(isDatabaseOutage(error)).toBe(true);
    expect(serviceUnavailableFor(error)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'database', retryAfterS: DATABASE_RETRY_AFTER_S });
  });

  it.each([
    ['a unique violation', prismaError('P2002', { kind: 'UniqueConstraintViolation' })],
    ['a raw unique violation (23505)', Object.assign(new Error('duplicate key value'), { code: '23505' })],
    ['an unsupported column type', prismaError('P2010', { kind: 'UnsupportedNativeDataType', type: 'void' })],
    ['a bug', new TypeError('Cannot read properties of undefined')],
    ['a domain error', new ConflictError('already started')],
    ['nothing', undefined],
  ])('%s: not an outage', (_, error) => {
    expect(isDatabaseOutage(error)).toBe(false);
    expect(serviceUnavailableFor(error)).toBeNull();
  });

  it('passes a ServiceUnavailableError through as it is', () => {
    const live = new ServiceUnavailableError('live channel', 3);
    expect(serviceUnavailableFor(live)).toBe(live);
  });

  it('stops on a cause chain that loops', () => {
    const looping = new Error('loop') as Error & { cause?: unknown };
    looping.cause = looping;
    expect(isDatabaseOutage(looping)).toBe(false);
  });
});

describe('a run that fails on a database outage', () => {
  it('records one retryable failure that says so, in the user’s language', () => {
    const outage = prismaError('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 });
    expect(recordedFailureOf(outage, 'en')).toMatchObject({
      reason: 'APPLICATION_ERROR',
      retryable: true,
      retryAfterS: DATABASE_RETRY_AFTER_S,
      messageKey: 'error.service_unavailable',
      message: `The server’s database was unavailable, so the reply could not be finished — try again in ${DATABASE_RETRY_AFTER_S}s.`,
    });
    expect(recordedFailureOf(outage, 'de').message).toContain('Datenbank');
    // Any other unexpected error stays a non-retryable application error.
    expect(recordedFailureOf(new TypeError('boom'), 'en')).toMatchObject({ messageKey: 'error.application_error', retryable: false });
  });
});
