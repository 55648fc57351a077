/** Small statistics helpers: percentiles (nearest-rank on sorted copies), medians and spreads. */

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

/** The median of per-round figures and their min–max spread. */
export function spread(rounds: number[]): Spread {
  const finite = rounds.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, rounds };
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return { median: mid, min: sorted[0]!, max: sorted[sorted.length - 1]!, rounds };
}

/** Wall-clock time in milliseconds with sub-millisecond resolution, comparable across processes on one machine. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
