// Renders docs/configuration.md from the settings each module defines (src/config.ts): the page is
// never edited by hand, and test/architecture/configuration-reference.test.ts fails when it is stale.
import { z } from 'zod';
import { SETTINGS_BY_TOPIC } from '../src/config.ts';

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  /** What a value must look like, where a check in code says more than the JSON schema can. */
  allowed?: string;
};

const code = (value: unknown) => `\`${String(value)}\``;

function typeOf(schema: JsonSchema): string {
  if (schema.enum?.length === 2 && schema.enum.includes('true') && schema.enum.includes('false')) return 'boolean';
  if (schema.enum) return 'one of';
  return schema.type ?? 'string';
}

function boundsOf(schema: JsonSchema): string {
  if (typeOf(schema) === 'boolean') return '`true` or `false`';
  if (schema.enum) return schema.enum.map(code).join(', ');
  const bounds: string[] = schema.allowed ? [schema.allowed] : [];
  const integer = schema.type === 'integer';
  if (schema.exclusiveMinimum !== undefined) bounds.push(integer ? `≥ ${schema.exclusiveMinimum + 1}` : `> ${schema.exclusiveMinimum}`);
  if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) bounds.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined && schema.minLength > 1) bounds.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) bounds.push(`at most ${schema.maxLength} characters`);
  return bounds.join(', ') || '—';
}

function defaultOf(settings: z.ZodObject, name: string): string {
  const value = (settings.parse({}) as Record<string, unknown>)[name];
  return value === undefined ? 'unset' : code(value);
}

function topicTable(settings: z.ZodObject): string[] {
  const json = z.toJSONSchema(settings, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, JsonSchema> };
  const rows = Object.entries(settings.shape).map(([name, schema]) => {
    const property = json.properties[name] ?? {};
    const description = (schema as z.ZodType).description;
    if (!description) throw new Error(`${name} has no description: add .describe('what it is for') where it is defined`);
    return `| ${code(name)} | ${typeOf(property)} | ${defaultOf(settings, name)} | ${boundsOf(property)} | ${description.replaceAll('|', '\\|')} |`;
  });
  return ['| variable | type | default | allowed | what it is for |', '|---|---|---|---|---|', ...rows];
}

export function configurationReference(): string {
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Printed by `npm run config:print` from the settings in src/; do not edit by hand. -->',
    '',
    'Parley reads its settings from the environment once, at start (`src/config.ts`, from each',
    "module's `settings.ts`). A value that is not allowed stops the start with a message naming the",
    'variable; an empty value counts as unset. Providers are configured only here, never through the API.',
    '',
  ];
  for (const { topic, settings } of SETTINGS_BY_TOPIC) lines.push(`## ${topic}`, '', ...topicTable(settings), '');
  return `${lines.join('\n').trimEnd()}\n`;
}
