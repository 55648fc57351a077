import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './instances.ts';
import { eventually } from './server.ts';

// A Redis Cluster of a suite's own: three masters and three replicas on free loopback ports, in a
// temp folder, never the machine's Redis. Every process started here is killed when the test
// process exits, as a last resort after a hook that timed out.

const run = promisify(execFile);
const started = new Set<ChildProcess>();
const folders = new Set<string>();
/** The password of each node of a cluster started with one (`requirepass`), by port. */
const passwords = new Map<number, string>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Short, so that a killed master's replica is elected within a couple of seconds when nobody forces it. */
const NODE_TIMEOUT_MS = 1_000;

export interface ClusterNode {
  port: number;
  /** The node's cluster id (CLUSTER MYID). */
  id: string;
  process: ChildProcess;
}

export interface RedisCluster {
  /** `127.0.0.1:<port>` of every node, comma-separated: REDIS_CLUSTER_NODES. */
  seeds: string;
  nodes: ClusterNode[];
  /** The master that owns `slot` now (as the running nodes agree). */
  masterOf(slot: number): Promise<ClusterNode>;
  /** The slot of a key or channel (CLUSTER KEYSLOT). */
  slotOf(key: string): Promise<number>;
  /** SIGKILLs a master and waits for its exit. */
  kill(node: ClusterNode): Promise<void>;
  /**
   * Promotes `master`'s replica (CLUSTER FAILOVER TAKEOVER: no vote, so no wait for the node
   * timeout) and resolves once every running node sees it own `master`'s slots and says
   * `cluster_state:ok`. Returns the new master.
   */
  promoteReplicaOf(master: ClusterNode): Promise<ClusterNode>;
  /** Moves `slot` to `target` as `redis-cli --cluster reshard` does (IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE). */
  migrateSlot(slot: number, target: ClusterNode): Promise<void>;
  /** SIGKILLs every running node and waits for their exits: connections are refused, nothing is kept but each node's cluster config. */
  killAll(): Promise<void>;
  /**
   * Starts every node that is not running on its port again, with its cluster config (so it rejoins
   * with its id, slots and epoch; persistence is off, so no key survives), and resolves once every
   * node says `cluster_state:ok` with one slot map.
   */
  restartAll(): Promise<void>;
  /** SIGSTOPs every running node: connections stay open, nothing answers. */
  pause(): void;
  /** SIGCONTs them, and resolves once every running node says `cluster_state:ok` again. */
  resume(): Promise<void>;
  /** A plain connection to one node (the caller disconnects it). */
  connect(node: ClusterNode): Redis;
  /** Resolves once every running node says `cluster_state:ok` and agrees on who owns every slot. */
  settled(timeoutMs?: number): Promise<void>;
  /** Kills every node and removes the folder. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const alive = (node: ClusterNode) => node.process.exitCode === null && node.process.signalCode === null;

/** `eventually` for nodes that may refuse a look while they start or fail over: a refusal is one more look, and the last one is reported. */
async function poll<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  let last: unknown = null;
  const tolerant = async () => {
    try {
      return await probe();
    } catch (error) {
      last = error;
      return null;
    }
  };
  return eventually(tolerant, timeoutMs, `${what} (redis cluster)`).catch((error: Error) => {
    throw new Error(`${error.message}${last ? ` (${String(last)})` : ''}`);
  });
}

/** One command on a fresh connection to `port`, bounded: a paused or dead node must not hang the suite. */
async function ask(port: number, ...args: (string | number)[]): Promise<unknown> {
  const connection = new Redis({ port, host: '127.0.0.1', password: passwords.get(port), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 1_000 });
  connection.on('error', () => {});
  try {
    await connection.connect();
    return await connection.call(String(args[0]), ...args.slice(1).map(String));
  } finally {
    connection.disconnect();
  }
}

function startNode(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
      '--cluster-config-file', path.join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', String(NODE_TIMEOUT_MS),
      '--appendonly', 'no', '--save', '', '--dir', dir, '--daemonize', 'no',
      // A node of a cluster with a password asks it of clients and gives it to its master as a replica.
      ...(passwords.has(port) ? ['--requirepass', passwords.get(port)!, '--masterauth', passwords.get(port)!] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.add(child);
  child.once('exit', () => started.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server ${port} did not start within 10 s:\n${output}`)), 10_000);
    const onData = (chunk: string) => {
      output += chunk;
      if (!output.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.removeAllListeners('data').resume();
      child.stderr!.removeAllListeners('data').resume();
      resolve(child);
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`redis-server ${port} exited early (code ${code}):\n${output}`));
    };
    child.once('exit', onExit);
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
  });
}

/** CLUSTER SLOTS as seen by `port`: slot → master port. */
async function slotMap(port: number): Promise<Map<number, number>> {
  const ranges = (await ask(port, 'CLUSTER', 'SLOTS')) as [number, number, [string, number, string], ...unknown[]][];
  const map = new Map<number, number>();
  for (const [from, to, [, master]] of ranges) for (let slot = from; slot <= to; slot++) map.set(slot, Number(master));
  return map;
}

const clusterOk = async (port: number) => String(await ask(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok');

/**
 * Three masters and three replicas, created with `redis-cli --cluster create … --cluster-replicas 1`;
 * with `password`, every node requires it (`requirepass`, `masterauth`).
 */
export async function startRedisCluster(options: { password?: string } = {}): Promise<RedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-redis-cluster-'));
  folders.add(dir);
  const ports: number[] = [];
  while (ports.length < 6) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  if (options.password) for (const port of ports) passwords.set(port, options.password);
  const nodes: ClusterNode[] = await Promise.all(
    ports.map(async (port) => ({ port, id: '', process: await startNode(dir, port) })),
  );
  for (const node of nodes) node.id = String(await ask(node.port, 'CLUSTER', 'MYID'));
  const signIn = options.password ? ['-a', options.password, '--no-auth-warning'] : [];
  await run('redis-cli', [...signIn, '--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes']);
  const byPort = (port: number) => {
    const node = nodes.find((candidate) => candidate.port === port);
    if (!node) throw new Error(`redis cluster: no node on ${port}`);
    return node;
  };

  const settled = async (timeoutMs = 15_000) => {
    await poll(
      async () => {
        const running = nodes.filter(alive);
        const states = await Promise.all(running.map((node) => clusterOk(node.port)));
        if (!states.every(Boolean)) return false;
        const maps = await Promise.all(running.map((node) => slotMap(node.port)));
        const first = JSON.stringify([...maps[0]!]);
        // Every slot served by a running master, and every node agrees on it.
        return maps[0]!.size === 16_384 && [...maps[0]!.values()].every((port) => alive(byPort(port))) && maps.every((map) => JSON.stringify([...map]) === first);
      },
      timeoutMs,
      'cluster_state:ok on every node, with one slot map',
    );
  };
  await settled();

  const anyRunning = () => {
    const node = nodes.find(alive);
    if (!node) throw new Error('redis cluster: no node is running');
    return node;
  };
  const killNode = async (node: ClusterNode) => {
    const done = exited(node.process);
    node.process.kill('SIGKILL');
    await done;
  };
  const masterOf = async (slot: number) => {
    const port = (await slotMap(anyRunning().port)).get(slot);
    if (port === undefined) throw new Error(`redis cluster: nobody owns slot ${slot}`);
    return byPort(port);
  };

  return {
    seeds: ports.map((port) => `127.0.0.1:${port}`).join(','),
    nodes,
    masterOf,
    slotOf: async (key) => Number(await ask(anyRunning().port, 'CLUSTER', 'KEYSLOT', key)),
    kill: killNode,
    async promoteReplicaOf(master) {
      const nodesLine = String(await ask(anyRunning().port, 'CLUSTER', 'NODES'));
      const replicaLine = nodesLine.split('\n').find((line) => line.split(' ')[3] === master.id);
      if (!replicaLine) throw new Error(`redis cluster: ${master.port} has no replica:\n${nodesLine}`);
      const replica = byPort(Number(replicaLine.split(' ')[1]!.split('@')[0]!.split(':')[1]));
      const owned = [...(await slotMap(replica.port)).entries()].filter(([, port]) => port === master.port).map(([slot]) => slot);
      // An automatic election may already be under way; TAKEOVER then is refused or redundant.
      await ask(replica.port, 'CLUSTER', 'FAILOVER', 'TAKEOVER').catch(() => {});
      await poll(
        async () => {
          const maps = await Promise.all(nodes.filter(alive).map((node) => slotMap(node.port)));
          return maps.every((map) => owned.every((slot) => map.get(slot) === replica.port));
        },
        15_000,
        `${replica.port} to own the slots of ${master.port} on every running node`,
      );
      await settled();
      return replica;
    },
    async migrateSlot(slot, target) {
      const source = await masterOf(slot);
      if (source === target) throw new Error(`redis cluster: ${target.port} owns slot ${slot} already`);
      await ask(target.port, 'CLUSTER', 'SETSLOT', slot, 'IMPORTING', source.id);
      await ask(source.port, 'CLUSTER', 'SETSLOT', slot, 'MIGRATING', target.id);
      for (;;) {
        const keys = (await ask(source.port, 'CLUSTER', 'GETKEYSINSLOT', slot, 100)) as string[];
        if (keys.length === 0) break;
        await ask(source.port, 'MIGRATE', '127.0.0.1', target.port, '', 0, 5_000, 'KEYS', ...keys);
      }
      // The target first, as redis-cli does: the slot is never without an owner that knows it.
      await ask(target.port, 'CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
      await ask(source.port, 'CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
      for (const node of nodes.filter((node) => alive(node) && node !== source && node !== target)) {
        // A replica refuses SETSLOT; it learns the owner from its master over the cluster bus.
        await ask(node.port, 'CLUSTER', 'SETSLOT', slot, 'NODE', target.id).catch(() => {});
      }
      await poll(async () => (await Promise.all(nodes.filter(alive).map((node) => slotMap(node.port)))).every((map) => map.get(slot) === target.port), 10_000, `slot ${slot} on ${target.port}`);
      await settled();
    },
    async killAll() {
      await Promise.all(nodes.filter(alive).map(killNode));
    },
    async restartAll() {
      for (const node of nodes.filter((candidate) => !alive(candidate))) node.process = await startNode(dir, node.port);
      await settled(30_000);
    },
    pause() {
      for (const node of nodes.filter(alive)) node.process.kill('SIGSTOP');
    },
    async resume() {
      for (const node of nodes.filter(alive)) node.process.kill('SIGCONT');
      await settled();
    },
    connect: (node) => new Redis({ port: node.port, host: '127.0.0.1', password: passwords.get(node.port) }),
    settled,
    async stop() {
      await Promise.all(
        nodes.map(async (node) => {
          const done = exited(node.process);
          node.process.kill('SIGCONT');
          node.process.kill('SIGKILL');
          await done;
        }),
      );
      for (const port of ports) passwords.delete(port);
      folders.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
