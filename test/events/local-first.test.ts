import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { send } from '../support/client.ts';
import { describeWithServices } from '../support/backends.ts';
import { follow } from '../support/follower.ts';
import { checkStream, replyTexts, type RunEvent } from '../support/run-events.ts';
import { newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { startTestServer, TEST_REDIS_URL, type TestServer } from '../support/server.ts';

const isDelta = (event: RunEvent) => event.__typename === 'TextDelta';
const textLength = (events: readonly RunEvent[]) => [...replyTexts(events).values()].join('').length;

describeWithServices('a thread’s live text on Redis goes only where someone listens', () => {
  const servers: TestServer[] = [];
  let monitor: Redis | undefined;

  afterAll(async () => {
    monitor?.disconnect();
    for (const server of servers.reverse()) await server.stop();
  });

  it('a reply watched only where it runs sends no deltas through Redis; a watcher on another instance joining mid-reply gets the rest live, whole', async () => {
    const runner = await startTestServer({ backend: 'postgres' });
    servers.push(runner);
    // An api instance never runs a turn: the reply surely runs on `runner`.
    const watcher = await startTestServer({ backend: 'postgres', env: { ...runner.env, PARLEY_ROLE: 'api' }, dropSchemaOnStop: false });
    servers.push(watcher);
    const { token, agentId } = await setUpAgent(runner.parley.db, { project: 'Local first' });
    const threadId = await newThread(runner, token, agentId);

    // Every PUBLISH of the thread's channel, as Redis itself sees it.
    const channel = `thread:${decodeId('threadId', threadId, 'Thread')}`;
    monitor = new Redis(TEST_REDIS_URL!);
    const published: string[] = [];
    const onMonitor = (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'publish' && args[1] === channel) published.push(args[2] ?? '');
    };
    const monitoring = await monitor.monitor();
    monitoring.on('monitor', onMonitor);
    const deltasPublished = () => published.filter((message) => message.includes('"TextDelta"')).length;

    // A finished turn first, so that the local subscription answers (with its replay) once it listens.
    await sendAndFollow(runner, token, threadId, '/tokens 3');
    const local = follow(runner, token, threadId);
    await local.ready();
    const publishedBeforeReply = deltasPublished();
    await send(runner, token, threadId, '/tokens 240 over 6');
    await local.waitUntil((events) => events.filter(isDelta).length >= 40, 30_000);
    const publishedBeforeJoin = deltasPublished() - publishedBeforeReply;
    const deltasBeforeJoin = local.events.filter(isDelta).length;
    const remote = follow(watcher, token, threadId, null);
    const [localEvents, remoteEvents] = await Promise.all([
      local.waitUntil((events) => events.filter((event) => event.__typename === 'ExecutionFinished').length === 2, 60_000),
      remote.waitUntil((events) => events.some((event) => event.__typename === 'ExecutionFinished'), 60_000),
    ]);
    await Promise.all([local.close(), remote.close()]);
    monitoring.disconnect();

    // Before anyone elsewhere listened, the deltas stayed on the instance (the one that may have
    // gone out is the publish that found out nobody else listens).
    expect(deltasBeforeJoin).toBeGreaterThanOrEqual(40);
    expect(publishedBeforeJoin).toBeLessThanOrEqual(1);
    // Then they went through Redis too, and the watcher had the rest of the reply live, gapless.
    const replies = checkStream(localEvents);
    const full = [...replies.values()].at(-1) ?? '';
    expect(full.length).toBeGreaterThan(0);
    expect([...checkStream(remoteEvents).values()].join('')).toBe(full);
    const remoteDeltas = remoteEvents.filter(isDelta);
    expect(remoteDeltas.length, JSON.stringify({ remote: remoteDeltas.length, published: deltasPublished() })).toBeGreaterThan(20);
    expect(deltasPublished()).toBeGreaterThan(20);
    expect(textLength(remoteEvents)).toBe(full.length);
  }, 120_000);
});
