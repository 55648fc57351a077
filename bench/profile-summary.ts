/**
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]`: self time by function and
 * by file (node_modules package or src/ file), to read a `--cpu-prof` profile of a bench run.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
}
const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const where = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const src = /\/work\/main\/(.*)$/.exec(url)?.[1];
  return src ?? (url || '(native/gc/idle)');
};
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const name = `${node.callFrame.functionName || '(anonymous)'} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const key = where(node.callFrame.url) + (node.callFrame.url ? '' : ` ${node.callFrame.functionName}`);
  byFile.set(key, (byFile.get(key) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
};
print('self time by package / file', byFile);
print('self time by function', byFunction);
