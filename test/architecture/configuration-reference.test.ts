import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationReference } from '../../scripts/configuration-reference.ts';
import { SETTING_NAMES, SETTINGS_BY_TOPIC } from '../../src/config.ts';

const committed = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('the configuration reference (docs/configuration.md)', () => {
  it('is exactly what `npm run config:print` prints from the settings', () => {
    expect(committed, 'docs/configuration.md is stale: run `npm run config:print` and commit it').toBe(configurationReference());
  });

  it('has every variable Parley reads under exactly one topic', () => {
    const listed = SETTINGS_BY_TOPIC.flatMap(({ settings }) => Object.keys(settings.shape));
    expect([...listed].sort()).toEqual([...SETTING_NAMES].sort());
    for (const name of SETTING_NAMES) {
      expect(committed.match(new RegExp(`^\\| \`${name}\` \\|`, 'gm')), name).toHaveLength(1);
    }
  });

  it('is the only page that tables settings with their defaults (a default written twice drifts)', () => {
    const pages = ['README.md', ...readdirSync(new URL('../../docs/', import.meta.url)).filter((name) => name.endsWith('.md') && name !== 'configuration.md').map((name) => `docs/${name}`)];
    const offenders: string[] = [];
    for (const page of pages) {
      const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
      for (const table of text.match(/^\|.*\|\n\|[-| :]+\|\n(?:\|.*\|\n?)*/gm) ?? []) {
        const [header = ''] = table.split('\n');
        const namesSetting = SETTING_NAMES.some((name) => table.includes(`\`${name}\``));
        if (namesSetting && /default/i.test(header)) offenders.push(`${page}: ${header}`);
      }
    }
    expect(offenders, 'link docs/configuration.md instead of repeating defaults').toEqual([]);
  });

  it('refuses to print a setting nobody described', () => {
    const undescribed = SETTINGS_BY_TOPIC.flatMap(({ settings }) =>
      Object.entries(settings.shape).filter(([, schema]) => !schema.description).map(([name]) => name),
    );
    expect(undescribed).toEqual([]);
  });
});
