import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.ts';
import { describeEachBackend } from '../support/backends.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { firstSubscriptionAnswer } from '../support/schema-operations.ts';
import { databaseState, startTestServer, type Backend, type TestServer } from '../support/server.ts';

const NUL = 'before\u0000after';
const LONE_HIGH = 'before\uD800after';
const LONE_LOW = 'before\uDC00after';
const ATTACKS = { NUL, 'lone high surrogate': LONE_HIGH, 'lone low surrogate': LONE_LOW };

type Variables = Record<string, unknown>;
interface Response {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; argument?: string } }[];
}

/** A harmless value of an input type, with `attack` in every string it holds. */
function valueOf(type: GraphQLInputType, attack: string | null, ids: { thread: string; agent: string; project: string }): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [valueOf(nullable.ofType, attack, ids)];
  if (isEnumType(nullable)) return nullable.getValues()[0]!.name;
  if (isInputObjectType(nullable)) {
    return Object.fromEntries(
      Object.values(nullable.getFields()).map((field) => [field.name, valueOf(field.type, attack, ids)]),
    );
  }
  if (isScalarType(nullable)) {
    switch (nullable.name) {
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return true;
      case 'ID':
        return attack ?? ids.thread;
      case 'String':
        return attack ?? 'x';
      default:
        return null;
    }
  }
  return null;
}

function holdsText(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (named.name === 'String' || named.name === 'ID') return true;
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((field) => holdsText(field.type, seen));
}

/** Every (mutation, string argument) pair of the schema: a new mutation is attacked by default. */
function attackedArguments(): { field: GraphQLField<unknown, unknown>; arg: GraphQLArgument }[] {
  const mutations = Object.values(schema.getMutationType()!.getFields());
  return mutations.flatMap((field) => field.args.filter((arg) => holdsText(arg.type)).map((arg) => ({ field, arg })));
}

function operationFor(field: GraphQLField<unknown, unknown>): string {
  const declared = field.args.filter((arg) => !(getNamedType(arg.type).name === 'File'));
  const variables = declared.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const args = declared.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `mutation Attack${variables ? `(${variables})` : ''} { ${field.name}${args ? `(${args})` : ''} { __typename } }`;
}

function variablesFor(
  field: GraphQLField<unknown, unknown>,
  attacked: GraphQLArgument,
  attack: string,
  ids: { thread: string; agent: string; project: string },
): Variables {
  const variables: Variables = {};
  for (const arg of field.args) {
    if (getNamedType(arg.type).name === 'File') continue;
    if (arg === attacked) variables[arg.name] = valueOf(arg.type, attack, ids);
    else if (isNonNullType(arg.type)) variables[arg.name] = valueOf(arg.type, null, ids);
  }
  return variables;
}

async function overHttp(server: TestServer, token: string, query: string, variables?: Variables): Promise<Response> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Response;
}

/** One operation over a WebSocket of its own: its result, or the errors it was refused with. */
async function overWebSocket(server: TestServer, token: string, query: string, variables?: Variables): Promise<Response> {
  const { data, errors } = await firstSubscriptionAnswer(server, query, variables, token);
  return { data: data as Response['data'], errors: errors as Response['errors'] };
}

function expectRefused(response: Response, argument: string) {
  expect(response.data ?? null).toBeNull();
  expect(response.errors).toHaveLength(1);
  expect(response.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
  expect(response.errors![0]!.extensions?.argument).toContain(argument);
  expect(response.errors![0]!.message).toMatch(/NUL character|unpaired surrogate/);
}

describeEachBackend('NUL and unpaired surrogates are refused at the edge', (backend: Backend) => {
  let server: TestServer;
  let token: string;
  let ids: { thread: string; agent: string; project: string };

  beforeAll(async () => {
    server = await startTestServer({ backend });
    const setUp = await setUpAgent(server, { project: 'Hygiene' });
    token = setUp.token;
    ids = { agent: setUp.agentId, project: setUp.projectId, thread: await newThread(server, token, setUp.agentId) };
  });

  afterAll(async () => {
    await server?.stop();
  });

  const cases = attackedArguments();

  it('covers every mutation that takes text', () => {
    const names = new Set(cases.map(({ field }) => field.name));
    for (const name of ['sendMessage', 'createThread', 'createProject', 'createAgent', 'updateAgent', 'addProjectMember', 'editQueuedMessage']) {
      expect(names).toContain(name);
    }
  });

  for (const transport of ['HTTP', 'WebSocket'] as const) {
    it(`refuses them in every string variable of every mutation over ${transport}, changing nothing`, async () => {
      const send = transport === 'HTTP' ? overHttp : overWebSocket;
      const before = await databaseState(server);
      for (const { field, arg } of cases) {
        for (const [name, attack] of Object.entries(ATTACKS)) {
          const response = await send(server, token, operationFor(field), variablesFor(field, arg, attack, ids));
          try {
            expectRefused(response, `$${arg.name}`);
          } catch (error) {
            throw new Error(`${field.name}(${arg.name}) with a ${name}: ${JSON.stringify(response)}`, { cause: error });
          }
        }
      }
      expect(await databaseState(server)).toEqual(before);
    });

    it(`refuses them in inline string literals over ${transport}`, async () => {
      const send = transport === 'HTTP' ? overHttp : overWebSocket;
      const before = await databaseState(server);
      const literals = [
        [`mutation { createProject(name: "a\\u0000b") { __typename } }`, 'name'],
        [`mutation { createThread(agentId: "${ids.agent}", title: "a\\u0000b") { __typename } }`, 'title'],
        [`mutation { sendMessage(threadId: "${ids.thread}", text: "hi\\u0000") { __typename } }`, 'text'],
        [`mutation { createAgent(projectId: "${ids.project}", name: "a\\u0000", model: "demo:default") { __typename } }`, 'name'],
        [`mutation { createAgent(projectId: "${ids.project}", name: "a", model: "demo:default", systemPrompt: "\\u0000") { __typename } }`, 'systemPrompt'],
      ] as const;
      for (const [query, argument] of literals) {
        expectRefused(await send(server, token, query), argument);
      }
      // A surrogate in a literal, raw or escaped, is already a syntax error of GraphQL itself.
      for (const title of ['\uD800', '\\uD800', '\\uDC00']) {
        const response = await send(server, token, `mutation { createThread(agentId: "${ids.agent}", title: "${title}") { __typename } }`);
        expect(response.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
        expect(response.data ?? null).toBeNull();
      }
      expect(await databaseState(server)).toEqual(before);
    });
  }

  it('refuses them in queries and subscriptions too', async () => {
    const query = `query($id: ID!) { thread(id: $id) { id } }`;
    expectRefused(await overHttp(server, token, query, { id: NUL }), '$id');
    const subscription = `subscription($threadId: ID!) { runEvents(threadId: $threadId, after: "0") { __typename } }`;
    expectRefused(await overWebSocket(server, token, subscription, { threadId: LONE_HIGH }), '$threadId');
  });

  it('still accepts well-formed text, emoji (surrogate pairs) included', async () => {
    const response = await overHttp(server, token, `mutation($name: String!) { createProject(name: $name) { __typename } }`, {
      name: 'Grüße 🎉 \u00e9',
    });
    expect(response.errors).toBeUndefined();
    expect(response.data!.createProject).toMatchObject({ __typename: 'Project' });
  });
});
