import { readFileSync } from 'node:fs';
import { getIntrospectionQuery, Kind, parse, print, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { schema } from '../../src/schema/index.ts';
import { OperationCost, unpagedListFields, type CostWeights } from '../../src/server/plugins/operation-cost.ts';
import { documentLimitErrors, type DocumentLimits } from '../../src/server/plugins/use-document-limits.ts';
import { costWeights } from '../../src/server/yoga.ts';
import * as clientDocuments from '../../packages/client/src/gql/graphql.ts';
import * as testDocuments from '../gql/operations.ts';
import { addAgent, setUpAgent } from '../support/scenario.ts';
import { firstSubscriptionAnswer } from '../support/schema-operations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Attacks on the document limits with the defaults of src/config.ts, over HTTP, SSE and WebSocket.

const defaults = loadConfig({});
const COST_WEIGHTS = costWeights(defaults);
const LIMITS: DocumentLimits = {
  maxTokens: defaults.PARLEY_MAX_TOKENS,
  maxDepth: defaults.PARLEY_MAX_QUERY_DEPTH,
  maxAliases: defaults.PARLEY_MAX_ALIASES,
  maxDirectives: defaults.PARLEY_MAX_DIRECTIVES,
  maxCost: defaults.PARLEY_MAX_QUERY_COST,
  costWeights: COST_WEIGHTS,
};

interface Answer {
  status: number;
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string; limit?: string; max?: number } }[];
}

let server: TestServer;
let token: string;
let agentId: string;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await setUpAgent(server);
  token = admin.token;
  agentId = admin.agentId;
  // Any user can make a project of ten agents: agents{project{agents{…}}} multiplies by ten a level.
  for (let agent = 1; agent < 10; agent++) await addAgent(server, admin.projectId);
});

afterAll(async () => {
  await server?.stop();
});

async function post(query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

/** The one error a refused document gets: BAD_USER_INPUT naming the limit, HTTP 400, no data. */
function expectRefused(answer: Answer, limit: string | string[]) {
  expect(answer.status, JSON.stringify(answer).slice(0, 500)).toBe(400);
  expect(answer.data ?? null).toBeNull();
  expect(answer.errors).toHaveLength(1);
  const [error] = answer.errors!;
  expect(error!.extensions?.code).toBe('BAD_USER_INPUT');
  expect([limit].flat()).toContain(error!.extensions?.limit);
  expect(error!.message).not.toContain('Unexpected error');
  return error!;
}

/** `query{...F0} fragment F0 on Query{...F1 ...F1 …} … fragment F<n> on Query{<leaf>}`: each level doubles (or more) the spreads. */
function fragmentBomb(levels: number, spreadsPerFragment: number, leaf: string): string {
  let document = 'query{...F0}';
  for (let level = 0; level < levels; level++) {
    document += ` fragment F${level} on Query{${Array(spreadsPerFragment).fill(`...F${level + 1}`).join(' ')}}`;
  }
  return `${document} fragment F${levels} on Query{${leaf}}`;
}

/** agent(id){project{agents{project{agents{…{id}}}}}}: `depth` levels of fields. */
function agentChain(depth: number): string {
  const fields = ['agent(id: $id)'];
  while (fields.length < depth - 1) fields.push(fields.length % 2 === 1 ? 'project' : 'agents');
  return `${fields.join(' { ')} { id }${' }'.repeat(fields.length - 1)}`;
}

function agentsOfAgents(depth: number, copies = 1): string {
  return `query($id: ID!) { ${Array.from({ length: copies }, (_, index) => (copies > 1 ? `a${index}: ` : '') + agentChain(depth)).join(' ')} }`;
}

function aliases(count: number, selection: string): string {
  return `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${selection}`).join(' ')} }`;
}

function costOf(source: string, weights: CostWeights = COST_WEIGHTS): number {
  const document = parse(source, { noLocation: true });
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  return new OperationCost(schema, document, weights).of(operation as OperationDefinitionNode);
}

describe('fragments that multiply their spreads', () => {
  it('are counted once each: the 1 KB four-spread bomb answers at once, and so does a request sent meanwhile', async () => {
    const bomb = fragmentBomb(21, 4, '__typename');
    expect(bomb.length).toBeLessThan(1_100);
    // Walking each spread again, as a depth rule that follows fragments per spread does, takes
    // 4^21 steps; this test would time out long before.
    const [bombAnswer, meanwhile] = await Promise.all([post(bomb), post('{ __typename }')]);
    expect(bombAnswer).toMatchObject({ status: 200, data: { __typename: 'Query' } });
    expect(meanwhile).toMatchObject({ status: 200, data: { __typename: 'Query' } });
  });

  it('still count every object the spreads select: the same bomb over an object is refused by its cost', async () => {
    const bomb = fragmentBomb(21, 2, 'viewer { id }');
    expect(costOf(bomb)).toBe(2 ** 21);
    const [bombAnswer, meanwhile] = await Promise.all([post(bomb), post('{ __typename }')]);
    const error = expectRefused(bombAnswer, 'cost');
    expect(error.message).toBe(`The operation may return up to ${2 ** 21} objects; the limit is ${LIMITS.maxCost}.`);
    expect(meanwhile).toMatchObject({ status: 200, data: { __typename: 'Query' } });
  });
});

describe('each limit, exceeded over HTTP', () => {
  it(`depth: ${LIMITS.maxDepth} levels of fields answer, ${LIMITS.maxDepth + 1} are refused, through fragments too`, async () => {
    const typeChain = (depth: number) => `{ __type(name: "Agent") { ${'ofType { '.repeat(depth - 2)}name${' }'.repeat(depth - 1)} }`;
    const deepest = await post(typeChain(LIMITS.maxDepth));
    expect(deepest.errors, JSON.stringify(deepest.errors)).toBeUndefined();
    expect(deepest).toMatchObject({ status: 200, data: { __type: { ofType: null } } });
    const tooDeep = expectRefused(await post(typeChain(LIMITS.maxDepth + 1)), 'depth');
    expect(tooDeep.message).toBe(`The operation is ${LIMITS.maxDepth + 1} fields deep; the limit is ${LIMITS.maxDepth}.`);
    expect(tooDeep.extensions?.max).toBe(LIMITS.maxDepth);

    const viaFragments = `
      { __type(name: "Agent") { ...A } }
      fragment A on __Type { ofType { ofType { ...B } } }
      fragment B on __Type { ofType { ofType { ofType { ofType { ...C } } } } }
      fragment C on __Type { ofType { ofType { ofType { ofType { ofType { name } } } } } }`;
    expectRefused(await post(viaFragments), 'depth');
  });

  it('cost: agent{project{agents{project{agents{…}}}}} over ten agents is refused before it runs', async () => {
    // Depth 8 reaches 10 × 10 × 10 agents and is allowed; depth 12 would return 100,000.
    const allowed = await post(agentsOfAgents(8), { id: agentId });
    expect(allowed.status, JSON.stringify(allowed.errors)).toBe(200);
    expect(costOf(agentsOfAgents(8))).toBeLessThanOrEqual(LIMITS.maxCost);

    const error = expectRefused(await post(agentsOfAgents(12), { id: agentId }), 'cost');
    expect(error.extensions?.max).toBe(LIMITS.maxCost);
    // Five aliases of it are no cheaper.
    expectRefused(await post(agentsOfAgents(12, 5), { id: agentId }), 'cost');
  });

  it(`aliases: ${LIMITS.maxAliases} answer, 1,000 of conversation{messages(first: 200)} are refused`, async () => {
    expect(await post(aliases(LIMITS.maxAliases, '__typename'))).toMatchObject({ status: 200 });
    expect(await post(aliases(LIMITS.maxAliases, 'viewer { id }'))).toMatchObject({ status: 200 });
    expectRefused(await post(aliases(LIMITS.maxAliases + 1, 'viewer { id }')), 'aliases');
    // 1,000 of them pass the token limit first; with the token limit raised, the alias limit holds.
    const bomb = aliases(1_000, 'conversation(threadId: "x") { messages(first: 200) { edges { node { id } } } }');
    expectRefused(await post(bomb), 'tokens');
    const roomy = { ...LIMITS, maxTokens: 1_000_000 };
    expect(documentLimitErrors(schema, bomb, roomy).map((error) => error.message)).toEqual([
      `The operation has 1000 aliases; the limit is ${LIMITS.maxAliases}.`,
    ]);
    const hundred = aliases(100, 'conversation(threadId: "x") { messages(first: 200) { edges { node { id } } } }');
    expectRefused(await post(hundred), 'aliases');
  });

  it('tokens: a 55,000-alias document just under the body limit is refused while it is parsed', async () => {
    const bomb = aliases(55_000, 'viewer{id}').replaceAll(' ', '');
    expect(bomb.length).toBeGreaterThan(900_000);
    expect(bomb.length).toBeLessThan(defaults.PARLEY_MAX_REQUEST_BYTES - 100);
    const error = expectRefused(await post(bomb), 'tokens');
    expect(error.message).toBe(`The document has more than ${LIMITS.maxTokens} tokens.`);
  });

  it(`directives: ${LIMITS.maxDirectives} answer, ${LIMITS.maxDirectives + 1} are refused`, async () => {
    const withDirectives = (count: number) => `{ viewer { id ${'@include(if: true) '.repeat(count)}} }`;
    expect(await post(withDirectives(LIMITS.maxDirectives))).toMatchObject({ status: 200 });
    expectRefused(await post(withDirectives(LIMITS.maxDirectives + 1)), 'directives');
  });

  it('nesting: 100,000 levels of {a{a{a… answer 400 with a clear message, and the server keeps answering', async () => {
    const levels = 100_000;
    const [answer, meanwhile] = await Promise.all([post(`${'{a'.repeat(levels)}${'}'.repeat(levels)}`), post('{ __typename }')]);
    const error = expectRefused(answer, ['nesting', 'tokens']);
    expect(error.message).toMatch(/nested too deeply to parse|more than \d+ tokens/);
    expect(meanwhile).toMatchObject({ status: 200, data: { __typename: 'Query' } });
  });
});

describe('the cost rule, attacked directly', () => {
  it('weighs pages by their size and unpaged lists by their bound, in one pass', () => {
    // conversation 1 + messages 200 × (1 + edges (1 + node 1))
    expect(costOf('{ conversation(threadId: "x") { messages(first: 200) { edges { node { id } } } } }')).toBe(601);
    expect(costOf('{ conversation(threadId: "x") { messages(first: 5) { edges { node { id } } } } }')).toBe(16);
    // A page size given as a variable, or none, counts as the largest page.
    expect(costOf('query($n: Int) { conversation(threadId: "x") { messages(first: $n) { edges { node { id } } } } }')).toBe(601);
    expect(costOf('{ conversation(threadId: "x") { messages { edges { node { id } } } } }')).toBe(601);
    // viewer 1 + projects 10 × (1 + agents 10 × (1 + limits 1))
    expect(costOf('{ viewer { projects { agents { limits { dailyTokenBudget } } } } }')).toBe(1 + 10 * (1 + 10 * (1 + 1)));
    // 100,000 agents at the leaves, as the probe got back.
    expect(costOf(agentsOfAgents(12))).toBeGreaterThan(100_000);
  });

  it('counts each unpaged list by its bound: the queue by PARLEY_MAX_QUEUED_PER_THREAD, parts by PARLEY_MAX_ATTACHMENTS', () => {
    const queueRead = '{ queue(threadId: "x") { items { id text } } }';
    // queue 1 + items 100 × 1: what a full queue can return, not the 10 an unknown list counts as.
    expect(costOf(queueRead)).toBe(1 + defaults.PARLEY_MAX_QUEUED_PER_THREAD);
    expect(costOf(queueRead, costWeights(loadConfig({ PARLEY_MAX_QUEUED_PER_THREAD: '1000' })))).toBe(1 + 1_000);
    const parts = '{ conversation(threadId: "x") { messages(first: 1) { edges { node { parts { __typename } } } } } }';
    // conversation 1 + messages 1 × (1 + edges 1 + node 1 × (1 + parts: a text and its attachments))
    expect(costOf(parts, costWeights(loadConfig({ PARLEY_MAX_ATTACHMENTS: '50' })))).toBe(1 + 1 + 1 + 1 + 51);
  });

  it('has a bound for every list of objects in the schema that is not paged, and none for a field that is not one', () => {
    const lists = new Set(unpagedListFields(schema));
    expect([...lists]).toEqual(expect.arrayContaining(['Queue.items', 'Message.parts', 'Project.agents', 'User.projects']));
    // A page's lists (edges) are the page: they need no bound of their own.
    expect([...lists].filter((key) => key.endsWith('Connection.edges'))).toEqual([]);
    const unbounded = [...lists].filter((key) => COST_WEIGHTS.listBounds[key] === undefined);
    expect(lists.size).toBeGreaterThanOrEqual(7);
    expect(unbounded, 'list fields with neither paging nor an entry in costWeights().listBounds').toEqual([]);
    expect(Object.keys(COST_WEIGHTS.listBounds).filter((key) => !lists.has(key))).toEqual([]);
  });

  it('costs 1,000 aliases of conversation{messages(first: 200)} and a 55,000-alias 1 MB document exactly', () => {
    expect(costOf(aliases(1_000, 'conversation(threadId: "x") { messages(first: 200) { edges { node { id } } } }'))).toBe(601_000);
    const megabyte = aliases(55_000, 'viewer{projects{id}}');
    expect(megabyte.length).toBeGreaterThan(1_000_000);
    expect(costOf(megabyte)).toBe(55_000 * (1 + 10));
  });

  it('costs a fragment once however often it is spread (2^60 objects counted, not walked)', () => {
    expect(costOf(fragmentBomb(60, 2, 'viewer { id }'))).toBe(2 ** 60);
    expect(costOf(fragmentBomb(2_000, 4, 'viewer { id }'))).toBe(Infinity);
  });
});

describe('real clients stay well inside the limits', () => {
  const readmeExamples = ['../../README.md', '../../docs/getting-started.md'].flatMap((page) =>
    [...readFileSync(new URL(page, import.meta.url), 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1]!),
  );
  const codegenDocuments = [...Object.entries(clientDocuments), ...Object.entries(testDocuments)].filter(
    (entry): entry is [string, DocumentNode] =>
      (entry[1] as DocumentNode | undefined)?.kind === Kind.DOCUMENT &&
      (entry[1] as DocumentNode).definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION),
  );
  const documents: [string, string][] = [
    ["GraphiQL's introspection query", getIntrospectionQuery()],
    ...codegenDocuments.map(([name, document]): [string, string] => [name, print(document)]),
    ...readmeExamples.map((example, index): [string, string] => [`documented example ${index + 1}`, example]),
  ];

  it('finds the documents it checks', () => {
    expect(codegenDocuments.length).toBeGreaterThanOrEqual(20);
    expect(readmeExamples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(documents)('%s passes every limit, with room to spare', (_name, source) => {
    expect(documentLimitErrors(schema, source, LIMITS)).toEqual([]);
    // A quarter of each limit would still do.
    const quarter = (value: number) => Math.ceil(value / 4);
    const tight: DocumentLimits = {
      ...LIMITS,
      maxTokens: quarter(LIMITS.maxTokens),
      maxAliases: quarter(LIMITS.maxAliases),
      maxDirectives: quarter(LIMITS.maxDirectives),
      maxCost: quarter(LIMITS.maxCost),
    };
    expect(documentLimitErrors(schema, source, tight)).toEqual([]);
  });

  it("GraphiQL's introspection query answers over HTTP", async () => {
    const answer = await post(getIntrospectionQuery());
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toHaveProperty('__schema.queryType.name', 'Query');
  });

  it('no codegen document is refused by a limit on a real server', async () => {
    for (const [name, document] of codegenDocuments) {
      const answer = await post(print(document));
      const limits = (answer.errors ?? []).filter((error) => error.extensions?.limit);
      expect(limits, name).toEqual([]);
    }
  });
});

describe('the same limits over SSE and WebSocket', () => {
  /** The errors an operation over WebSocket is refused with, before it runs. */
  async function overWebSocket(query: string): Promise<Answer['errors']> {
    const answer = await firstSubscriptionAnswer(server, query, undefined, token);
    expect(answer.kind, `expected the operation to be refused, got ${JSON.stringify(answer)}`).toBe('error');
    return answer.errors as Answer['errors'];
  }

  it('a WebSocket operation over each limit gets the same error', async () => {
    const cases: [string, string | string[]][] = [
      [`{ __type(name: "Agent") { ${'ofType { '.repeat(LIMITS.maxDepth - 1)}name${' }'.repeat(LIMITS.maxDepth)} }`, 'depth'],
      [aliases(100, 'conversation(threadId: "x") { messages(first: 200) { edges { node { id } } } }'), 'aliases'],
      [fragmentBomb(21, 2, 'viewer { id }'), 'cost'],
      [`{ viewer { id ${'@include(if: true) '.repeat(LIMITS.maxDirectives + 1)}} }`, 'directives'],
      [aliases(3_000, '__typename'), 'tokens'],
      // Which comes first depends on the stack left to the parser.
      [`${'{a'.repeat(20_000)}${'}'.repeat(20_000)}`, ['nesting', 'tokens']],
    ];
    for (const [query, limit] of cases) {
      const errors = await overWebSocket(query);
      expect(errors, String(limit)).toHaveLength(1);
      expect(errors![0]!.extensions?.code, String(limit)).toBe('BAD_USER_INPUT');
      expect([limit].flat()).toContain(errors![0]!.extensions?.limit);
    }
  });

  it('a subscription over a limit is refused over WebSocket before it starts', async () => {
    const manyAliases = aliases(LIMITS.maxAliases + 1, 'executionId').slice(1, -1);
    const refused = await overWebSocket(`subscription { runEvents(threadId: "x") { ... on ExecutionStarted { ${manyAliases} } } }`);
    expect(refused).toHaveLength(1);
    expect(refused![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'aliases' });
  });

  it('an SSE request over a limit gets the error as its result', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: fragmentBomb(21, 2, 'viewer { id }') }),
    });
    const text = await response.text();
    expect(text).toContain('"code":"BAD_USER_INPUT"');
    expect(text).toContain('"limit":"cost"');
  });
});
