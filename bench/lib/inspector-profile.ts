/**
 * CPU profiles of a window of a bench server's life (the inspector's sampling profiler, the one
 * `--cpu-prof` uses): `profileStart` and `profileStop` are IPC commands of host.ts and
 * sdk-server.ts, so a profile covers one step of a row instead of the whole process (start-up,
 * setup and warm-up left out). Read them with bench/profile-summary.ts.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

let session: Session | null = null;

export async function profileStart(args?: { intervalUs?: number }): Promise<boolean> {
  if (session) return false;
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: args?.intervalUs ?? 1000 });
  await session.post('Profiler.start');
  return true;
}

export async function profileStop(args: { path: string }): Promise<string | null> {
  if (!session) return null;
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(args.path, JSON.stringify(profile));
  await session.post('Profiler.disable');
  session.disconnect();
  session = null;
  return args.path;
}
