import type { Spread } from './stats.ts';

export interface Metric {
  name: string;
  unit: string;
  measured: Spread;
  floor?: Spread;
  /** measured median ÷ floor median, and the min–max of the per-round ratios (round i ÷ floor round i). */
  ratio?: Spread;
  budget: string;
  pass: boolean | null;
}

export interface RowResult {
  id: string;
  what: string;
  metrics: Metric[];
  notes: string[];
  details?: Record<string, unknown>;
  durationS?: number;
  error?: string;
}

/** What the host's SQL counter (host.ts BENCH_COUNT_SQL) has seen. */
export interface SqlCounts {
  total: number;
  writes: number;
  begins: number;
  commits: number;
  byTable: Record<string, number>;
  all: string[];
}

/** One benchmark row: its id is the label in the output and in BENCHMARKS.md, its name what it measures. */
export interface Row {
  id: string;
  name: string;
  run(options: { profileDir?: string }): Promise<RowResult>;
  /** How long the row may take at most (bench/run.ts's hard limit adds these up); 2 minutes when unset. */
  timeLimitMs?: number;
  /** BENCHMARKS.md's account of what the row measures and how. */
  method: string;
}
