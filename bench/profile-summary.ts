/**
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile | file.heapprofile> [top] [--chunks N]`:
 * reads a `--cpu-prof` profile (or a step's profile from bench/lib/inspector-profile.ts) and prints
 *   - the main thread's time by kind (idle, GC, the AI SDK, web streams, GraphQL, sockets, Redis, the database, src/ …);
 *   - self time by package or file (node_modules package, Node.js internal module, or a file of src/ or bench/);
 *   - self time by function;
 *   - for functions of src/: self and total time (total: the samples with the function anywhere on the stack).
 * Lines of src/ and bench/ functions run through tsx are found by column (bench/lib/source-lines.ts; the
 * Node.js version is read from the file name, `v24.1.0`, else this process's).
 * Percentages are of the busy time (everything but idle). With `--chunks N` (the chunks the step
 * streamed; a C1 step's profile has it beside it), each line also says µs per chunk: of CPU (the share of busy time ×
 * the process's CPU per chunk from /proc) where the step's figures are there, of main-thread time otherwise.
 * An allocation profile (.heapprofile, V8's sampling heap profiler) is read the same way, in bytes:
 * what was allocated where during the window (garbage included), by kind, file and function.
 */
import { readFileSync } from 'node:fs';
import { categoryOf, whereOf } from './lib/profile-categories.ts';
import { sourceLine } from './lib/source-lines.ts';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}
interface CpuNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

const args = process.argv.slice(2);
const chunksAt = args.indexOf('--chunks');
const positional = args.filter((arg, i) => !arg.startsWith('--') && (chunksAt < 0 || i !== chunksAt + 1));
const [file, topArg] = positional;
if (!file) throw new Error('usage: profile-summary <file.cpuprofile|file.heapprofile> [top] [--chunks N]');
/** A C1 step's profile has its figures beside it (<name>.json: chunks streamed, the process's CPU from /proc). */
const meta = (() => {
  try {
    return JSON.parse(readFileSync(file.replace(/\.(cpuprofile|heapprofile)$/, '.json'), 'utf8')) as { chunks: number; cpuMs: number };
  } catch {
    return null;
  }
})();
const chunks = chunksAt >= 0 ? Number(args[chunksAt + 1]) : (meta?.chunks ?? 0);
const top = Number(topArg ?? 25);
const heap = file.endsWith('.heapprofile');
const unit = heap ? 'KB' : 'ms';
const scale = heap ? 1 / 1024 : 1 / 1000;
const perChunkUnit = heap ? 'B' : 'µs';

// tsx compiles a file into one line: the source line is looked up by column (source-lines.ts), for the profile's Node.js version.
const nodeVersion = /v(\d+\.\d+\.\d+)/.exec(file)?.[1] ?? process.versions.node;
const nameOf = (frame: CallFrame) => {
  const line = frame.lineNumber === 0 && frame.columnNumber ? sourceLine(frame.url, frame.columnNumber, nodeVersion) || 1 : frame.lineNumber + 1;
  return `${frame.functionName || '(anonymous)'} ${whereOf(frame.url)}:${line}`;
};

/** Each sample (or sampled allocation): its weight and its stack of frames, leaf first. */
const samples: { weight: number; stack: CallFrame[] }[] = [];
if (heap) {
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
  const walk = (node: HeapNode, stack: CallFrame[]) => {
    const mine = [node.callFrame, ...stack];
    if (node.selfSize > 0) samples.push({ weight: node.selfSize, stack: mine });
    for (const child of node.children) walk(child, mine);
  };
  walk(head, []);
} else {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: CpuNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<number, CallFrame[]>();
  const stackOf = (id: number): CallFrame[] => {
    let stack = stacks.get(id);
    if (!stack) {
      const up = parent.get(id);
      stack = [byId.get(id)!.callFrame, ...(up === undefined ? [] : stackOf(up))];
      stacks.set(id, stack);
    }
    return stack;
  };
  // A sample's time is the delta to the next sample (as Chrome DevTools counts it).
  profile.samples.forEach((id, i) => samples.push({ weight: profile.timeDeltas[i + 1] ?? 0, stack: stackOf(id) }));
}

const total = samples.reduce((sum, sample) => sum + sample.weight, 0);
const idle = samples.filter((sample) => sample.stack[0]!.functionName === '(idle)').reduce((sum, sample) => sum + sample.weight, 0);
const busy = total - idle;
const byKind = new Map<string, number>();
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
const srcSelf = new Map<string, number>();
const srcTotal = new Map<string, number>();
const add = (map: Map<string, number>, key: string, weight: number) => map.set(key, (map.get(key) ?? 0) + weight);
for (const { weight, stack } of samples) {
  const leaf = stack[0]!;
  if (leaf.functionName === '(idle)') continue;
  add(byKind, categoryOf(stack), weight);
  add(byFile, leaf.url ? whereOf(leaf.url) : `(native) ${leaf.functionName}`, weight);
  add(byFunction, nameOf(leaf), weight);
  if (whereOf(leaf.url).startsWith('src/')) add(srcSelf, nameOf(leaf), weight);
  const seen = new Set<string>();
  for (const frame of stack) {
    if (!whereOf(frame.url).startsWith('src/')) continue;
    const name = nameOf(frame);
    if (seen.has(name)) continue;
    seen.add(name);
    add(srcTotal, name, weight);
  }
}

/** Per chunk: bytes for an allocation profile; for a CPU profile with its step's figures, the share of busy time × the process's CPU per chunk, else main-thread time. */
const perChunk = (weight: number) => (heap || !meta ? weight / chunks : (weight / busy) * ((meta.cpuMs * 1000) / chunks));
const line = (weight: number, label: string, extra = '') =>
  `${((100 * weight) / busy).toFixed(1).padStart(5)}%  ${(weight * scale).toFixed(0).padStart(7)} ${unit}` +
  (chunks ? `  ${perChunk(weight).toFixed(heap ? 0 : 2).padStart(7)} ${perChunkUnit}/chunk` : '') +
  `${extra}  ${label}`;
const print = (title: string, map: Map<string, number>, count = top) => {
  console.log(`\n${title}`);
  for (const [name, weight] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(line(weight, name));
};
console.log(
  heap
    ? `${file}: ${(total / 1024 / 1024).toFixed(1)} MB allocated (sampled)${chunks ? `, ${chunks} chunks: ${(total / chunks).toFixed(0)} B per chunk` : ''}`
    : `${file}: ${(total / 1000).toFixed(0)} ms sampled, busy ${(busy / 1000).toFixed(0)} ms (${((100 * busy) / total).toFixed(0)} %)` +
        (chunks ? `, ${chunks} chunks: ${(busy / chunks).toFixed(1)} µs of the main thread per chunk` : '') +
        // The sampler counts wall-clock time: on a loaded machine a thread waiting for a core is "busy". The process's CPU puts a scale on the shares.
        (meta && chunks ? `; the process's CPU (/proc): ${((meta.cpuMs * 1000) / chunks).toFixed(1)} µs per chunk, so 1 % of busy ≈ ${((meta.cpuMs * 10) / chunks).toFixed(2)} µs of CPU per chunk` : ''),
);
print(`by kind (% of ${heap ? 'allocated bytes' : 'busy time'})`, byKind, 40);
print('self by package / file', byFile);
print('self by function', byFunction);
console.log(`\nsrc/ functions by total (self in brackets), % of ${heap ? 'allocated bytes' : 'busy time'}`);
for (const [name, weight] of [...srcTotal].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  const self = srcSelf.get(name) ?? 0;
  console.log(line(weight, name, `  (self ${((100 * self) / busy).toFixed(1)}%)`));
}
