/**
 * `node --max-old-space-size=6144 --import tsx bench/heap-retainers.ts <after.heapsnapshot> [<before.heapsnapshot> <subscriptions>] [top]`:
 * reads V8 heap snapshots (`node --heapsnapshot-signal=SIGUSR2`, see bench/heap-snapshot.ts) and
 * prints, by constructor (object class, closure name, or V8 type for strings, arrays, code …):
 *   - self size: the bytes of the objects themselves (these add up to the heap);
 *   - retained size: what would be freed with the outermost objects of that class (their dominator
 *     subtrees); classes overlap here (a socket's retained size includes its buffers);
 *   - by retainer: every object's self size charged to its nearest dominator whose class has a
 *     name (not a plain Object, array, closure without a name, string …); these add up to the heap.
 * Given a snapshot before and the number of subscriptions opened in between, both are shown as
 * the difference per subscription. The snapshots are read as a stream (they can exceed the
 * longest string V8 can parse at once).
 */
import { closeSync, openSync, readSync } from 'node:fs';

interface Snapshot {
  nodeFields: string[];
  edgeFields: string[];
  nodeTypes: string[];
  edgeTypes: string[];
  nodes: Float64Array;
  edges: Uint32Array;
  strings: string[];
}

/** Reads the snapshot's header, its `nodes` and `edges` number arrays, and its `strings`. */
function readSnapshot(path: string): Snapshot {
  const fd = openSync(path, 'r');
  const chunk = Buffer.alloc(1 << 22);
  let buffered = Buffer.alloc(0);
  let position = 0;
  let done = false;
  const fill = () => {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    position += read;
    if (read === 0) done = true;
    buffered = Buffer.concat([buffered, chunk.subarray(0, read)]);
  };
  /** Buffered text up to and including `marker` (reading on until it appears). */
  const until = (marker: string): string => {
    for (;;) {
      const at = buffered.indexOf(marker);
      if (at >= 0) {
        const text = buffered.subarray(0, at + marker.length).toString('utf8');
        buffered = buffered.subarray(at + marker.length);
        return text;
      }
      if (done) throw new Error(`${path}: no ${marker}`);
      fill();
    }
  };
  /** Parses non-negative integers separated by commas up to the closing bracket. */
  const numbers = (): Float64Array => {
    let values = new Float64Array(1 << 20);
    let count = 0;
    let current = 0;
    let inNumber = false;
    for (;;) {
      for (let i = 0; i < buffered.length; i++) {
        const byte = buffered[i]!;
        if (byte >= 48 && byte <= 57) {
          current = current * 10 + (byte - 48);
          inNumber = true;
          continue;
        }
        if (inNumber) {
          if (count === values.length) {
            const grown = new Float64Array(values.length * 2);
            grown.set(values);
            values = grown;
          }
          values[count++] = current;
          current = 0;
          inNumber = false;
        }
        if (byte === 93 /* ] */) {
          buffered = buffered.subarray(i + 1);
          return values.subarray(0, count);
        }
      }
      buffered = Buffer.alloc(0);
      if (done) throw new Error(`${path}: unterminated number array`);
      fill();
    }
  };
  const header = until('"nodes":[');
  const meta = JSON.parse(`${header.slice(0, header.lastIndexOf('"nodes":[')).trimEnd().replace(/,$/, '')}}`).snapshot.meta;
  const nodes = numbers();
  until('"edges":[');
  const edges = Uint32Array.from(numbers());
  until('"strings":');
  while (!done) fill();
  closeSync(fd);
  const rest = buffered.toString('utf8').trimEnd();
  const strings = JSON.parse(rest.slice(0, rest.lastIndexOf('}'))) as string[];
  return {
    nodeFields: meta.node_fields,
    edgeFields: meta.edge_fields,
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    nodes,
    edges,
    strings,
  };
}

interface ClassSizes {
  count: number;
  self: number;
  retained: number;
  /** Self sizes of the objects this class is the nearest named dominator of (itself included). */
  owned: number;
  /** The same, by the constructor of the objects owned. */
  contents: Map<string, number>;
}

/** Classes that say nothing of who holds them: their bytes are charged to the nearest named dominator. */
const GENERIC = new Set(['Object', 'Array', 'system', 'Promise', 'Map', 'Set', 'native_bind()', '(anonymous)()']);
const isGeneric = (name: string) => name.startsWith('(') || GENERIC.has(name);

/** Self and retained size by class; retained from the dominator tree (Cooper, Harvey and Kennedy). */
function sizesByClass(snapshot: Snapshot): Map<string, ClassSizes> {
  const { nodes, edges, nodeFields, edgeFields, nodeTypes, edgeTypes, strings } = snapshot;
  const nodeWidth = nodeFields.length;
  const edgeWidth = edgeFields.length;
  const count = nodes.length / nodeWidth;
  const typeAt = nodeFields.indexOf('type');
  const nameAt = nodeFields.indexOf('name');
  const selfAt = nodeFields.indexOf('self_size');
  const edgeCountAt = nodeFields.indexOf('edge_count');
  const edgeTypeAt = edgeFields.indexOf('type');
  const toAt = edgeFields.indexOf('to_node');
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');

  const firstEdge = new Uint32Array(count + 1);
  for (let n = 0; n < count; n++) firstEdge[n + 1] = firstEdge[n]! + nodes[n * nodeWidth + edgeCountAt]! * edgeWidth;
  const followed = (e: number) => edges[e + edgeTypeAt] !== weak && edges[e + edgeTypeAt] !== shortcut;

  // Post-order of the nodes reachable from the root (node 0), iteratively.
  const order = new Int32Array(count).fill(-1);
  const postOrder = new Uint32Array(count);
  let visited = 0;
  const stack = new Uint32Array(count);
  const cursor = new Uint32Array(count);
  const seen = new Uint8Array(count);
  let depth = 0;
  stack[depth++] = 0;
  seen[0] = 1;
  cursor[0] = firstEdge[0]!;
  while (depth > 0) {
    const n = stack[depth - 1]!;
    let pushed = false;
    while (cursor[n]! < firstEdge[n + 1]!) {
      const e = cursor[n]!;
      cursor[n] = e + edgeWidth;
      if (!followed(e)) continue;
      const to = edges[e + toAt]! / nodeWidth;
      if (seen[to]) continue;
      seen[to] = 1;
      cursor[to] = firstEdge[to]!;
      stack[depth++] = to;
      pushed = true;
      break;
    }
    if (!pushed) {
      depth--;
      order[n] = visited;
      postOrder[visited++] = n;
    }
  }

  // Predecessors (reachable ones only), as compressed rows.
  const predecessorCount = new Uint32Array(count + 1);
  for (let n = 0; n < count; n++) {
    if (order[n] === -1) continue;
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeWidth) {
      if (followed(e)) predecessorCount[edges[e + toAt]! / nodeWidth + 1]!++;
    }
  }
  for (let n = 0; n < count; n++) predecessorCount[n + 1]! += predecessorCount[n]!;
  const predecessors = new Uint32Array(predecessorCount[count]!);
  const filled = predecessorCount.slice(0, count);
  for (let n = 0; n < count; n++) {
    if (order[n] === -1) continue;
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeWidth) {
      if (followed(e)) predecessors[filled[edges[e + toAt]! / nodeWidth]!++] = n;
    }
  }

  const dominator = new Int32Array(count).fill(-1);
  dominator[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! < order[b]!) a = dominator[a]!;
      while (order[b]! < order[a]!) b = dominator[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = visited - 2; i >= 0; i--) {
      const n = postOrder[i]!;
      let next = -1;
      for (let p = predecessorCount[n]!; p < predecessorCount[n + 1]!; p++) {
        const from = predecessors[p]!;
        if (dominator[from] === -1) continue;
        next = next === -1 ? from : intersect(from, next);
      }
      if (next !== -1 && dominator[n] !== next) {
        dominator[n] = next;
        changed = true;
      }
    }
  }

  const retained = new Float64Array(count);
  for (let i = 0; i < visited; i++) {
    const n = postOrder[i]!;
    retained[n]! += nodes[n * nodeWidth + selfAt]!;
    if (n !== 0) retained[dominator[n]!]! += retained[n]!;
  }

  const classOf = (n: number) => {
    const type = nodeTypes[nodes[n * nodeWidth + typeAt]!]!;
    const name = strings[nodes[n * nodeWidth + nameAt]!] ?? '';
    if (type === 'object' || type === 'native') return name.split(' ')[0] || `(${type})`;
    if (type === 'closure') return `${name || '(anonymous)'}()`;
    return `(${type})`;
  };
  const classes = new Map<string, ClassSizes>();
  const names: string[] = new Array(count);
  const owner = new Int32Array(count);
  const sizesOf = (name: string) => {
    let sizes = classes.get(name);
    if (!sizes) classes.set(name, (sizes = { count: 0, self: 0, retained: 0, owned: 0, contents: new Map() }));
    return sizes;
  };
  // Reverse post-order: a node's dominator comes before it.
  for (let i = visited - 1; i >= 0; i--) {
    const n = postOrder[i]!;
    const name = (names[n] = classOf(n));
    owner[n] = n === 0 || !isGeneric(name) ? n : owner[dominator[n]!]!;
    const owning = sizesOf(names[owner[n]!]!);
    owning.owned += nodes[n * nodeWidth + selfAt]!;
    owning.contents.set(name, (owning.contents.get(name) ?? 0) + nodes[n * nodeWidth + selfAt]!);
    const sizes = sizesOf(name);
    sizes.count++;
    sizes.self += nodes[n * nodeWidth + selfAt]!;
    // Outermost of its class only: an object inside another of the same class is counted in it.
    let outer = n === 0 ? -1 : dominator[n]!;
    while (outer > 0 && names[outer] !== name) outer = dominator[outer]!;
    if (outer <= 0 || names[outer] !== name) sizes.retained += retained[n]!;
  }
  return classes;
}

const [afterPath, beforePath, perArg, topArg] = process.argv.slice(2);
if (!afterPath) throw new Error('usage: heap-retainers <after.heapsnapshot> [<before.heapsnapshot> <subscriptions>] [top]');
const per = beforePath ? Number(perArg) : 1;
const top = Number((beforePath ? topArg : beforePath) ?? 30);
const after = sizesByClass(readSnapshot(afterPath));
const before = beforePath ? sizesByClass(readSnapshot(beforePath)) : new Map<string, ClassSizes>();
const rows = [...after].map(([name, sizes]) => {
  const base = before.get(name) ?? { count: 0, self: 0, retained: 0, owned: 0, contents: new Map<string, number>() };
  const change = (key: 'count' | 'self' | 'retained' | 'owned') => (sizes[key] - base[key]) / per;
  const contents = [...sizes.contents].map(([kind, bytes]) => [kind, (bytes - (base.contents.get(kind) ?? 0)) / per] as const);
  return { name, count: change('count'), self: change('self'), retained: change('retained'), owned: change('owned'), contents };
});
const unit = beforePath ? ' per subscription' : '';
const table = (title: string, key: 'self' | 'retained' | 'owned') => {
  console.log(`\n${title}${unit}\n| constructor | objects | ${key} bytes |\n|---|---:|---:|`);
  for (const row of [...rows].sort((a, b) => b[key] - a[key]).slice(0, top)) {
    console.log(`| ${row.name.replace(/\|/g, '\\|')} | ${row.count.toFixed(beforePath ? 2 : 0)} | ${row[key].toFixed(0)} |`);
  }
};
const totalSelf = rows.reduce((sum, row) => sum + row.self, 0);
console.log(`heap${unit}: ${totalSelf.toFixed(0)} bytes (sum of self sizes${beforePath ? `, difference over ${per} subscriptions` : ''})`);
table('Self size by constructor', 'self');
table('Retained size by constructor (outermost objects of the class; classes overlap)', 'retained');
table('Self size by retainer (each object charged to its nearest dominator of a named class; adds up to the heap)', 'owned');
console.log(`\nWhat the largest retainers hold, by constructor${unit} (bytes)`);
for (const row of [...rows].sort((a, b) => b.owned - a.owned).slice(0, 12)) {
  const parts = [...row.contents].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([kind, bytes]) => `${kind} ${bytes.toFixed(0)}`);
  console.log(`- ${row.name} (${row.owned.toFixed(0)}): ${parts.join(', ')}`);
}
