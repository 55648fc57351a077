/**
 * C1's three servers, each driven through the same ladder of N concurrent paced replies:
 *   - Parley (host.ts: PostgreSQL + Redis, role `all`), on a given Node.js line;
 *   - the AI SDK floor (sdk-server.ts: streamText → bare graphql-ws), on the same line;
 *   - the bare Yoga + graphql-ws server of P2 (echo-floor.ts), which emits the schedule itself (no model).
 * Parley and the AI SDK floor are driven by one client harness (replies.ts ReplyFleet); the Yoga
 * floor's events carry their emit time, and the same join and verdict (reply-ladder.ts) apply.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDatabaseUrl, forkChild, nodeVersion, REDIS_URL, startHost, type Child } from './hosts.ts';
import { inPool, openSubscription, type WsSubscription } from './clients.ts';
import { sleep } from './stats.ts';
import { log } from './log.ts';
import { measured } from './process-usage.ts';
import { joinStream, ReplyFleet, type ReplyServer, type Receives } from './replies.ts';
import { rounds, stepsAt, toStep, type Step, type StepRules } from './reply-ladder.ts';

export interface LadderPlan extends StepRules {
  ladder: number[];
  chunks: number;
  rounds: number;
  budgetMs: number;
  /** Index of the rung the first round starts at. */
  firstIndex: number;
  /** CPU per chunk is compared at this N: a ladder that never ran it runs it once more at the end (not counted as a round). */
  cpuN?: number;
  /** With a profile folder, the steps of these N are profiled (one .cpuprofile per step). */
  profileDir?: string;
  profileN?: number[];
}

const THREADS_PER_USER = 50;

export interface Ladder {
  rounds: Step[][];
  /** The steps at plan.cpuN: those of the rounds, or one run after them. */
  cpuSteps: Step[];
}

/** The rounds, and a step at plan.cpuN when none of them reached it (a ladder that stopped below it). */
async function withCpuStep(plan: LadderPlan, runStep: (n: number) => Promise<Step>, label: string): Promise<Ladder> {
  const done = await rounds(plan.ladder, label, runStep, plan);
  const cpuSteps = plan.cpuN === undefined ? [] : stepsAt(done, plan.cpuN);
  if (plan.cpuN !== undefined && cpuSteps.length === 0) cpuSteps.push(await runStep(plan.cpuN));
  return { rounds: done, cpuSteps };
}

/** The step runner of a server driven by the reply harness; profiles the chosen steps. */
function replyStepper(fleet: ReplyFleet, plan: LadderPlan, label: string) {
  let counter = 0;
  return async (n: number): Promise<Step> => {
    const profilePath =
      plan.profileDir && plan.profileN?.includes(n) ? join(plan.profileDir, `c1-${label}-n${n}-${counter}.cpuprofile`) : undefined;
    counter++;
    const raw = await fleet.step(n, { chunks: plan.chunks, seconds: plan.seconds, sendConcurrency: 32, drainMs: 90_000, profilePath });
    const step = toStep(n, raw.streams, { ...raw, lost: raw.unemitted, refused: raw.refusals.length }, plan);
    if (raw.failed.length) log(`C1 ${label} N=${n}: ${raw.failed.length} replies ended ${[...new Set(raw.failed)].join(', ')}`);
    if (raw.refusals.length) log(`C1 ${label} N=${n}: ${raw.refusals.length} sends refused (first: ${raw.refusals[0]})`);
    // Beside the profile: what the step streamed and what the process spent on it (profile-summary.ts reads it).
    if (profilePath) {
      const chunks = raw.streams.reduce((sum, stream) => sum + stream.lateness.length, 0);
      writeFileSync(profilePath.replace(/\.cpuprofile$/, '.json'), JSON.stringify({ n, chunks, cpuMs: raw.cpuMs, cpuCores: raw.cpuCores, p99Due: step.p99Due }));
    }
    return step;
  };
}

export async function parleyLadder(plan: LadderPlan, nodeLine: string | undefined, notes: string[]): Promise<Ladder> {
  const top = Math.max(...plan.ladder);
  const version = nodeVersion(nodeLine);
  const host = await startHost(
    {
      DATABASE_URL: benchDatabaseUrl(`c1_${(nodeLine ?? 'm').replace(/\W/g, '')}`),
      REDIS_URL,
      // The product's flush interval, not the bench default's: the row sizes a real deployment.
      PARLEY_TEXT_FLUSH_MS: '1000',
      // The row's own caps: every reply of a step runs at once, and each user's sockets all connect.
      PARLEY_MAX_CONCURRENT_RUNS: String(top * 2),
      PARLEY_MAX_CONCURRENT_RUNS_PER_USER: String(THREADS_PER_USER * 2),
      PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: String(top * 2),
      PARLEY_WS_MAX_SOCKETS_PER_USER: String(THREADS_PER_USER * 2),
      PARLEY_MAX_SUBSCRIPTIONS_PER_USER: String(THREADS_PER_USER * 4),
    },
    { recordEmits: true, startTimeoutMs: 120_000, nodeLine },
  );
  const fleet = new ReplyFleet(host, { threadsPerUser: THREADS_PER_USER, tagPrefix: 'c' });
  try {
    // Warm-up (JIT, pools, Redis channels, the subscribers' sockets) at the row's pace for a third of its length: not counted.
    await fleet.warm(plan.ladder[0]!, `/tokens ${Math.round(plan.chunks / 3)} over ${plan.seconds / 3}`);
    const done = await withCpuStep(plan, replyStepper(fleet, plan, `parley-${version}`), `Parley (${version})`);
    if (fleet.errors.length) notes.push(`subscription errors on Parley (${version}): ${fleet.errors.length} (first: ${JSON.stringify(fleet.errors[0]).slice(0, 200)})`);
    return done;
  } finally {
    fleet.close();
    await host.kill();
  }
}

export async function sdkServerLadder(plan: LadderPlan, nodeLine: string | undefined): Promise<Ladder> {
  const version = nodeVersion(nodeLine);
  const child = await forkChild('./sdk-server.ts', {}, { nodeLine });
  const server: ReplyServer = { pid: child.ready.pid as number, url: child.ready.url as string, wsUrl: child.ready.wsUrl as string, call: child.call };
  const fleet = new ReplyFleet(server, { threadsPerUser: THREADS_PER_USER, tagPrefix: 's' });
  try {
    await fleet.warm(plan.ladder[0]!, `/tokens ${Math.round(plan.chunks / 3)} over ${plan.seconds / 3}`);
    return await withCpuStep(plan, replyStepper(fleet, plan, `sdk-${version}`), `AI SDK floor (${version})`);
  } finally {
    fleet.close();
    await child.kill();
  }
}

const ECHO = 'subscription Echo($topic: String!) { echo(topic: $topic) { tag text offset emittedAt } }';

/** The bare Yoga + graphql-ws floor: N topics emitting the schedule in the server process (`schedule`). */
export async function echoLadder(plan: LadderPlan): Promise<Step[][]> {
  const echo: Child = await forkChild('./echo-floor.ts', {});
  const pid = echo.ready.pid as number;
  const wsUrl = echo.ready.wsUrl as string;
  const subscriptions: WsSubscription[] = [];
  const receives: Receives[] = [];
  const emitted: number[][] = [];
  let stepCounter = 0;
  let current = '';
  try {
    const ensure = async (count: number) => {
      const from = subscriptions.length;
      if (from >= count) return;
      subscriptions.push(
        ...(await inPool(count - from, 16, (i) => {
          const index = from + i;
          receives[index] = [];
          emitted[index] = [];
          return openSubscription(wsUrl, null, ECHO, { topic: `t${index}` }, (at, data) => {
            const event = data.echo;
            if (!event.tag.startsWith(current)) return;
            receives[index]!.push([event.offset, event.text.length, at]);
            emitted[index]!.push(event.offset, event.emittedAt);
          });
        })),
      );
      await sleep(300);
    };
    const runStep = async (n: number): Promise<Step> => {
      await ensure(n);
      current = `f${stepCounter++}s`;
      for (let i = 0; i < n; i++) {
        receives[i] = [];
        emitted[i] = [];
      }
      const started = Date.now();
      const usage = await measured(pid, async () => {
        await echo.call('schedule', { topics: n, chunks: plan.chunks, seconds: plan.seconds, round: current.slice(0, -1) });
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline && receives.slice(0, n).some((list) => list.length < plan.chunks)) await sleep(100);
      });
      // The floor's emits are known only from what arrived: a chunk that never arrived is counted from the schedule.
      let lost = 0;
      const streams = receives.slice(0, n).map((list, i) => {
        lost += Math.max(0, plan.chunks - list.length);
        return joinStream(emitted[i]!, list, (plan.seconds * 1000) / plan.chunks);
      });
      return toStep(n, streams, { lost, unfinished: 0, refused: 0, snapshots: 0, sendStarted: started, ...usage }, plan);
    };
    return await rounds(plan.ladder, 'bare Yoga floor', runStep, plan);
  } finally {
    for (const subscription of subscriptions) subscription.close();
    await echo.kill();
  }
}

/** The AI SDK alone on one Node.js line: CPU per chunk of `streams` paced `streamText` streams (sdk-floor.ts). */
export async function sdkAlone(nodeLine: string | undefined, args: { streams: number; chunks: number; seconds: number }): Promise<{ cpuUsPerChunk: number; cores: number; chunks: number }> {
  const child = await forkChild('./sdk-floor.ts', {}, { nodeLine });
  try {
    return await child.call('paced', args);
  } finally {
    await child.kill();
  }
}
