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

export type Row = (options: { profileDir?: string }) => Promise<RowResult>;
