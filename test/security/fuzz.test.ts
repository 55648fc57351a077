import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeId, type NodeTypeName } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { send } from '../support/client.ts';
import { possibleObjectTypes, rootType } from '../support/schema-operations.ts';
import {
  buildSecurityWorld,
  createThread,
  randomGlobalId,
  rawId,
  suspendedThread,
  type SecurityWorld,
} from '../support/security-world.ts';
import { startTestServer } from '../support/server.ts';

// Random documents built from the schema, sent by a signed-in member of a project: whatever they
// hold, the server answers with a clear error or a result, never an internal error, never an
// unmasked message, and other users' data stays as it was. Seeded, so every run sends the same
// documents; a failure prints the document and variables that caused it.

const RUNS = 200;
const SEED = 20261130;

type Gen = fc.GeneratorValue;

const pick = <T,>(g: Gen, items: readonly T[]): T => items[g(fc.nat, { max: items.length - 1 })]!;
const chance = (g: Gen, percent: number) => g(fc.nat, { max: 99 }) < percent;

// NUL and lone surrogates are left out on purpose: the input-hygiene suite covers them.
const ODD_TEXT = [
  '\u200b', '\u202e', '\ufeff', 'e\u0301', '👩‍👩‍👧', '\uffff', '\u{10ffff}', '"', '\\', '{', '}', '$', "'", '%', '\n',
  '\r\n', '\t', "' OR 1=1 --", '${x}', '<script>', '/slow 1', '/fail transport', '/approve ', '../..', 'ǅ', '\u0085', '\u2028',
];

function codePoint(g: Gen): string {
  const value = g(fc.integer, { min: 1, max: 0x10ffff });
  return value >= 0xd800 && value <= 0xdfff ? 'x' : String.fromCodePoint(value);
}

function text(g: Gen): string {
  const size = pick(g, ['short', 'short', 'short', 'long', 'huge'] as const);
  if (size === 'huge') return 'y'.repeat(pick(g, [31_999, 32_001, 100_000]));
  const length = g(fc.nat, { max: size === 'short' ? 12 : 300 });
  let result = '';
  for (let index = 0; index < length; index++) result += chance(g, 30) ? pick(g, ODD_TEXT) : codePoint(g);
  return result;
}

const HUGE_NUMBERS = [0, -1, 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -1e308, 1e308, 0.5, -0];

function anyJson(g: Gen, depth = 0): unknown {
  const kind = pick(g, depth > 1 ? ['string', 'number', 'boolean', 'null'] : ['string', 'number', 'boolean', 'null', 'list', 'object']);
  switch (kind) {
    case 'string':
      return text(g);
    case 'number':
      return pick(g, HUGE_NUMBERS);
    case 'boolean':
      return chance(g, 50);
    case 'null':
      return null;
    case 'list':
      return Array.from({ length: g(fc.nat, { max: 3 }) }, () => anyJson(g, depth + 1));
    default:
      return { [pick(g, ['a', 'name', '__proto__', 'constructor', text(g)])]: anyJson(g, depth + 1) };
  }
}

interface IdPool {
  /** Ids of things the fuzzing user may not see (other users'), and of their own. */
  ids: string[];
}

function idValue(g: Gen, pool: IdPool): string {
  switch (pick(g, ['real', 'real', 'real', 'raw', 'random', 'garbage'] as const)) {
    case 'real':
      return pick(g, pool.ids);
    case 'raw':
      return rawId(pick(g, pool.ids));
    case 'random':
      return randomGlobalId(pick(g, ['User', 'Project', 'Agent', 'Thread', 'Message', 'Execution', 'QueueItem', 'Suspension'] as NodeTypeName[]));
    default:
      return pick(g, [text(g), Buffer.from(`Thread:${text(g)}`).toString('base64'), Buffer.from('Nope:1').toString('base64'), randomUUID()]);
  }
}

/** A value for an input type: mostly of the right type, sometimes null, sometimes anything at all. */
function inputValue(g: Gen, type: GraphQLInputType, pool: IdPool, depth = 0): unknown {
  if (chance(g, 6)) return anyJson(g);
  if (!isNonNullType(type) && chance(g, 10)) return null;
  const inner = getNullableType(type);
  if (isListType(inner)) {
    return Array.from({ length: g(fc.nat, { max: 4 }) }, () => inputValue(g, inner.ofType, pool, depth + 1));
  }
  if (isEnumType(inner)) return chance(g, 85) ? pick(g, inner.getValues()).name : text(g);
  if (isInputObjectType(inner)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(inner.getFields())) {
      if (isNonNullType(field.type) || chance(g, 60)) value[field.name] = inputValue(g, field.type, pool, depth + 1);
    }
    return value;
  }
  if (isScalarType(inner)) {
    switch (inner.name) {
      case 'ID':
        return idValue(g, pool);
      case 'String':
        return chance(g, 15) ? pick(g, ['demo:default', 'MEMBER', 'admin', 'ask_user', 'x@example.test', '0']) : text(g);
      case 'Int':
      case 'Float':
        return chance(g, 50) ? g(fc.integer, { min: -5, max: 300 }) : pick(g, HUGE_NUMBERS);
      case 'Boolean':
        return chance(g, 50);
      case 'DateTime':
        return pick(g, ['2026-01-01T00:00:00Z', 'yesterday', text(g)]);
      default:
        return anyJson(g);
    }
  }
  return anyJson(g);
}

interface Built {
  query: string;
  variables: Record<string, unknown>;
}

/** Builds one operation: random root fields, arguments as variables, a random selection. */
function buildOperation(g: Gen, pool: IdPool): Built {
  const kind = pick(g, ['query', 'query', 'mutation'] as const);
  const roots = Object.values(rootType(kind).getFields());
  const declarations: string[] = [];
  const variables: Record<string, unknown> = {};
  const argumentsOf = (field: GraphQLField<unknown, unknown>): string => {
    const given = field.args.filter((arg) => isNonNullType(arg.type) ? !chance(g, 3) : chance(g, 50));
    if (given.length === 0) return '';
    return `(${given
      .map((arg) => {
        const name = `v${declarations.length}`;
        declarations.push(`$${name}: ${String(arg.type)}`);
        if (!chance(g, 3)) variables[name] = inputValue(g, arg.type, pool);
        return `${arg.name}: $${name}`;
      })
      .join(', ')})`;
  };
  const selectionOf = (type: GraphQLObjectType, depth: number): string => {
    const fields = Object.values(type.getFields());
    const chosen = fields.filter(() => chance(g, 40));
    const parts = ['__typename'];
    for (const field of chosen) {
      const named = getNamedType(field.type);
      if (isLeafType(named)) {
        parts.push(`${field.name}${argumentsOf(field)}`);
      } else if (depth < 3) {
        const members = possibleObjectTypes(named.name);
        const inner = isObjectType(named)
          ? selectionOf(named, depth + 1)
          : ['__typename', ...members.filter(() => chance(g, 50)).map((member) => `... on ${member.name} { ${selectionOf(member, depth + 1)} }`)].join(' ');
        parts.push(`${field.name}${argumentsOf(field)} { ${inner} }`);
      }
    }
    return parts.join(' ');
  };
  const calls = Array.from({ length: 1 + g(fc.nat, { max: 1 }) }, (_, index) => {
    const field = pick(g, roots);
    const named = getNamedType(field.type);
    const selection = isLeafType(named)
      ? ''
      : `{ ${possibleObjectTypes(named.name).map((member) => `... on ${member.name} { ${selectionOf(member, 1)} }`).join(' ')} }`;
    return `r${index}: ${field.name}${argumentsOf(field)} ${selection}`;
  });
  return { query: `${kind} Fuzz${declarations.length ? `(${declarations.join(', ')})` : ''} { ${calls.join(' ')} }`, variables };
}

/** Text that only an unmasked internal error would carry. */
const LEAK = /prisma|invalid input syntax|violates|duplicate key|\bselect\b.+\bfrom\b|\binsert into\b|\bat .+\.(ts|js):\d+|node_modules|TypeError|ReferenceError|Cannot read prop|undefined is not/i;

describeEachBackend('fuzzing the schema', (backend) => {
  let world: SecurityWorld;
  let pool: IdPool;
  let othersState: () => Promise<unknown>;

  beforeAll(async () => {
    const server = await startTestServer({ backend });
    world = await buildSecurityWorld(server);
    // The owner's private thread, with an open approval and a message waiting behind it.
    const owners = await suspendedThread(world, 'TEST');
    const waiting = await send(server, world.owner.token, owners.threadId, 'waiting');
    const ownersShared = await createThread(world, 'SHARED');
    const outsiders = await createThread(world, 'TEST', world.outsiderAgentId, world.outsider.token);
    const own = await createThread(world, 'TEST', world.agentId, world.member.token);
    pool = {
      ids: [
        owners.threadId,
        owners.executionId,
        owners.suspensionId,
        waiting.queueId,
        ownersShared,
        outsiders,
        own,
        world.projectId,
        world.agentId,
        world.privateProjectId,
        world.privateAgentId,
        world.outsiderProjectId,
        world.outsiderAgentId,
        encodeId('User', world.owner.userId),
        encodeId('User', world.member.userId),
      ],
    };
    // Everything of the other users that the member may not change (their shared thread aside).
    const prisma = server.parley.db.prisma;
    const privateThreads = [owners.threadId, outsiders].map(rawId);
    const inThreads = { threadId: { in: privateThreads } };
    // The member may create projects of their own; those that others run (P included) stay as they are.
    const projects = [world.projectId, world.privateProjectId, world.outsiderProjectId].map(rawId);
    const inProjects = { projectId: { in: projects } };
    othersState = async () => ({
      users: await prisma.user.findMany({ where: { id: { not: world.member.userId } }, orderBy: { id: 'asc' } }),
      tokens: await prisma.apiToken.findMany({ where: { userId: { not: world.member.userId } }, orderBy: { id: 'asc' } }),
      memberships: await prisma.membership.findMany({ where: inProjects, orderBy: [{ projectId: 'asc' }, { userId: 'asc' }] }),
      projects: await prisma.project.findMany({ where: { id: { in: projects } }, orderBy: { id: 'asc' } }),
      agents: await prisma.agent.findMany({ where: inProjects, orderBy: { id: 'asc' } }),
      threads: await prisma.thread.findMany({ where: { id: { in: privateThreads } }, orderBy: { id: 'asc' } }),
      executions: await prisma.execution.findMany({ where: inThreads, orderBy: { id: 'asc' } }),
      queueItems: await prisma.queueItem.findMany({ where: inThreads, orderBy: { id: 'asc' } }),
      suspensions: await prisma.suspension.findMany({ where: inThreads, orderBy: { id: 'asc' } }),
      messages: await prisma.message.findMany({ where: inThreads, orderBy: { id: 'asc' } }),
      events: await prisma.threadEvent.count({ where: inThreads }),
    });
  }, 180_000);

  afterAll(() => world?.server.stop());

  it(`${RUNS} random documents: no internal error, nothing unmasked, nobody else's data changed`, async () => {
    const before = await othersState();
    const kinds = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const { query, variables } = buildOperation(g, pool);
        const response = await fetch(world.server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${world.member.token}` },
          body: JSON.stringify({ query, variables }),
        });
        const body = await response.text();
        const where = `${response.status} for ${query.slice(0, 2000)} with ${JSON.stringify(variables).slice(0, 2000)}: ${body.slice(0, 2000)}`;
        expect(response.status, where).toBeLessThan(500);
        const result = JSON.parse(body) as { data?: Record<string, unknown>; errors?: { message: string; extensions?: Record<string, unknown> }[] };
        for (const error of result.errors ?? []) {
          const code = String(error.extensions?.code ?? 'NONE');
          kinds.set(code, (kinds.get(code) ?? 0) + 1);
          expect(code, where).not.toBe('INTERNAL_SERVER_ERROR');
          expect(error.message, where).not.toBe('Unexpected error.');
          expect(error.message, where).not.toMatch(LEAK);
          expect(error.extensions ?? {}, where).not.toHaveProperty('stack');
          expect(error.extensions ?? {}, where).not.toHaveProperty('originalError');
        }
        for (const value of Object.values(result.data ?? {})) {
          const typed = value as { code?: unknown; message?: unknown } | null;
          if (typed && typeof typed.message === 'string' && typeof typed.code === 'string') {
            kinds.set(typed.code, (kinds.get(typed.code) ?? 0) + 1);
            expect(typed.message, where).not.toMatch(LEAK);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(await othersState(), 'another user’s data changed').toEqual(before);
    // The documents did reach the resolvers, not only the validator.
    expect([...kinds.keys()], JSON.stringify([...kinds])).toEqual(expect.arrayContaining(['NOT_FOUND', 'BAD_USER_INPUT']));
  }, 300_000);
});
