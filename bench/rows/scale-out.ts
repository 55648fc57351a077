/**
 * S1: the scale simulation behind docs/scale.md. 1, 2, 4 and 8 instances on this machine share one
 * PostgreSQL and one Redis; several thousand threads each have one WebSocket subscriber, spread
 * evenly over the instances; a fixed number of replies run at once. Per instance count: the Redis
 * messages each instance receives, server CPU per delivered event, and the chunks' lateness.
 */
import { Redis } from 'ioredis';
import { benchDatabaseUrl, REDIS_URL, startHost, type BenchThread, type Host } from '../lib/hosts.ts';
import { postgresFloor } from '../lib/floor.ts';
import { percentile, spread, sleep, round, type Spread } from '../lib/stats.ts';
import { StreamFleet, takeEmits } from '../lib/streams.ts';
import { log } from '../lib/log.ts';
import type { Metric, Row, RowResult } from '../lib/types.ts';

const QUICK = process.env.BENCH_S1_QUICK === '1';
const INSTANCE_COUNTS = (process.env.BENCH_S1_INSTANCES ?? '1,2,4,8').split(',').map(Number);
const THREADS = Number(process.env.BENCH_S1_THREADS ?? (QUICK ? 400 : 2_000));
const REPLIES = Number(process.env.BENCH_S1_REPLIES ?? (QUICK ? 40 : 100));
const RATE = 20;
const SECONDS = QUICK ? 3 : 6;
const ROUNDS = QUICK ? 1 : 3;
const ROUND_TIMEOUT_MS = 90_000;
const IDLE_WINDOW_MS = 2_000;

interface RedisCounts {
  published: number;
  received: number;
  controlPublished: number;
  controlReceived: number;
}

interface Round {
  instances: number;
  /** Redis pub/sub messages received per instance per second of the round (mean over instances). */
  redisPerInstancePerS: number;
  /** Thread-channel messages Redis delivered to all instances ÷ those they published: 1.0 = each reaches one instance, the one whose subscriber waits for it. */
  amplification: number;
  /** Control messages (queue kicks, instance messages: every instance hears each) received per instance per second. */
  controlPerInstancePerS: number;
  /** Control messages received ÷ published: the instance count when every instance hears each. */
  controlFanOut: number;
  /** The busiest instance's received messages ÷ the mean: 1.0 = the traffic is spread evenly. */
  imbalance: number;
  redisTotalPerS: number;
  deliveredEvents: number;
  cpuMsTotal: number;
  /** CPU ms per second all instances use with their subscribers connected and nothing running (timers, heartbeats, idle sockets). */
  idleCpuMsPerS: number;
  /** That idle CPU over the round's length. */
  idleCpuMs: number;
  /** Chunks the subscribers received (a coalesced delta counts each chunk it carries). */
  deliveredChunks: number;
  p50: number;
  p99: number;
  lost: number;
  unfinished: number;
  rssMb: number;
}

async function measureInstances(count: number, profileDir: string | undefined): Promise<Round[]> {
  const env = { DATABASE_URL: benchDatabaseUrl(`s1n${count}`), REDIS_URL, PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '100000', PARLEY_WS_MAX_SOCKETS_PER_USER: '1000' };
  const hosts: Host[] = [];
  const fleet = new StreamFleet();
  try {
    // Started one after the other: the migrations run once, on the first.
    hosts.push(await startHost(env, { recordEmits: true, cpuProf: profileDir }));
    hosts.push(...(await Promise.all(Array.from({ length: count - 1 }, () => startHost(env, { recordEmits: true, cpuProf: profileDir, startTimeoutMs: 120_000 })))));
    const threads = await hosts[0]!.call<BenchThread[]>('setupThreads', { count: THREADS, threadsPerUser: 50 });
    // Thread i is followed on instance i mod count, and its message is sent there too.
    const byHost = hosts.map((_, h) => threads.filter((_, i) => i % count === h));
    await Promise.all(hosts.map((host, h) => fleet.subscribe(host.wsUrl, byHost[h]!, 8)));
    log(`S1 ${count} instance(s): ${threads.length} threads subscribed`);
    await sleep(1_000);
    const replying = threads.slice(0, REPLIES);
    const roundOn = (name: string, seconds: number) => {
      // One round per instance's share, sent in parallel, each to the instance its subscriber is on.
      const perHost = hosts.map((_, h) => replying.filter((_, i) => i % count === h));
      return Promise.all(hosts.map((host, h) => fleet.round(host.url, perHost[h]!, `${name}h${h}`, seconds, RATE, ROUND_TIMEOUT_MS)));
    };
    await roundOn(`s1n${count}w`, 1);
    await Promise.all(hosts.map(takeEmits));
    // Each instance's own cost with its subscribers connected and nothing running, per second.
    await sleep(300);
    const idleBefore = await Promise.all(hosts.map((host) => host.call<number>('cpuMs')));
    const idleStarted = Date.now();
    await sleep(IDLE_WINDOW_MS);
    const idleAfter = await Promise.all(hosts.map((host) => host.call<number>('cpuMs')));
    const idleCpuMsPerS = idleAfter.reduce((sum, after, h) => sum + after - idleBefore[h]!, 0) / ((Date.now() - idleStarted) / 1000);
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const cpuBefore = await Promise.all(hosts.map((host) => host.call<number>('cpuMs')));
      const redisBefore = await Promise.all(hosts.map((host) => host.call<RedisCounts>('redisMessages')));
      const receivedBefore = fleet.deliveredEvents;
      const started = Date.now();
      const results = await roundOn(`s1n${count}r${r}`, SECONDS);
      const elapsedS = (Date.now() - started) / 1000;
      await sleep(300);
      const cpuAfter = await Promise.all(hosts.map((host) => host.call<number>('cpuMs')));
      const redisAfter = await Promise.all(hosts.map((host) => host.call<RedisCounts>('redisMessages')));
      const emits = (await Promise.all(hosts.map(takeEmits))).flat();
      const tags = new Set(results.flatMap((result) => result.tags));
      const { latencies, lost } = fleet.join(emits, (tag) => tags.has(tag));
      const memory = await Promise.all(hosts.map((host) => host.call<{ rss: number }>('memory')));
      const receivedBy = redisAfter.map((after, h) => after.received - redisBefore[h]!.received);
      const redisTotal = receivedBy.reduce((sum, n) => sum + n, 0);
      const published = redisAfter.reduce((sum, after, h) => sum + after.published - redisBefore[h]!.published, 0);
      const controlReceived = redisAfter.reduce((sum, after, h) => sum + after.controlReceived - redisBefore[h]!.controlReceived, 0);
      const controlPublished = redisAfter.reduce((sum, after, h) => sum + after.controlPublished - redisBefore[h]!.controlPublished, 0);
      rounds.push({
        instances: count,
        redisPerInstancePerS: redisTotal / count / elapsedS,
        amplification: redisTotal / published,
        controlPerInstancePerS: controlReceived / count / elapsedS,
        controlFanOut: controlReceived / controlPublished,
        imbalance: Math.max(...receivedBy) / (redisTotal / count),
        redisTotalPerS: redisTotal / elapsedS,
        deliveredEvents: fleet.deliveredEvents - receivedBefore,
        cpuMsTotal: cpuAfter.reduce((sum, after, h) => sum + after - cpuBefore[h]!, 0),
        idleCpuMsPerS,
        idleCpuMs: idleCpuMsPerS * (elapsedS + 0.3),
        deliveredChunks: latencies.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        lost,
        unfinished: results.reduce((sum, result) => sum + result.unfinished, 0),
        rssMb: memory.reduce((sum, m) => sum + m.rss, 0) / count / 1e6,
      });
      const last = rounds.at(-1)!;
      log(
        `S1 ${count} instance(s) round ${r}: Redis ${last.redisPerInstancePerS.toFixed(0)} msgs/s per instance, ` +
          `${((last.cpuMsTotal * 1000) / last.deliveredEvents).toFixed(0)} µs CPU per delivered event, p99 ${last.p99.toFixed(1)} ms, lost ${last.lost}`,
      );
    }
    return rounds;
  } finally {
    fleet.close();
    await Promise.all(hosts.map((host) => host.kill()));
  }
}

/**
 * What one Redis node delivers at most on this machine: a closed loop of pipelined PUBLISHes of
 * TextDelta-sized payloads over 1,000 channels to one subscribing connection, for `seconds`.
 */
async function redisNodeCapacity(seconds: number): Promise<number> {
  const publisher = new Redis(REDIS_URL);
  const subscriber = new Redis(REDIS_URL);
  try {
    const channels = Array.from({ length: 1_000 }, (_, i) => `bench-s1-capacity:${i}`);
    await subscriber.subscribe(...channels);
    let received = 0;
    subscriber.on('message', () => received++);
    const payload = JSON.stringify({ threadId: 'x'.repeat(36), seq: null, executionId: 'y'.repeat(36), createdAt: new Date().toISOString(), payload: { type: 'TextDelta', messageId: 'z'.repeat(36), text: 'word ', offset: 1234 } });
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    let next = 0;
    while (Date.now() < deadline) {
      const batch = publisher.pipeline();
      for (let i = 0; i < 500; i++) batch.publish(channels[next++ % channels.length]!, payload);
      await batch.exec();
    }
    const elapsedS = (Date.now() - started) / 1000;
    await sleep(200);
    return received / elapsedS;
  } finally {
    publisher.disconnect();
    subscriber.disconnect();
  }
}

const run: Row['run'] = async ({ profileDir }) => {
  const capacityRounds: number[] = [];
  for (let r = 0; r < 3; r++) capacityRounds.push(await redisNodeCapacity(2));
  const capacity = spread(capacityRounds);
  // What the shared PostgreSQL commits at most: raw one-row write transactions, 20 clients, closed loop.
  const floor = await postgresFloor(benchDatabaseUrl('s1floor'));
  const commitRounds: number[] = [];
  try {
    for (let r = 0; r < 3; r++) commitRounds.push((await floor.closedLoop(20, 2_000)).length / 2);
  } finally {
    await floor.close();
  }
  const byCount = new Map<number, Round[]>();
  for (const count of INSTANCE_COUNTS) byCount.set(count, await measureInstances(count, profileDir));
  const baseline = byCount.get(INSTANCE_COUNTS[0]!)!;
  const metrics: Metric[] = [
    { name: 'one Redis node: pub/sub messages delivered (raw ioredis, pipelined, closed loop)', unit: 'msgs/s', measured: capacity, budget: 'report (the shard floor of docs/scale.md)', pass: null },
    { name: 'PostgreSQL: raw write transactions (BEGIN; INSERT; COMMIT, 20 clients, closed loop)', unit: 'commits/s', measured: spread(commitRounds), budget: 'report (the database floor of docs/scale.md)', pass: null },
  ];
  const notes: string[] = [];
  const cpuOf = (r: Round) => (r.cpuMsTotal * 1000) / r.deliveredEvents;
  // The same work (every chunk reaches its subscriber) whatever the coalescing, without the fixed cost of running more processes.
  const netCpuOf = (r: Round) => ((r.cpuMsTotal - r.idleCpuMs) * 1000) / r.deliveredChunks;
  for (const [count, rounds] of byCount) {
    const perInstance = spread(rounds.map((r) => r.redisPerInstancePerS));
    const cpuPerEvent = spread(rounds.map((r) => (r.cpuMsTotal * 1000) / r.deliveredEvents));
    const p99 = spread(rounds.map((r) => r.p99));
    const amplification = spread(rounds.map((r) => r.amplification));
    metrics.push({
      name: `${count} instance(s): Redis messages received per instance`,
      unit: 'msgs/s',
      measured: perInstance,
      budget: 'report',
      pass: null,
    });
    metrics.push({
      name: `${count} instance(s): thread-channel messages Redis delivered ÷ published`,
      unit: '',
      measured: amplification,
      budget: '≤ 1.05 (no instance hears another instance’s threads)',
      pass: amplification.max <= 1.05,
    });
    metrics.push({
      name: `${count} instance(s): control messages (queue kicks, instance messages) received per instance`,
      unit: 'msgs/s',
      measured: spread(rounds.map((r) => r.controlPerInstancePerS)),
      budget: `report (each is heard by every instance: fan-out ${rounds.map((r) => r.controlFanOut.toFixed(1)).join(' / ')})`,
      pass: null,
    });
    // Floor of CPU per event and lateness: the same figure with one instance, in the same run.
    const against = (figure: Spread, baselineFigure: Spread, perRound: (r: Round) => number) => ({
      floor: baselineFigure,
      ratio: { ...spread(rounds.map((r, i) => perRound(r) / perRound(baseline[Math.min(i, baseline.length - 1)]!))), median: figure.median / baselineFigure.median },
    });
    metrics.push({ name: `${count} instance(s): server CPU per delivered event (floor: 1 instance)`, unit: 'µs', measured: cpuPerEvent, ...against(cpuPerEvent, spread(baseline.map(cpuOf)), cpuOf), budget: 'report', pass: null });
    const netCpu = spread(rounds.map(netCpuOf));
    metrics.push({ name: `${count} instance(s): server CPU per delivered chunk above the instances' idle CPU (floor: 1 instance)`, unit: 'µs', measured: netCpu, ...against(netCpu, spread(baseline.map(netCpuOf)), netCpuOf), budget: 'report', pass: null });
    metrics.push({ name: `${count} instance(s): idle CPU of all instances (subscribers connected, nothing running)`, unit: 'ms/s', measured: spread(rounds.map((r) => r.idleCpuMsPerS)), budget: 'report', pass: null });
    metrics.push({ name: `${count} instance(s): chunk lateness p99 (floor: 1 instance)`, unit: 'ms', measured: p99, ...against(p99, spread(baseline.map((r) => r.p99)), (r) => r.p99), budget: 'report', pass: null });
    const lost = rounds.reduce((sum, r) => sum + r.lost + r.unfinished, 0);
    notes.push(
      `${count} instance(s): ${THREADS} subscribed threads (${Math.ceil(THREADS / count)} per instance), ${REPLIES} replies at once; ` +
        `lost or unfinished chunks/replies ${lost}; RSS per instance ${rounds.map((r) => r.rssMb.toFixed(0)).join(' / ')} MB; ` +
        `Redis messages/s in all ${rounds.map((r) => r.redisTotalPerS.toFixed(0)).join(' / ')}; busiest instance ÷ mean ${rounds.map((r) => r.imbalance.toFixed(2)).join(' / ')}`,
    );
  }
  // How the cost per unit of work moves as instances are added: the least-squares slope of each count's median ÷ the first count's.
  for (const [label, of] of [
    ['server CPU per delivered event', cpuOf],
    ["server CPU per delivered chunk above the instances' idle CPU", netCpuOf],
  ] as const) {
    const points = [...byCount].map(([count, rounds]) => [count, spread(rounds.map(of)).median / spread(baseline.map(of)).median] as const);
    metrics.push({ name: `slope of ${label} per added instance (÷ the ${INSTANCE_COUNTS[0]}-instance figure)`, unit: '×/instance', measured: spread([slopeOf(points)]), budget: 'report (0 = flat)', pass: null });
  }
  notes.push(`${ROUNDS} round(s) per instance count of ${REPLIES} replies × ${SECONDS} s × ${RATE} chunks/s (demo \`/slow\`), every instance on one 2-core machine with PostgreSQL and Redis${QUICK ? '; quick mode (BENCH_S1_QUICK=1)' : ''}`);
  const details = Object.fromEntries([...byCount].map(([count, rounds]) => [count, rounds.map((r) => ({ ...r, p50: round(r.p50), p99: round(r.p99), redisPerInstancePerS: round(r.redisPerInstancePerS, 1), redisTotalPerS: round(r.redisTotalPerS, 1), amplification: round(r.amplification, 3), controlPerInstancePerS: round(r.controlPerInstancePerS, 1), controlFanOut: round(r.controlFanOut, 2), imbalance: round(r.imbalance, 2) }))]));
  const result: RowResult = { id: 'S1', what: 'scale-out: instances sharing one PostgreSQL and one Redis, subscribers spread over them', metrics, notes, details };
  return result;
};

export const scaleOut: Row = {
  id: 'S1',
  name: 'scale-out',
  run,
  method: `1, 2, 4 and 8 Parley instances (real servers in their own processes) on this machine share one
PostgreSQL and one Redis (classic pub/sub: one \`thread:<id>\` channel per thread with a subscriber on
that instance). ${THREADS.toLocaleString('en')} threads each get one WebSocket \`runEvents\` subscriber, thread *i* on
instance *i mod n*; ${REPLIES} of them receive a message (sent to the instance their subscriber is on, so the
reply runs wherever the queue puts it) and stream a demo reply of ${SECONDS} s at ${RATE} chunks/s, all at once.
Per instance count, over each round: the pub/sub messages Redis delivered to each instance (counted in
the host at ioredis' \`message\`/\`smessage\` events) ÷ the round's length; the thread-channel messages
Redis delivered to all instances ÷ those they published (PUBLISH/SPUBLISH commands counted in the host):
1.0 when every message reaches only the instance whose subscriber waits for it, n when every instance
hears everything (as classic pub/sub on a Redis Cluster would, on every node); the control messages
(queue kicks and instance messages, which every instance hears by design) per instance and their
fan-out; server CPU (every instance's user + system time) per delivered event (every \`runEvents\`
message the subscribers received); the same CPU less what the instances use idle (measured for 2 s
before the rounds, subscribers connected, nothing running) per delivered chunk (a coalesced delta
counts each chunk it carries, so the unit of work does not depend on how much was coalesced); the
least-squares slope of both against the instance count (each count's median ÷ the first count's,
per added instance; 0 is flat); and the p99 lateness of a chunk (arrival at its subscriber minus
the moment the running instance's runtime emitted it, coalesced deltas covering their chunks).
Two floors are measured first in the same run, for docs/scale.md: what one Redis node delivers at
most (a closed loop of pipelined raw PUBLISHes over 1,000 channels to one subscribing ioredis
connection, TextDelta-sized payloads, 3 rounds of 2 s) and what the PostgreSQL commits at most (raw
\`BEGIN; INSERT; COMMIT\`, 20 clients, closed loop, 3 rounds of 2 s).
Every instance runs on the same two cores, so CPU per event and lateness at 8 instances include the
contention of eight processes on two cores: they are an upper bound for a deployment with a core per
instance. \`BENCH_S1_QUICK=1\` runs a smaller version; \`BENCH_S1_INSTANCES\`, \`BENCH_S1_THREADS\`,
\`BENCH_S1_REPLIES\` change the shape.`,
};

/** The least-squares slope of y over x. */
function slopeOf(points: readonly (readonly [number, number])[]): number {
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}
