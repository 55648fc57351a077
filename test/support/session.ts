import type { ThreadSession, ThreadState } from '../../packages/client/src/index.ts';

/** Resolves with the session's state once `condition` holds for it; fails with the state after `timeoutMs`. */
export function until(session: ThreadSession, condition: (state: ThreadState) => unknown, timeoutMs = 30_000): Promise<ThreadState> {
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out; state: ${JSON.stringify(session.getSnapshot()).slice(0, 4000)}`));
    }, timeoutMs);
    const check = () => {
      const state = session.getSnapshot();
      if (!condition(state)) return;
      clearTimeout(timer);
      stop();
      resolve(state);
    };
    stop = session.subscribe(check);
    check();
  });
}
