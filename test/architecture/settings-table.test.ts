import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from '../../src/config.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The rows of README's "Configuration" table: its variables and their defaults, as written. */
function settingsTable(): { names: string[]; defaults: string }[] {
  const section = README.slice(README.indexOf('\n## Configuration\n'));
  const table = section.slice(section.indexOf('| variable |'));
  const rows = table.slice(0, table.search(/\n(?!\|)/)).split('\n').slice(2);
  return rows.map((row) => {
    const [names = '', defaults = ''] = row.split('|').slice(1, 3);
    return { names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!), defaults };
  });
}

describe("README's settings table", () => {
  const rows = settingsTable();

  it('lists exactly the variables the modules’ settings define', () => {
    expect(rows.flatMap((row) => row.names).sort()).toEqual([...SETTING_NAMES].sort());
  });

  it('gives each variable the default its module defines', () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    for (const row of rows) {
      const written = [...row.defaults.matchAll(/`([^`]*)`/g)].map((match) => match[1]);
      row.names.forEach((name, index) => {
        const value = defaults[name];
        if (value === undefined) return;
        expect(written[index], name).toBe(String(value));
      });
    }
  });
});
