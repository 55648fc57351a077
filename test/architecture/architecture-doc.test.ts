import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md is the map of the code: it must name every folder of src/, and its reading
// list of one failed turn must stay short and point at code that is there.

const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

/** The paths named in the first column of the "Who owns what" table. */
function ownershipRows(): string[] {
  const section = doc.slice(doc.indexOf('## Who owns what'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|')));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

describe('docs/architecture.md', () => {
  it('has a row in its ownership table for every folder of src/', () => {
    const folders = readdirSync(path.join(ROOT, 'src'))
      .filter((name) => statSync(path.join(ROOT, 'src', name)).isDirectory())
      .map((name) => `src/${name}/`);
    const rows = ownershipRows();
    expect(folders.filter((folder) => !rows.includes(folder))).toEqual([]);
    // …and no row for a folder that is gone.
    expect(rows.filter((row) => row.startsWith('src/') && row.endsWith('/') && !folders.includes(row))).toEqual([]);
  });

  it('follows one failed turn in at most twelve files, each holding what it is listed for', () => {
    const list = doc.slice(doc.indexOf('<!-- turn-reading-list -->'), doc.indexOf('<!-- /turn-reading-list -->'));
    const entries = [...list.matchAll(/^\d+\. `([^`]+)` — `([^`]+)`/gm)].map((match) => ({ file: match[1]!, symbol: match[2]! }));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(12);
    for (const { file, symbol } of entries) {
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
      expect(readFileSync(path.join(ROOT, file), 'utf8'), `${file} names ${symbol}`).toMatch(new RegExp(`\\b${symbol}\\b`));
    }
  });
});
