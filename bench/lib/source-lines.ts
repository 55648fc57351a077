/**
 * Source lines of functions in profiles of code run through tsx, which compiles each file with
 * esbuild into one line (minifyWhitespace): a profile's frame then says line 1 and a column. The
 * file is compiled again here with tsx's options (esbuild, keepNames, minifyWhitespace, ESM,
 * the project's tsconfig) and the column is looked up in that compilation's source map.
 * Best effort: a line that cannot be found stays unknown (0).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The generated line 0's segments as [generated column, original line] pairs, in column order. */
function firstLineMappings(mappings: string): [number, number][] {
  const out: [number, number][] = [];
  const line = mappings.split(';')[0] ?? '';
  let column = 0;
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  for (const segment of line.split(',')) {
    if (!segment) continue;
    const values: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of segment) {
      const digit = B64.indexOf(char);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        values.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += values[0]!;
    if (values.length >= 4) {
      source += values[1]!;
      sourceLine += values[2]!;
      sourceColumn += values[3]!;
      out.push([column, sourceLine]);
    }
  }
  return out;
}

const cache = new Map<string, [number, number][] | null>();
const tsconfigRaw = (() => {
  try {
    return readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
})();

/** The 1-based source line of a frame at (line 0, `column`) of a tsx-compiled file, or 0. */
export function sourceLine(url: string, column: number, nodeVersion = process.versions.node): number {
  if (!url.startsWith('file://') || !/\.(ts|mts|tsx)$/.test(url)) return 0;
  let mappings = cache.get(url);
  if (mappings === undefined) {
    try {
      const path = fileURLToPath(url);
      const result = transformSync(readFileSync(path, 'utf8'), {
        loader: path.endsWith('.tsx') ? 'tsx' : 'ts',
        format: 'esm',
        target: `node${nodeVersion}`,
        sourcemap: 'external',
        sourcefile: path,
        minifyWhitespace: true,
        keepNames: true,
        tsconfigRaw,
      });
      mappings = firstLineMappings(JSON.parse(result.map).mappings);
    } catch {
      mappings = null;
    }
    cache.set(url, mappings);
  }
  if (!mappings?.length) return 0;
  let low = 0;
  let high = mappings.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (mappings[mid]![0] <= column) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found < 0 ? 0 : mappings[found]![1] + 1;
}
