/**
 * C3: a fast provider. The fake OpenAI-protocol provider of the test suites (test/support/fake-provider.ts,
 * spoken to through @ai-sdk/openai) streams a reply at 2,000 chunks/s; one ordinary subscriber reads it
 * over a WebSocket. It must receive live text throughout (joined deltas are fine), never only a final
 * snapshot. Floor: the same provider stream read directly over HTTP by the bench process.
 */
import { benchDatabaseUrl, REDIS_URL, startHost, type BenchThread } from '../lib/hosts.ts';
import { openSubscription, sendMessage } from '../lib/clients.ts';
import { nowMs, round, sleep, spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import { measured } from '../lib/process-usage.ts';
import type { Row, RowResult } from '../lib/types.ts';
import { startFakeProvider } from '../../test/support/fake-provider.ts';

const QUICK = process.env.BENCH_C3_QUICK === '1';
const RATE = 2_000;
const SECONDS = QUICK ? 3 : 10;
const ROUNDS = QUICK ? 1 : 3;
const CHUNKS = Array.from({ length: RATE * SECONDS }, (_, index) => `w${index + 1} `);
const REPLY_CHARS = CHUNKS.join('').length;
/** "Live throughout": a reader sees new text at least this often while the model streams. */
const MAX_GAP_MS = 500;

const RUN_EVENTS = /* GraphQL */ `
  subscription C3RunEvents($threadId: ID!) {
    runEvents(threadId: $threadId) {
      __typename
      ... on TextDelta { offset text }
      ... on MessageSnapshot { textLength }
      ... on ExecutionFinished { status }
    }
  }
`;

interface Reading {
  deltas: number;
  /** Share of the reply's text that arrived in deltas (the rest, if any, in snapshots). */
  liveShare: number;
  snapshots: number;
  /** Largest gap between two consecutive arrivals of text, from the first to the last. */
  maxGapMs: number;
  /** From the first to the last arrival of text. */
  spanMs: number;
  /** The server's CPU while it ran the reply (cores; the floor's: none). */
  cpuCores?: number;
  /** How the reply ended (the floor's: COMPLETED when read to its end). */
  status: string;
}

function readingOf(arrivals: { at: number; chars: number }[], snapshots: number, status = 'COMPLETED'): Reading {
  let maxGap = 0;
  for (let i = 1; i < arrivals.length; i++) maxGap = Math.max(maxGap, arrivals[i]!.at - arrivals[i - 1]!.at);
  const chars = arrivals.reduce((sum, arrival) => sum + arrival.chars, 0);
  return {
    deltas: arrivals.length,
    liveShare: chars / REPLY_CHARS,
    snapshots,
    maxGapMs: arrivals.length > 1 ? maxGap : Number.POSITIVE_INFINITY,
    spanMs: arrivals.length > 1 ? arrivals.at(-1)!.at - arrivals[0]!.at : 0,
    status,
  };
}

/** Reads the provider's own stream, as @ai-sdk/openai would, counting its SSE events and their gaps. */
async function readProviderDirectly(baseUrl: string): Promise<Reading> {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: JSON.stringify({ model: 'gpt-bench', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  const arrivals: { at: number; chars: number }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    const at = nowMs();
    buffer += decoder.decode(bytes, { stream: true });
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    let chars = 0;
    for (const event of events) {
      const data = event.replace(/^data: /, '');
      if (data === '[DONE]') continue;
      try {
        chars += (JSON.parse(data).choices?.[0]?.delta?.content ?? '').length;
      } catch {
        // not a chunk
      }
    }
    if (chars > 0) arrivals.push({ at, chars });
  }
  return readingOf(arrivals, 0);
}

const run: Row['run'] = async ({ profileDir }): Promise<RowResult> => {
  const notes: string[] = [];
  const fake = await startFakeProvider({ defaultBehaviour: { kind: 'reply', chunks: CHUNKS, chunksPerSecond: RATE } });
  const parley: Reading[] = [];
  const floor: Reading[] = [];
  try {
    const host = await startHost(
      { DATABASE_URL: benchDatabaseUrl('c3'), REDIS_URL, OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.url, ...(process.env.BENCH_LOG_LEVEL ? { PARLEY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}) },
      { cpuProf: profileDir },
    );
    try {
      const threads = await host.call<BenchThread[]>('setupThreads', { count: ROUNDS + 1, model: 'openai:gpt-bench' });
      for (let r = 0; r <= ROUNDS; r++) {
        const thread = threads[r]!;
        const arrivals: { at: number; chars: number }[] = [];
        let snapshots = 0;
        let finished: string | null = null;
        const subscription = await openSubscription(host.wsUrl, thread.token, RUN_EVENTS, { threadId: thread.threadId }, (at, data) => {
          const event = data.runEvents;
          if (event.__typename === 'TextDelta') arrivals.push({ at, chars: event.text.length });
          else if (event.__typename === 'MessageSnapshot') snapshots++;
          else if (event.__typename === 'ExecutionFinished') finished = event.status;
        });
        let cpu = 0;
        try {
          await sleep(300);
          ({ cpuCores: cpu } = await measured(host.pid, async () => {
            await sendMessage(host.url, thread.token, thread.threadId, 'write a lot, fast');
            const deadline = Date.now() + SECONDS * 1000 + 60_000;
            while (finished === null && Date.now() < deadline) await sleep(50);
          }));
        } finally {
          subscription.close();
        }
        // A reply that did not complete is a round that failed, not a figure.
        const reading = { ...readingOf(arrivals, snapshots, finished ?? 'unfinished'), cpuCores: cpu };
        // Round 0 warms up (JIT, the provider's connection): not counted.
        if (r > 0) parley.push(reading);
        log(`C3 parley round ${r}: ${reading.status}, ${reading.deltas} deltas, ${(reading.liveShare * 100).toFixed(1)} % live, largest gap ${reading.maxGapMs.toFixed(0)} ms, snapshots ${snapshots}, server CPU ${cpu.toFixed(2)} cores`);
      }
    } finally {
      await host.kill();
    }
    for (let r = 0; r < ROUNDS; r++) {
      const reading = await readProviderDirectly(fake.url);
      floor.push(reading);
      log(`C3 floor round ${r}: ${reading.deltas} reads, largest gap ${reading.maxGapMs.toFixed(0)} ms`);
    }
  } finally {
    await fake.close();
  }
  const pick = (readings: Reading[], figure: (reading: Reading) => number) => spread(readings.map(figure));
  const ratioOf = (mine: ReturnType<typeof spread>, theirs: ReturnType<typeof spread>, perRound: number[]) => ({ ...spread(perRound), median: mine.median / theirs.median });
  const gaps = pick(parley, (reading) => reading.maxGapMs);
  const floorGaps = pick(floor, (reading) => reading.maxGapMs);
  const deltasPerSecond = pick(parley, (reading) => reading.deltas / SECONDS);
  const floorReads = pick(floor, (reading) => reading.deltas / SECONDS);
  const live = pick(parley, (reading) => reading.liveShare * 100);
  const snapshots = parley.reduce((sum, reading) => sum + reading.snapshots, 0);
  const failed = parley.filter((reading) => reading.status !== 'COMPLETED');
  if (failed.length) notes.push(`replies that did not complete: ${failed.map((reading) => reading.status).join(', ')} (each counts as not live throughout)`);
  const cpu = pick(parley, (reading) => reading.cpuCores ?? Number.NaN);
  notes.push(`${RATE * SECONDS} chunks (${REPLY_CHARS} characters) per reply at ${RATE} chunks/s (${SECONDS} s), ${ROUNDS} rounds after one warm-up; snapshots received instead of deltas: ${snapshots}`);
  notes.push(`per round (deltas, % live, largest gap, server CPU): ${parley.map((reading) => `${reading.deltas}, ${round(reading.liveShare * 100, 1)} %, ${round(reading.maxGapMs, 0)} ms, ${round(reading.cpuCores ?? Number.NaN, 2)} cores`).join('; ')}`);
  if (QUICK) notes.push(`QUICK MODE (BENCH_C3_QUICK=1): ${SECONDS} s replies, ${ROUNDS} round — a check that the row runs`);
  return {
    id: 'C3',
    what: `a provider streaming ${RATE} chunks/s (fake OpenAI protocol through @ai-sdk/openai): one ordinary subscriber receives live text throughout`,
    metrics: [
      {
        name: 'largest gap between live deltas',
        unit: 'ms',
        measured: gaps,
        floor: floorGaps,
        ratio: ratioOf(gaps, floorGaps, parley.map((reading, i) => reading.maxGapMs / floor[Math.min(i, floor.length - 1)]!.maxGapMs)),
        budget: `≤ ${MAX_GAP_MS} ms`,
        pass: gaps.max <= MAX_GAP_MS && failed.length === 0,
      },
      {
        name: 'live deltas received per second of reply',
        unit: '/s',
        measured: deltasPerSecond,
        floor: floorReads,
        ratio: ratioOf(deltasPerSecond, floorReads, parley.map((reading, i) => reading.deltas / floor[Math.min(i, floor.length - 1)]!.deltas)),
        budget: 'report (floor: the provider’s own reads)',
        pass: null,
      },
      { name: 'reply text received live', unit: '%', measured: live, budget: '≥ 90 %, no snapshot instead', pass: live.min >= 90 && snapshots === 0 && failed.length === 0 },
      { name: 'server CPU while streaming the reply', unit: 'cores', measured: cpu, budget: 'report', pass: null },
    ],
    notes,
    details: { rate: RATE, seconds: SECONDS, parley, floor },
  };
};

export const fastProvider: Row = {
  id: 'C3',
  name: 'fast-provider',
  run,
  method: `One instance on PostgreSQL + Redis; its agent's model is \`openai:gpt-bench\` on the fake OpenAI-protocol
provider of the test suites (test/support/fake-provider.ts, in the bench process, on loopback), which streams
chat-completion chunks \`w1 \`, \`w2 \`, … paced at ${RATE} chunks/s (chunk i due at the start plus i/${RATE} s;
several per timer tick) for ${SECONDS} s. One subscriber per reply reads \`runEvents\` over a WebSocket as fast as
it can, as an ordinary client does. Per reply: live deltas received, the share of the text that arrived in
deltas, snapshots received instead, and the largest gap between two consecutive deltas (from the first to
the last). Live throughout = the largest gap ≤ ${MAX_GAP_MS} ms, ≥ 90 % of the text in deltas, no snapshot.
One warm-up reply, then ${ROUNDS} rounds. *Floor:* the same provider stream read directly over HTTP by the bench
process (SSE reads and their largest gap): what any reader of that provider could see at best.`,
};
