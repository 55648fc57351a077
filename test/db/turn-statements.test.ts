import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Admission } from '../../src/execution/admission.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { describeWithServices } from '../support/backends.ts';
import { send } from '../support/client.ts';
import type { Follower } from '../support/follower.ts';
import { finishedOf, startedFrom } from '../support/run-events.ts';
import { followNewThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * What one turn costs the database, pinned: every statement a `/tokens 1` turn sends on PostgreSQL,
 * from sendMessage to its ExecutionFinished, in order (docs/architecture.md, "The hot SQL"). A
 * statement added to the turn's path fails here first.
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
  'run status, reservations and queued messages',
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
  if (/AS "status", EXISTS/.test(sql) && /AS "queued"$/.test(sql)) return 'run status, reservations and queued messages';
  if (/^WITH ended AS \( UPDATE "execution"/.test(sql)) return 'settlement write';
  return `other: ${sql.slice(0, 120)}`;
}

describeWithServices('the statements of one turn on PostgreSQL', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  const statements: string[] = [];
  let recording = false;
  const query = pg.Client.prototype.query;
  const admissions = vi.spyOn(Admission.prototype, 'admitNext');
  /** Admissions tried for a thread (its GraphQL id). */
  const admissionsOf = (threadId: string) => admissions.mock.calls.filter(([thread]) => thread === decodeId('threadId', threadId, 'Thread')).length;

  beforeAll(async () => {
    // Nothing periodic (sweeps, lease renewals, timed text writes) may write into the turn's list.
    server = await startTestServer({
      backend: 'postgres',
      env: { PARLEY_CONSUMER_SWEEP_MS: '600000', PARLEY_LEASE_MS: '600000', PARLEY_TEXT_FLUSH_MS: '600000' },
    });
    ({ token, agentId } = await setUpAgent(server, { project: 'Statements' }));
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      if (recording) statements.push(typeof config === 'string' ? config : (config?.text ?? ''));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });

  afterAll(async () => {
    pg.Client.prototype.query = query;
    admissions.mockRestore();
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
    await server.parley.consumer.waitForRuns(30_000);
    const before = admissionsOf(follower.threadId);
    statements.length = 0;
    recording = true;
    await turn(follower, '/tokens 1');
    recording = false;
    // The run's promise settles after the consumer has decided what to admit next (synchronously).
    expect(await server.parley.consumer.waitForRuns(30_000)).toBe(true);
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
    expect(await server.parley.consumer.waitForRuns(30_000)).toBe(true);
    // Its own admission, the kick of the second send (the thread busy), the admission after the first turn.
    expect(admissionsOf(follower.threadId)).toBe(3);
    await follower.close();
  });
});
