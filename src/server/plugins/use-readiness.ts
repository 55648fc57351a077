import { useReadinessCheck, type Plugin } from 'graphql-yoga';

export interface ReadinessOptions {
  /** Each resolves when its dependency answers; one that rejects or takes over 2 s is down. */
  probes: { database: () => Promise<void>; redis: () => Promise<void> };
  /** False once shutdown has begun, so that load balancers stop sending work here. */
  isAccepting: () => boolean;
  /** PARLEY_ROLE, shown in the answer so an operator sees what the instance does. */
  role?: string;
}

const PROBE_TIMEOUT_MS = 2_000;

/** `/ready`, the readiness probe: 200 when the database and Redis answer and the instance accepts work, else 503. */
export function useReadiness({ probes, isAccepting, role }: ReadinessOptions): Plugin {
  return useReadinessCheck({
    endpoint: '/ready',
    check: async ({ fetchAPI }) => {
      const [database, redis] = await Promise.all([answers(probes.database), answers(probes.redis)]);
      const accepting = isAccepting();
      const ready = accepting && database && redis;
      return new fetchAPI.Response(
        JSON.stringify({ status: ready ? 'ready' : 'unavailable', database, redis, accepting, ...(role ? { role } : {}) }),
        { status: ready ? 200 : 503, headers: { 'content-type': 'application/json' } },
      );
    },
  });
}

async function answers(probe: () => Promise<void>): Promise<boolean> {
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS)),
    ]);
    return true;
  } catch {
    return false;
  }
}
