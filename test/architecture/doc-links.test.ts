import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The page's prose: fenced blocks and inline code hold examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown.replace(/`([^`\n]*)`/g, '$1')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

describe('links in README.md and docs/', () => {
  it('finds the pages and their links (the check below reads something)', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flatMap((page) => linksOf(readFileSync(join(root, page), 'utf8'))).length).toBeGreaterThan(10);
  });

  it.each(pages)('%s: every relative link and anchor points at something', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(join(root, page), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [path = '', anchor] = link.split('#');
      const target = path ? resolve(dirname(join(root, page)), decodeURIComponent(path)) : join(root, page);
      if (!existsSync(target)) {
        broken.push(`${link}: no such file ${relative(root, target)}`);
        continue;
      }
      if (anchor === undefined || !target.endsWith('.md') || statSync(target).isDirectory()) continue;
      if (!anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) {
        broken.push(`${link}: no heading with the anchor #${anchor} in ${relative(root, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('README.md', () => {
  it('stays a first page (at most 250 lines): what Parley is, how to start, a tour and a map of docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const page of pages.filter((name) => name.startsWith('docs/'))) expect(readme, `README.md links ${page}`).toContain(`(${page}`);
  });
});
