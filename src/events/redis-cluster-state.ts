import type { Cluster } from 'ioredis';
import { within } from './redis-channels.ts';

/** Longest any command waits: a stalled cluster (its processes stopped, connections open) must not hold callers. */
export const COMMAND_TIMEOUT_MS = 2_000;

/** The cluster's own view: whether its state is ok and how many of its nodes answer. */
export async function clusterState(client: Cluster): Promise<{ state: string; nodes: number; reachable: number }> {
  const nodes = client.nodes('all');
  const answers = await Promise.all(
    nodes.map((node) =>
      within(node.cluster('INFO') as Promise<string>, COMMAND_TIMEOUT_MS, () => new Error('no answer')).then(
        (info) => /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown',
        () => null,
      ),
    ),
  );
  const states = answers.filter((answer): answer is string => answer !== null);
  const state = states.length === 0 ? 'unreachable' : states.every((answer) => answer === 'ok') ? 'ok' : (states.find((answer) => answer !== 'ok') ?? 'ok');
  return { state, nodes: nodes.length, reachable: states.length };
}
