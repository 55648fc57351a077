import { spread } from './stats.ts';
import type { Metric } from './types.ts';

/** A latency metric of Parley rounds against floor rounds measured alternately with them. */
export function ratioMetric(name: string, parley: number[], floor: number[], factor: number | null, unit = 'ms'): Metric {
  const measured = spread(parley);
  const floorSpread = spread(floor);
  const ratio = { ...spread(parley.map((x, i) => x / floor[i]!)), median: measured.median / floorSpread.median };
  return {
    name,
    unit,
    measured,
    floor: floorSpread,
    ratio,
    budget: factor === null ? 'report' : `≤ ${factor}× floor`,
    pass: factor === null ? null : ratio.median <= factor,
  };
}
