import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { clusterAuthOf, parseClusterNodes } from '../../src/events/settings.ts';

function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

describe('REDIS_CLUSTER_NODES', () => {
  it('reads comma-separated host:port seeds, IPv6 in brackets, blanks around entries ignored', () => {
    expect(parseClusterNodes('redis-1:6379, 10.0.0.2:7000,[::1]:7001')).toEqual([
      { host: 'redis-1', port: 6379 },
      { host: '10.0.0.2', port: 7000 },
      { host: '::1', port: 7001 },
    ]);
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001,127.0.0.1:7002' }).REDIS_CLUSTER_NODES).toBe('127.0.0.1:7001,127.0.0.1:7002');
  });

  it('refuses an entry that is not host:port, naming the variable and the entry', () => {
    for (const value of ['redis-1', 'redis://redis-1:6379', 'redis-1:0', 'redis-1:70000', 'a:1,,b:2']) {
      const problems = configProblems({ REDIS_CLUSTER_NODES: value });
      expect(problems, value).toHaveLength(1);
      expect(problems[0]).toMatch(/^REDIS_CLUSTER_NODES: must be comma-separated host:port seeds of a Redis Cluster: ".*" is not host:port$/);
    }
  });

  it('refuses REDIS_URL and REDIS_CLUSTER_NODES together', () => {
    expect(configProblems({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7001' })).toEqual([
      'REDIS_CLUSTER_NODES: set either REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
    ]);
  });

  it('signs in with REDIS_CLUSTER_PASSWORD (and REDIS_CLUSTER_USERNAME), which need the cluster and each other', () => {
    const nodes = { REDIS_CLUSTER_NODES: '127.0.0.1:7001' };
    expect(clusterAuthOf(loadConfig({ ...nodes, REDIS_CLUSTER_PASSWORD: 'pw' }))).toEqual({ username: undefined, password: 'pw' });
    expect(clusterAuthOf(loadConfig({ ...nodes, REDIS_CLUSTER_USERNAME: 'parley', REDIS_CLUSTER_PASSWORD: 'pw' }))).toEqual({ username: 'parley', password: 'pw' });
    expect(clusterAuthOf(loadConfig(nodes))).toEqual({});
    expect(configProblems({ REDIS_CLUSTER_PASSWORD: 'pw' })).toEqual([
      'REDIS_CLUSTER_PASSWORD: needs REDIS_CLUSTER_NODES (for one Redis, put the user and password in REDIS_URL)',
    ]);
    expect(configProblems({ ...nodes, REDIS_CLUSTER_USERNAME: 'parley' })).toEqual([
      'REDIS_CLUSTER_USERNAME: needs REDIS_CLUSTER_PASSWORD (the ACL user signs in with it)',
    ]);
  });
});
