/** A process's CPU time and RSS read from /proc: the same reading for a Parley host and a floor server. */
import { readFileSync } from 'node:fs';

/** CPU time (ms) and RSS (MB) of a process, from /proc: the same reading for Parley and the floor. */
export function processUsage(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuMs: ticks * 10, rssMb: Number(rss ?? 0) / 1024 };
}

/** Samples a process's RSS every second while `work` runs; its CPU over the whole of it. */
export async function measured<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpuMs: number; cpuCores: number; rssMb: number }> {
  const before = processUsage(pid);
  const started = Date.now();
  let last = before;
  let peak = before.rssMb;
  const sample = () => {
    try {
      last = processUsage(pid);
      peak = Math.max(peak, last.rssMb);
    } catch {
      // The process ended: its last reading stands.
    }
  };
  const timer = setInterval(sample, 1_000);
  try {
    const result = await work();
    sample();
    return { result, cpuMs: last.cpuMs - before.cpuMs, cpuCores: (last.cpuMs - before.cpuMs) / Math.max(1, Date.now() - started), rssMb: peak };
  } finally {
    clearInterval(timer);
  }
}
