import { PGlite, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Admission } from '../../src/execution/admission.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { send } from '../support/client.ts';
import type { Follower } from '../support/follower.ts';
import { finishedOf, startedFrom } from '../support/run-events.ts';
import { followNewThread, setUpAgent } from '../support/scenario.ts';
import { isolatedEnv, startTestServer, type Backend, type TestServer } from '../support/server.ts';

/**
 * What one turn costs the database, pinned: every statement a `/tokens 1` turn sends, Prisma's and
 * the storage port's alike, from sendMessage to its ExecutionFinished, in order (docs/architecture.md,
 * "The hot SQL"), on PostgreSQL (what the pool's clients send) and on PGlite (what the instance is
 * asked, transactions included). A statement added to the turn's path fails here first.
 */
const TURN = [
  'access check, with whether a question card is open',
  'enqueue',
  'BEGIN',
  'session lock',
  'queue head',
  'admission write',
  'COMMIT',
  'history',
  'steering probe',
  'BEGIN',
  'session lock',
  'run status, Stop, reservations and queued messages',
  'settlement write',
  'COMMIT',
];

function kindOf(text: string): string {
  const sql = text.replace(/\s+/g, ' ').trim();
  if (/^BEGIN\b/i.test(sql)) return 'BEGIN';
  if (/^COMMIT\b/i.test(sql)) return 'COMMIT';
  if (/FOR UPDATE$/.test(sql) && /^SELECT "id" FROM "thread"/.test(sql)) return 'session lock';
  if (/"openQuestion"/.test(sql) && /JOIN "membership"/.test(sql)) return 'access check, with whether a question card is open';
  if (/^WITH locked AS \( UPDATE "thread"/.test(sql) && /INSERT INTO "queue_item"/.test(sql)) return 'enqueue';
  if (/JOIN LATERAL \( SELECT \* FROM "queue_item"/.test(sql)) return 'queue head';
  if (/^WITH created AS \( INSERT INTO "execution"/.test(sql)) return 'admission write';
  if (/^WITH RECURSIVE reply AS/.test(sql)) return 'history';
  if (/^SELECT EXISTS \(SELECT 1 FROM "queue_item" WHERE "steeringExecutionId"/.test(sql)) return 'steering probe';
  if (/AS "cancelRequested"/.test(sql) && /AS "queued"/.test(sql)) return 'run status, Stop, reservations and queued messages';
  if (/^WITH ended AS \( UPDATE "execution"/.test(sql)) return 'settlement write';
  return `other: ${sql.slice(0, 120)}`;
}

/**
 * Records every statement the backend's driver is sent while `recording()` says so; returns the undo.
 * On PGlite a transaction's statements are its callback's: they are recorded between a BEGIN and a
 * COMMIT of their own, as PostgreSQL's client sends them.
 */
function recordStatements(backend: Backend, into: string[], recording: () => boolean): () => void {
  if (backend === 'postgres') {
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      if (recording()) into.push(typeof config === 'string' ? config : (config?.text ?? ''));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    return () => {
      pg.Client.prototype.query = query;
    };
  }
  const { query, exec, transaction } = PGlite.prototype;
  const record = (text: string) => recording() && into.push(text);
  PGlite.prototype.query = function (this: PGlite, text: string, ...rest: unknown[]) {
    record(text);
    return (query as (...a: unknown[]) => unknown).call(this, text, ...rest);
  } as typeof query;
  PGlite.prototype.exec = function (this: PGlite, text: string, ...rest: unknown[]) {
    record(text);
    return (exec as (...a: unknown[]) => unknown).call(this, text, ...rest);
  } as typeof exec;
  PGlite.prototype.transaction = function <T>(this: PGlite, work: (tx: Transaction) => Promise<T>) {
    return transaction.call(this, async (tx: Transaction) => {
      record('BEGIN');
      const recorded: Transaction = {
        ...tx,
        query: ((text: string, ...rest: unknown[]) => {
          record(text);
          return (tx.query as (...a: unknown[]) => unknown)(text, ...rest);
        }) as Transaction['query'],
      };
      const result = await work(recorded);
      record('COMMIT');
      return result;
    });
  } as typeof transaction;
  return () => Object.assign(PGlite.prototype, { query, exec, transaction });
}

describeEachBackend('the statements of one turn', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  const statements: string[] = [];
  let recording = false;
  let stopRecording = () => {};
  /** Admission's calls, counted while this suite runs (each suite spies on its own). */
  let admissions: { mock: { calls: Parameters<Admission['admitNext']>[] }; mockRestore(): void } | undefined;
  /** Admissions tried for a thread (its GraphQL id). */
  const admissionsOf = (threadId: string) => admissions!.mock.calls.filter(([thread]) => thread === decodeId('threadId', threadId, 'Thread')).length;

  beforeAll(async () => {
    admissions = vi.spyOn(Admission.prototype, 'admitNext');
    // Nothing periodic (sweeps, lease renewals, timed text writes) may write into the turn's list.
    // The in-process bus, on PostgreSQL too: on a Redis shared with other test servers their queue
    // kicks (admission attempts for threads of theirs) would land in the list.
    const database: Record<string, string> = backend === 'postgres' ? { DATABASE_URL: isolatedEnv('postgres').DATABASE_URL! } : {};
    server = await startTestServer({
      backend,
      env: { ...database, PARLEY_CONSUMER_SWEEP_MS: '600000', PARLEY_LEASE_MS: '600000', PARLEY_TEXT_FLUSH_MS: '600000' },
    });
    ({ token, agentId } = await setUpAgent(server, { project: 'Statements' }));
    stopRecording = recordStatements(backend, statements, () => recording);
  });

  afterAll(async () => {
    stopRecording();
    admissions?.mockRestore();
    await server?.stop();
  });

  async function turn(follower: Follower, text: string) {
    const { queueId } = await send(server, token, follower.threadId, text);
    const started = await follower.waitFor(startedFrom(queueId));
    await follower.waitFor(finishedOf(started.executionId!));
  }

  it('is fourteen statements, three of them writes, and no admission is tried once it has ended with nothing queued', async () => {
    const follower = await followNewThread(server, token, agentId);
    // The first turn caches the token and warms the pools.
    await turn(follower, '/tokens 1');
    await server.parley.execution.waitForRuns(30_000);
    const before = admissionsOf(follower.threadId);
    statements.length = 0;
    recording = true;
    await turn(follower, '/tokens 1');
    recording = false;
    // The run's promise settles after the consumer has decided what to admit next (synchronously).
    expect(await server.parley.execution.waitForRuns(30_000)).toBe(true);
    // The sign-in's lookups (the token, then its user) are cached for a few seconds, not per turn:
    // a loaded machine may let the cache lapse between the two turns.
    const turnsOwn = statements.filter((text) => !/^\s*SELECT "[^"]+"\."(api_token|user)"\./.test(text));
    expect(turnsOwn.map(kindOf)).toEqual(TURN);
    expect(admissionsOf(follower.threadId) - before).toBe(1);
    await follower.close();
  });

  it('tries the next admission when a message was queued while the turn ran', async () => {
    const follower = await followNewThread(server, token, agentId);
    const { queueId } = await send(server, token, follower.threadId, '/slow 1');
    const first = await follower.waitFor(startedFrom(queueId));
    const next = await send(server, token, follower.threadId, '/tokens 1');
    await follower.waitFor(finishedOf(first.executionId!));
    const second = await follower.waitFor(startedFrom(next.queueId));
    await follower.waitFor(finishedOf(second.executionId!));
    expect(await server.parley.execution.waitForRuns(30_000)).toBe(true);
    // Its own admission, the kick of the second send (the thread busy), the admission after the first turn.
    expect(admissionsOf(follower.threadId)).toBe(3);
    await follower.close();
  });
});
