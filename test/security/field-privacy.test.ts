import { randomUUID } from 'node:crypto';
import { getNamedType, isLeafType, isObjectType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { sendAndFollow } from '../support/scenario.ts';
import { post, possibleObjectTypes, rootType } from '../support/schema-operations.ts';
import { buildSecurityWorld, createThread, rawId, type SecurityWorld } from '../support/security-world.ts';
import { startTestServer } from '../support/server.ts';

// Field-level privacy: a member who may see another user's shared thread may follow every field
// from it, and reaches nothing of that user they could not see otherwise. The documents are
// generated from the schema, so a new field is walked (and checked) by default.

/** Root fields that start from a thread, and the argument naming it. */
const THREAD_ROOTS: Record<string, string> = { thread: 'id', conversation: 'threadId', queue: 'threadId', node: 'id' };

/** Longest path of object fields followed from a root (connections count two: edges, node). */
const MAX_DEPTH = 9;

/**
 * A selection of every field of `type`, following object fields while no field repeats on the
 * path (so every way of reaching a type is tried once, and the walk ends). Records what it selected.
 */
function selectAll(type: GraphQLObjectType, path: string[], visited: Set<string>, conflicting = new Set<string>()): string {
  const parts = ['__typename'];
  for (const field of Object.values(type.getFields())) {
    const coordinate = `${type.name}.${field.name}`;
    const required = field.args.filter((arg) => String(arg.type).endsWith('!'));
    if (required.length > 0) throw new Error(`${coordinate} takes required arguments: give the walk values for them`);
    const named = getNamedType(field.type);
    // Members of one union may have same-named fields of different types: those are aliased.
    const alias = conflicting.has(field.name) ? `${type.name}_${field.name}: ${field.name}` : field.name;
    if (isLeafType(named)) {
      parts.push(alias);
      visited.add(coordinate);
      continue;
    }
    if (path.includes(coordinate) || path.length >= MAX_DEPTH) continue;
    visited.add(coordinate);
    const inner = isObjectType(named) ? selectAll(named, [...path, coordinate], visited) : selectMembers(named.name, [...path, coordinate], visited);
    parts.push(`${alias} { ${inner} }`);
  }
  return parts.join(' ');
}

/** Every member of an abstract type, each with every field it has. */
function selectMembers(typeName: string, path: string[], visited: Set<string>): string {
  const members = possibleObjectTypes(typeName);
  const seen = new Map<string, { types: Set<string>; members: number; leaf: boolean }>();
  for (const member of members) {
    for (const field of Object.values(member.getFields())) {
      const entry = seen.get(field.name) ?? { types: new Set(), members: 0, leaf: isLeafType(getNamedType(field.type)) };
      entry.types.add(String(field.type));
      entry.members++;
      seen.set(field.name, entry);
    }
  }
  // Same-named fields of different types conflict, and so may same-named object fields (their
  // sub-selections differ): those are aliased.
  const conflicting = new Set(
    [...seen].filter(([, entry]) => entry.types.size > 1 || (!entry.leaf && entry.members > 1)).map(([name]) => name),
  );
  return ['__typename', ...members.map((member) => `... on ${member.name} { ${selectAll(member, path, visited, conflicting)} }`)].join(' ');
}

describeEachBackend('field-level privacy', (backend) => {
  let world: SecurityWorld;
  let sharedThreadId: string;
  let hidden: string[];

  beforeAll(async () => {
    // The walk asks for every reachable field in one document, far beyond what the operation
    // limits allow a client; those limits have their own tests, this one is about what is revealed.
    const unlimited = { PARLEY_MAX_QUERY_COST: '100000000', PARLEY_MAX_ALIASES: '10000', PARLEY_MAX_TOKENS: '1000000' };
    const server = await startTestServer({ backend, env: unlimited });
    world = await buildSecurityWorld(server);
    sharedThreadId = await createThread(world, 'SHARED');
    await sendAndFollow(server, world.owner.token, sharedThreadId, 'hello from the owner');
    // The owner's private TEST thread in the same project, with a title only the owner may read.
    const privateTitle = `private-${randomUUID()}`;
    const privateThread = await createThread(world, 'TEST');
    await server.parley.db.prisma.thread.update({ where: { id: rawId(privateThread) }, data: { title: privateTitle } });
    // The owner's tokens (stored hashed) and anything that names the private project, agent and thread.
    const tokens = await server.parley.db.prisma.apiToken.findMany({ where: { userId: world.owner.userId } });
    hidden = [
      ...world.privateSecrets,
      privateTitle,
      rawId(privateThread),
      privateThread,
      world.privateProjectId,
      world.privateAgentId,
      ...tokens.flatMap((token) => [token.id, token.tokenHash]),
    ];
  }, 180_000);

  afterAll(() => world?.server.stop());

  for (const role of ['viewer', 'member', 'admin'] as const) {
    it(`a project ${role} walking every field from the owner's shared thread reaches nothing private of the owner`, async () => {
      const visited = new Set<string>();
      const queryFields = rootType('query').getFields();
      for (const [rootName, argument] of Object.entries(THREAD_ROOTS)) {
        const root = queryFields[rootName];
        if (!root) throw new Error(`THREAD_ROOTS names ${rootName}, which the schema has no more`);
        const selection = selectMembers(getNamedType(root.type).name, [`Query.${rootName}`], visited);
        const query = `query Walk($id: ID!) { ${rootName}(${argument}: $id) { ${selection} } }`;
        const result = await post(world.server, query, { id: sharedThreadId }, world[role].token);
        expect(result.errors, `${rootName}: ${JSON.stringify(result.errors)}`).toBeUndefined();
        const text = JSON.stringify(result.data);
        for (const secret of hidden) expect(text, `${rootName} reveals ${secret}`).not.toContain(secret);
        // The owner is reachable (thread.owner), and shows no email to anyone else.
        if (rootName === 'thread') {
          expect(text).toContain(encodeId('User', world.owner.userId));
          expect(text).toContain(world.projectId);
        }
      }
      // The walk did reach the fields that could leak, so a pass means they are guarded.
      for (const coordinate of ['Thread.owner', 'User.projects', 'User.email', 'Project.agents', 'Agent.systemPrompt', 'Agent.threads']) {
        expect(visited, coordinate).toContain(coordinate);
      }
    });
  }

  it('the viewer still reads their own email and every project of their own', async () => {
    const query = 'query { viewer { email projects { id } } }';
    const result = await post(world.server, query, {}, world.owner.token);
    expect(result.data).toEqual({
      viewer: { email: world.owner.email, projects: [{ id: world.projectId }, { id: world.privateProjectId }] },
    });
  });
});
