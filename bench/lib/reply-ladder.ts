/**
 * C1's steps and ladders: a step of N concurrent paced replies, its verdict, and the search for
 * the largest N a server holds (shared by Parley, the AI SDK floor and the bare Yoga floor).
 */
import { percentile } from './stats.ts';
import { log } from './log.ts';
import { windowed, type Joined } from './replies.ts';

export interface Step {
  n: number;
  /** Lateness from the chunk's emit (arrival − emit), inside the window in which all N ran. */
  p50: number;
  p99: number;
  /** Lateness from the chunk's schedule (arrival − due), inside the window: the step's verdict. */
  p50Due: number;
  p99Due: number;
  /** p99 from the emit over every chunk, the window's edges included. */
  p99All: number;
  lost: number;
  unfinished: number;
  /** Sends the server refused (each a reply not delivered). */
  refused: number;
  snapshots: number;
  overlapMs: number;
  /** From the first message sent to the last reply's first chunk. */
  startSpreadMs: number;
  /** The longest reply, first emit to last, over the nominal length (1.0 = on schedule). */
  stretch: number;
  /** Server CPU over the step, in cores (1.0 = one core busy throughout), and per chunk emitted (µs). */
  cpuCores: number;
  cpuUsPerChunk: number;
  rssMb: number;
  ok: boolean;
}

export interface StepRules {
  limitMs: number;
  minOverlapMs: number;
  seconds: number;
}

/** A step's figures and verdict from its joined streams and the server's usage over it. */
export function toStep(
  n: number,
  streams: Joined[],
  extra: { lost: number; unfinished: number; refused: number; snapshots: number; sendStarted: number; cpuMs: number; cpuCores: number; rssMb: number },
  rules: StepRules,
): Step {
  const { inside, insideDue, all, overlapMs, lastFirstEmit } = windowed(streams);
  const emitted = streams.reduce((sum, stream) => sum + stream.lateness.length, 0);
  const step = {
    n,
    p50: percentile(inside, 50),
    p99: percentile(inside, 99),
    p50Due: percentile(insideDue, 50),
    p99Due: percentile(insideDue, 99),
    p99All: percentile(all, 99),
    lost: extra.lost + streams.reduce((sum, stream) => sum + stream.lost, 0),
    unfinished: extra.unfinished,
    refused: extra.refused,
    snapshots: extra.snapshots,
    overlapMs,
    startSpreadMs: lastFirstEmit - extra.sendStarted,
    stretch: Math.max(...streams.map((stream) => stream.durationMs)) / (rules.seconds * 1000),
    cpuCores: extra.cpuCores,
    cpuUsPerChunk: (extra.cpuMs * 1000) / Math.max(1, emitted),
    rssMb: extra.rssMb,
  };
  const ok =
    step.lost === 0 &&
    step.unfinished === 0 &&
    step.refused === 0 &&
    step.snapshots === 0 &&
    step.p99Due <= rules.limitMs &&
    step.overlapMs >= rules.minOverlapMs;
  return { ...step, ok };
}

export const describeStep = (s: Step) =>
  `N=${s.n} p99 ${s.p99Due.toFixed(0)} ms from schedule (${s.p99.toFixed(0)} from emit), lost ${s.lost}${s.refused ? `, sends refused ${s.refused}` : ''}, ` +
  `overlap ${(s.overlapMs / 1000).toFixed(1)} s, longest reply ×${s.stretch.toFixed(2)}, CPU ${s.cpuCores.toFixed(2)} cores = ${s.cpuUsPerChunk.toFixed(0)} µs/chunk, ` +
  `RSS ${s.rssMb.toFixed(0)} MB → ${s.ok ? 'held' : 'not held'}`;

export const largestHeld = (steps: Step[]) => steps.filter((step) => step.ok).reduce((max, step) => Math.max(max, step.n), 0);

/**
 * One round of a ladder: from `startIndex` up while steps hold; when the first step does not hold
 * and it was not the bottom rung, down until one holds. Stops climbing once `deadline` has passed.
 */
export async function climb(ladder: number[], label: string, runStep: (n: number) => Promise<Step>, startIndex: number, deadline: number): Promise<Step[]> {
  const steps: Step[] = [];
  const report = (step: Step) => log(`C1 ${label} ${describeStep(step)}`);
  let i = startIndex;
  let step = await runStep(ladder[i]!);
  steps.push(step);
  report(step);
  const direction = step.ok ? 1 : -1;
  for (i += direction; i >= 0 && i < ladder.length && Date.now() < deadline; i += direction) {
    step = await runStep(ladder[i]!);
    steps.push(step);
    report(step);
    if (step.ok !== (direction === 1)) break;
  }
  return steps;
}

/** Rounds of a ladder within a time budget; each later round starts at the previous round's best. */
export async function rounds(
  ladder: number[],
  label: string,
  runStep: (n: number) => Promise<Step>,
  options: { rounds: number; budgetMs: number; firstIndex: number },
): Promise<Step[][]> {
  const done: Step[][] = [];
  const deadline = Date.now() + options.budgetMs;
  let start = options.firstIndex;
  for (let r = 0; r < options.rounds && Date.now() < deadline; r++) {
    const steps = await climb(ladder, `${label} round ${r + 1}`, runStep, start, deadline);
    done.push(steps);
    const best = largestHeld(steps);
    start = best ? ladder.indexOf(best) : 0;
  }
  return done;
}

/** The steps of N = n in these rounds. */
export const stepsAt = (rounds: Step[][], n: number) => rounds.flat().filter((step) => step.n === n);
