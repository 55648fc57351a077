// The import graph of src/: which file imports which (static, type-only and dynamic imports alike,
// since each ties the design), the cycles among files, and the cycles among top-level folders, of
// any length. `npm test` fails on any (test/architecture/import-cycles.test.ts); run this file to
// see them, with the imports that tie each group of folders:
//   npx tsx scripts/import-graph.ts [srcDir]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ImportProblems {
  /** Groups of files that reach each other through imports (strongly connected, size > 1). */
  fileCycles: string[][];
  /**
   * Groups of top-level folders of src/ that reach each other through imports ('.' is src/
   * itself): strongly connected, size > 1, so a cycle of three folders is found as well as a pair.
   */
  folderCycles: string[][];
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

/** An import from a file of one top-level folder to a file of another, as paths relative to srcDir. */
export interface FolderImport {
  from: string;
  to: string;
  fromFolder: string;
  toFolder: string;
}

/** Every import that crosses from one top-level folder of srcDir to another ('.' is srcDir itself). */
export function folderImports(srcDir: string, graph = importGraph(srcDir)): FolderImport[] {
  const folderOf = (relative: string) => {
    const parts = relative.split(path.sep);
    return parts.length > 1 ? parts[0]! : '.';
  };
  const crossing: FolderImport[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [path.relative(srcDir, file), path.relative(srcDir, target)];
      if (folderOf(from) !== folderOf(to)) crossing.push({ from, to, fromFolder: folderOf(from), toFolder: folderOf(to) });
    }
  }
  return crossing;
}

export function importProblems(srcDir: string): ImportProblems {
  const graph = importGraph(srcDir);
  const folders = new Map<string, Set<string>>();
  for (const { fromFolder, toFolder } of folderImports(srcDir, graph)) {
    if (!folders.has(toFolder)) folders.set(toFolder, new Set());
    folders.set(fromFolder, (folders.get(fromFolder) ?? new Set()).add(toFolder));
  }
  const sortedGroups = (groups: string[][]) => groups.map((group) => group.sort()).sort((a, b) => a.join('\0').localeCompare(b.join('\0')));
  return {
    fileCycles: sortedGroups(stronglyConnected(graph).map((component) => component.map((file) => path.relative(srcDir, file)))),
    folderCycles: sortedGroups(stronglyConnected(folders)),
  };
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const srcDir = path.resolve(process.argv[2] ?? 'src');
  const { fileCycles, folderCycles } = importProblems(srcDir);
  for (const cycle of fileCycles) console.log(`file cycle: ${cycle.join(' → ')}`);
  const crossing = folderImports(srcDir);
  for (const group of folderCycles) {
    console.log(`folders that reach each other: ${group.join(', ')}`);
    for (const { from, to, fromFolder, toFolder } of crossing) {
      if (group.includes(fromFolder) && group.includes(toFolder)) console.log(`  ${fromFolder} → ${toFolder}: ${from} imports ${to}`);
    }
  }
  console.log(`${fileCycles.length} file cycles, ${folderCycles.length} folder cycles`);
  process.exit(fileCycles.length + folderCycles.length > 0 ? 1 : 0);
}
