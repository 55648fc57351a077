/**
 * CPU and allocation profiles of a window of a bench server's life: `profileStart` and
 * `profileStop` are IPC commands of host.ts and sdk-server.ts, so a profile covers one step of a
 * row instead of the whole process (start-up, setup and warm-up left out). The CPU profile is the
 * inspector's sampling profiler (the one `--cpu-prof` uses, 1 ms); the allocation profile is V8's
 * sampling heap profiler with the objects collected since counted too (where the V8 has that),
 * so it says where the window's allocations were made, garbage included. Both are written beside
 * each other (<path> and <path without .cpuprofile>.heapprofile); read them with
 * bench/profile-summary.ts.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

let session: Session | null = null;

export async function profileStart(args?: { intervalUs?: number; heapIntervalBytes?: number }): Promise<boolean> {
  if (session) return false;
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: args?.intervalUs ?? 1000 });
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: args?.heapIntervalBytes ?? 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  await session.post('Profiler.start');
  return true;
}

export async function profileStop(args: { path: string }): Promise<string | null> {
  if (!session) return null;
  const { profile } = await session.post('Profiler.stop');
  const { profile: heap } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(args.path, JSON.stringify(profile));
  writeFileSync(args.path.replace(/\.cpuprofile$/, '') + '.heapprofile', JSON.stringify(heap));
  await session.post('Profiler.disable');
  await session.post('HeapProfiler.disable');
  session.disconnect();
  session = null;
  return args.path;
}
