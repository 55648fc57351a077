import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DefinitionNode, GraphQLEnumType, GraphQLObjectType, GraphQLInterfaceType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.ts';

// Pothos builds the schema with the `graphql` Node itself resolves (its CommonJS entry); Vite would
// hand this file the `.mjs` one, whose instanceof checks reject the schema as "from another realm".
// Use the very module the schema was built with, as scripts/print-schema.ts (run by tsx) does.
const { isEnumType, isObjectType, isInterfaceType, parse, printSchema } = createRequire(import.meta.url)(
  'graphql',
) as typeof import('graphql');

// The committed schema.graphql is what clients (and test/gql) are generated from: it must be exactly
// what the code serves. `npm run schema:print` writes it (scripts/print-schema.ts).
const printed = `${printSchema(schema)}\n`;
const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');

function namedDefinitions(sdl: string): string[] {
  return parse(sdl).definitions.flatMap((definition: DefinitionNode) =>
    'name' in definition && definition.name ? [definition.name.value] : [],
  );
}

function objectType(name: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type in the schema`);
  return type;
}

describe('schema drift', () => {
  it('the committed schema.graphql equals the schema the code serves', () => {
    if (printed !== committed) {
      const printedLines = printed.split('\n');
      const committedLines = committed.split('\n');
      const first = printedLines.findIndex((line, index) => line !== committedLines[index]);
      expect.fail(
        `schema.graphql is stale: run \`npm run schema:print\` (then \`npm run codegen\`) and commit the result.\n` +
          `First difference at line ${first + 1}:\n` +
          `  committed: ${JSON.stringify(committedLines[first])}\n` +
          `  served:    ${JSON.stringify(printedLines[first])}`,
      );
    }
    expect(printed).toBe(committed);
  });

  it('prints its types in alphabetical order (a stable, reviewable diff)', () => {
    const names = namedDefinitions(printed);
    expect(names.length).toBeGreaterThan(20);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    // Fields are sorted too.
    for (const root of ['Query', 'Mutation', 'Subscription']) {
      const fields = Object.keys(objectType(root).getFields());
      expect(fields, root).toEqual([...fields].sort((a, b) => a.localeCompare(b, 'en')));
    }
  });

  it('keeps the names of the client contract (docs/client.md)', () => {
    expect(Object.keys(objectType('Query').getFields())).toEqual(
      expect.arrayContaining(['viewer', 'node', 'project', 'agent', 'thread', 'conversation', 'queue']),
    );
    expect(Object.keys(objectType('Mutation').getFields())).toEqual(
      expect.arrayContaining(['createProject', 'createAgent', 'updateAgent', 'createThread', 'sendMessage']),
    );
    expect(Object.keys(objectType('Subscription').getFields())).toContain('runEvents');

    const runEvents = objectType('Subscription').getFields().runEvents!;
    expect(runEvents.args.map((arg) => arg.name).sort()).toEqual(['after', 'threadId']);
    const runEvent = schema.getType('RunEvent');
    expect(isInterfaceType(runEvent)).toBe(true);
    expect(String(runEvents.type)).toBe('RunEvent!');
    const memberTypes = schema.getPossibleTypes(runEvent as GraphQLInterfaceType);
    const members = memberTypes.map((type) => type.name);
    expect(members).toEqual(
      expect.arrayContaining([
        'MessageQueued',
        'ExecutionStarted',
        'TextDelta',
        'ReasoningDelta',
        'ToolCallEvent',
        'SuspensionOpened',
        'SuspensionResolved',
        'MessageSteered',
        'RetryScheduled',
        'ErrorEvent',
        'ExecutionFinished',
        'QueueUpdated',
        'ExecutionUpdated',
      ]),
    );
    // Every event carries its cursor.
    for (const member of memberTypes) {
      expect(Object.keys(member.getFields()), member.name).toContain('cursor');
    }

    const reasons = schema.getType('ErrorReason');
    expect(isEnumType(reasons)).toBe(true);
    // Written out, as docs/errors.md's table of reasons has them: the contract, not the code's own list.
    expect((reasons as GraphQLEnumType).getValues().map((value) => value.name).sort()).toEqual(
      [
        'TRANSPORT', 'RATE_LIMIT', 'QUOTA_EXCEEDED', 'AUTHENTICATION', 'AUTHORIZATION', 'CONTEXT_LENGTH',
        'CONTENT_POLICY', 'INVALID_REQUEST', 'PROVIDER_INTERNAL', 'UNKNOWN', 'APPLICATION_ERROR',
      ].sort(),
    );

    // The contract's names appear in the printed text clients are generated from, not only in the object.
    for (const name of ['type Query', 'type Mutation', 'type Subscription', 'interface RunEvent', 'enum ErrorReason', 'interface Error']) {
      expect(printed).toContain(name);
    }
  });
});
