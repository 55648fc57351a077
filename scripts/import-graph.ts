// The import graph of src/: which file imports which (static, type-only and dynamic imports alike,
// since each ties the design), the cycles among files, and the top-level folders that import each
// other. `npm test` fails on any (test/architecture/import-cycles.test.ts); run this file to see them:
//   npx tsx scripts/import-graph.ts [srcDir]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ImportProblems {
  /** Groups of files that reach each other through imports (strongly connected, size > 1). */
  fileCycles: string[][];
  /** Top-level folders of src/ that import each other ('.' is src/ itself). */
  folderTies: [string, string][];
}

const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

export function importGraph(srcDir: string): Map<string, Set<string>> {
  const files = sourceFiles(srcDir);
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT_SPECIFIER)) {
      const resolved = path.resolve(path.dirname(file), match[1]!);
      const candidates = [resolved, resolved.replace(/\.js$/, '.ts'), `${resolved}.ts`, path.join(resolved, 'index.ts')];
      const target = candidates.find((candidate) => known.has(candidate));
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components, iteratively (no recursion depth limit). */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const visit = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: graph.get(node)![Symbol.iterator]() });
    };
    visit(root);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const step = frame.next.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) visit(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(component);
      }
    }
  }
  return components;
}

export function importProblems(srcDir: string): ImportProblems {
  const graph = importGraph(srcDir);
  const relative = (file: string) => path.relative(srcDir, file);
  const folderOf = (file: string) => {
    const parts = relative(file).split(path.sep);
    return parts.length > 1 ? parts[0]! : '.';
  };
  const edges = new Set<string>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to) edges.add(`${from}\0${to}`);
    }
  }
  const folderTies: [string, string][] = [];
  for (const edge of edges) {
    const [from, to] = edge.split('\0') as [string, string];
    if (from < to && edges.has(`${to}\0${from}`)) folderTies.push([from, to]);
  }
  return {
    fileCycles: stronglyConnected(graph).map((component) => component.map(relative).sort()),
    folderTies: folderTies.sort(),
  };
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const srcDir = path.resolve(process.argv[2] ?? 'src');
  const { fileCycles, folderTies } = importProblems(srcDir);
  for (const cycle of fileCycles) console.log(`file cycle: ${cycle.join(' → ')}`);
  for (const [a, b] of folderTies) console.log(`folders import each other: ${a} ↔ ${b}`);
  console.log(`${fileCycles.length} file cycles, ${folderTies.length} folder ties`);
  process.exit(fileCycles.length + folderTies.length > 0 ? 1 : 0);
}
