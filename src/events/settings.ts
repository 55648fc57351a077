import { z } from 'zod';
import { optionalUrl, positiveInt } from '../lifecycle/settings.ts';

/** `host:port` seeds of a Redis Cluster, as REDIS_CLUSTER_NODES lists them. */
export type ClusterSeeds = { host: string; port: number }[];

/** `a:6379,b:6379` → seeds; throws on an entry that is not host:port. */
export function parseClusterNodes(value: string): ClusterSeeds {
  return value.split(',').map((entry) => {
    const match = /^\s*([^\s:,[\]]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) throw new Error(`"${entry.trim()}" is not host:port`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

/** The live bus's slice of the settings. */
export const liveBusSettings = z.object({
  REDIS_URL: optionalUrl(['redis:', 'rediss:']).describe('Redis URL; unset = in-process pub/sub (one instance)'),
  REDIS_CLUSTER_NODES: z
    .string()
    .meta({ allowed: 'comma-separated `host:port`' })
    .optional()
    .superRefine((value, context) => {
      if (value === undefined) return;
      try {
        parseClusterNodes(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `must be comma-separated host:port seeds of a Redis Cluster: ${(error as Error).message}` });
      }
    }).describe('a Redis Cluster instead of one Redis: comma-separated `host:port` seeds; not together with `REDIS_URL`'),
  // ACL user and password of every node of the cluster (AUTH); secrets, never logged or printed.
  REDIS_CLUSTER_USERNAME: z.string().min(1).optional().describe('the ACL user that signs in with `REDIS_CLUSTER_PASSWORD` (Redis’ own default is `default`)'),
  REDIS_CLUSTER_PASSWORD: z.string().min(1).optional().describe('the password every node of the cluster requires; a secret, never printed or logged. Only with `REDIS_CLUSTER_NODES`'),
  PARLEY_LIVE_CHANNEL_TIMEOUT_MS: positiveInt.default(10_000).describe('longest a subscription waits for its live channel before it ends with `SERVICE_UNAVAILABLE`'),
});

export type LiveBusSettings = z.infer<typeof liveBusSettings>;

/** Where the live bus is: one Redis, a Redis Cluster, or this process. */
export type RedisTarget = Pick<LiveBusSettings, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'> &
  Partial<Pick<LiveBusSettings, 'REDIS_CLUSTER_USERNAME' | 'REDIS_CLUSTER_PASSWORD'>>;

/** How to sign in to every node of a Redis Cluster (ioredis' `username`/`password`); empty without a password. */
export type ClusterAuth = { username?: string; password?: string };

export function clusterAuthOf(settings: RedisTarget): ClusterAuth {
  if (settings.REDIS_CLUSTER_PASSWORD === undefined) return {};
  return { username: settings.REDIS_CLUSTER_USERNAME, password: settings.REDIS_CLUSTER_PASSWORD };
}

/** Problems of the settings together, which the schema of each cannot see. */
export function liveBusSettingsProblems(settings: RedisTarget): string[] {
  if (settings.REDIS_URL !== undefined && settings.REDIS_CLUSTER_NODES !== undefined) {
    return ['REDIS_CLUSTER_NODES: set either REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both'];
  }
  const problems: string[] = [];
  for (const name of ['REDIS_CLUSTER_USERNAME', 'REDIS_CLUSTER_PASSWORD'] as const) {
    if (settings[name] !== undefined && settings.REDIS_CLUSTER_NODES === undefined) {
      problems.push(`${name}: needs REDIS_CLUSTER_NODES (for one Redis, put the user and password in REDIS_URL)`);
    }
  }
  if (settings.REDIS_CLUSTER_USERNAME !== undefined && settings.REDIS_CLUSTER_PASSWORD === undefined) {
    problems.push('REDIS_CLUSTER_USERNAME: needs REDIS_CLUSTER_PASSWORD (the ACL user signs in with it)');
  }
  return problems;
}

/** Whether instances share a Redis (one node or a cluster), so that live delivery reaches them all. */
export const sharesRedis = (settings: RedisTarget): boolean => settings.REDIS_URL !== undefined || settings.REDIS_CLUSTER_NODES !== undefined;
