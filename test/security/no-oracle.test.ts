import { randomUUID } from 'node:crypto';
import { getNamedType, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeTypeName } from '../../src/schema/ids.ts';
import { encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { AddProjectMemberDocument } from '../support/documents.ts';
import {
  firstSubscriptionAnswer,
  operationDocument,
  post,
  rootFields,
  type OperationKind,
} from '../support/schema-operations.ts';
import {
  buildSecurityWorld,
  busyThread,
  randomGlobalId,
  rawId,
  suspendedThread,
  worldState,
  type Actor,
  type SecurityWorld,
} from '../support/security-world.ts';
import { request, startTestServer } from '../support/server.ts';

// An answer about something the caller may not see must not tell whether it exists: as another
// user, every id-taking operation answers for the owner's real object exactly as for an id that
// names nothing, and never with an id the caller did not send.

/** Which kind of node each id argument names; `field.argument` entries win over plain argument names. */
/** What an id argument names: a node, or an API token (its plain id, as the CLI prints it). */
type IdKind = NodeTypeName | 'ApiToken';

const ID_ARGUMENT_TYPES: Record<string, IdKind | 'any'> = {
  threadId: 'Thread',
  executionId: 'Execution',
  queueId: 'QueueItem',
  targetQueueId: 'QueueItem',
  expectedQueueIds: 'QueueItem',
  agentId: 'Agent',
  projectId: 'Project',
  'thread.id': 'Thread',
  'agent.id': 'Agent',
  'project.id': 'Project',
  'resolveSuspension.id': 'Suspension',
  'revokeApiToken.id': 'ApiToken',
  'revokeShareLink.id': 'ShareLink',
  throughMessageId: 'Message',
  toolServerId: 'ToolServer',
  budgetId: 'Budget',
  messageId: 'Message',
  ownerId: 'User',
  userId: 'User',
  'node.id': 'any',
};

/** Values for the other required arguments: valid, so that only the id decides the answer. */
const OTHER_ARGUMENTS: Record<string, unknown> = {
  text: 'hello',
  name: 'Renamed',
  title: 'Renamed',
  model: 'demo:default',
  role: 'MEMBER',
  decision: 'APPROVE',
  // A public address that is never connected to: the id decides the answer before the URL is used.
  url: 'https://192.0.2.1/mcp',
  from: '2026-01-01T00:00:00Z',
  to: '2026-02-01T00:00:00Z',
  inputPerMillion: '1',
  outputPerMillion: '1',
  perUser: true,
  period: 'DAY',
  amount: '5',
  query: 'hello',
  format: 'JSON',
  // Not an export: the agent is checked first, so the id alone decides the answer.
  content: 'hello',
};

const NODE_TYPES: NodeTypeName[] = ['User', 'Project', 'Agent', 'Thread', 'Execution', 'QueueItem', 'Suspension'];

function idArguments(field: GraphQLField<unknown, unknown>) {
  return field.args.filter((arg) => getNamedType(arg.type).name === 'ID');
}

function idTypeOf(field: GraphQLField<unknown, unknown>, argument: string): IdKind | 'any' {
  const type = ID_ARGUMENT_TYPES[`${field.name}.${argument}`] ?? ID_ARGUMENT_TYPES[argument];
  if (!type) throw new Error(`add ${field.name}(${argument}) to ID_ARGUMENT_TYPES: which kind of node does it name?`);
  return type;
}

interface Victim {
  /** The owner's real object of each type, which the attacker may not see. */
  real: Record<IdKind, string>;
  /** Raw ids of everything the owner has that the attacker may not see. */
  hiddenIds: string[];
}

/** What an answer says, with each id the caller sent replaced by one placeholder (one id may go in two arguments). */
function normalized(answer: unknown, sent: Record<string, string[]>): string {
  let text = JSON.stringify(answer, (key, value) => (key === 'locations' || key === 'path' || key === 'requestId' ? undefined : value));
  for (const ids of Object.values(sent)) {
    for (const id of ids) {
      for (const form of [id, rawId(id)]) text = text.replaceAll(form, '<sent id>');
    }
  }
  return text;
}

async function answer(world: SecurityWorld, kind: OperationKind, field: GraphQLField<unknown, unknown>, variables: Record<string, unknown>, token: string) {
  const query = operationDocument(kind, field, variables);
  if (kind === 'subscription') return firstSubscriptionAnswer(world.server, query, variables, token);
  return post(world.server, query, variables, token);
}

function codesIn(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(/"code":"([A-Z_]+)"/g)].map((match) => match[1]!);
}

describeEachBackend('no existence oracle', (backend) => {
  let world: SecurityWorld;
  let victim: Victim;

  beforeAll(async () => {
    const server = await startTestServer({ backend, env: { PARLEY_RETRY_MAX_ATTEMPTS: '1' } });
    world = await buildSecurityWorld(server);
    // The owner's TEST threads in project P: private to the owner, though the member is in P.
    const busy = await busyThread(world, 'TEST');
    const suspended = await suspendedThread(world, 'TEST');
    const ownerToken = await server.parley.db.prisma.apiToken.findFirstOrThrow({ where: { userId: world.owner.userId } });
    const toolServer = await server.parley.db.prisma.toolServer.create({
      data: { projectId: rawId(world.privateProjectId), name: 'private-tools', url: 'https://192.0.2.1/mcp' },
    });
    const budget = await server.parley.db.prisma.budget.create({
      data: { projectId: rawId(world.privateProjectId), perUser: false, period: 'DAY', amount: '5', scope: '*:shared:DAY' },
    });
    const shareLink = await server.parley.db.prisma.shareLink.create({
      data: {
        threadId: rawId(busy.threadId), ownerId: world.owner.userId, tokenHash: randomUUID(), throughMessageId: randomUUID(),
        title: '', agentName: '', snapshot: [],
      },
    });
    const real: Record<IdKind, string> = {
      ApiToken: ownerToken.id,
      User: encodeId('User', world.owner.userId),
      Project: world.privateProjectId,
      Agent: world.privateAgentId,
      Thread: busy.threadId,
      Execution: busy.executionId,
      QueueItem: busy.queueIds[0],
      Suspension: suspended.suspensionId,
      Message: encodeId('Message', (await server.parley.db.prisma.message.findFirstOrThrow({ where: { threadId: rawId(busy.threadId), role: 'USER' } })).id),
      ToolServer: encodeId('ToolServer', toolServer.id),
      Budget: encodeId('Budget', budget.id),
      ShareLink: encodeId('ShareLink', shareLink.id),
    };
    victim = {
      real,
      hiddenIds: [busy.threadId, busy.executionId, ...busy.queueIds, suspended.threadId, suspended.executionId, suspended.suspensionId]
        .map(rawId)
        .concat(world.owner.userId, rawId(world.privateProjectId), rawId(world.privateAgentId), ownerToken.id),
    };
  }, 180_000);

  afterAll(() => world?.server.stop());

  const attackers: ['outsider' | 'member', string][] = [
    ['outsider', 'a user outside the project'],
    ['member', 'a member of the project, on the owner’s private threads'],
  ];

  for (const [attacker, who] of attackers) {
    it(`${who}: every id-taking operation answers for the owner's object as for an id that names nothing`, async () => {
      const actor: Actor = world[attacker];
      const before = await worldState(world, []);
      const fields = rootFields().filter(({ field }) => idArguments(field).length > 0);
      expect(fields.length).toBeGreaterThan(10);
      for (const { kind, field } of fields) {
        const ids = idArguments(field);
        const types = field.name === 'node' ? NODE_TYPES : [null];
        for (const nodeType of types) {
          const typeOf = (argument: string): IdKind => {
            const type = idTypeOf(field, argument);
            return type === 'any' ? nodeType! : type;
          };
          const pick = (argument: string, real: boolean, list: boolean) => {
            const kind = typeOf(argument);
            const nothing = kind === 'ApiToken' ? randomUUID() : randomGlobalId(kind);
            const id = real ? victim.real[kind] : nothing;
            return list ? [id] : id;
          };
          const variablesWith = (realArgument: string | 'all' | 'none') => {
            const variables: Record<string, unknown> = {};
            for (const arg of field.args) {
              if (ids.includes(arg)) {
                const real = realArgument === 'all' || realArgument === arg.name;
                variables[arg.name] = pick(arg.name, real, String(arg.type).startsWith('['));
              } else if (arg.name === 'user') {
                // addProjectMember's user: the attacker names themselves.
                variables[arg.name] = actor.email;
              } else if (String(arg.type).endsWith('!') || arg.name in OTHER_ARGUMENTS) {
                if (!(arg.name in OTHER_ARGUMENTS)) throw new Error(`add a value for ${field.name}(${arg.name}) to OTHER_ARGUMENTS`);
                variables[arg.name] = OTHER_ARGUMENTS[arg.name];
              }
            }
            return variables;
          };
          const sentIds = (variables: Record<string, unknown>) =>
            Object.fromEntries(ids.map((arg) => [arg.name, ([] as string[]).concat(variables[arg.name] as string | string[])]));

          const randomVariables = variablesWith('none');
          const baseline = normalized(await answer(world, kind, field, randomVariables, actor.token), sentIds(randomVariables));
          expect(codesIn(JSON.parse(baseline)), `${field.name}: an id that names nothing`).toContain('NOT_FOUND');
          for (const realArgument of ['all', ...ids.map((arg) => arg.name)]) {
            const variables = variablesWith(realArgument);
            const raw = await answer(world, kind, field, variables, actor.token);
            const label = `${kind} ${field.name}${nodeType ? ` (${nodeType})` : ''} with the owner's real ${realArgument}`;
            expect(normalized(raw, sentIds(variables)), label).toBe(baseline);
            const sentRaw = Object.values(sentIds(variables)).flat().map(rawId);
            for (const hidden of victim.hiddenIds.filter((id) => !sentRaw.includes(id))) {
              expect(JSON.stringify(raw), `${label} names an id that was not sent`).not.toContain(hidden);
            }
          }
        }
      }
      expect(await worldState(world, []), 'the attempts changed nothing').toEqual(before);
    }, 300_000);
  }

  describe('adding a member by email', () => {
    it('answers the same whether an account has that email or not', async () => {
      const project = world.projectId;
      const known = await request(world.server, AddProjectMemberDocument, { projectId: project, user: world.outsider.email, role: 'VIEWER' }, world.owner.token);
      const unknown = await request(
        world.server,
        AddProjectMemberDocument,
        { projectId: project, user: `nobody-${randomUUID().slice(0, 8)}@example.test`, role: 'VIEWER' },
        world.owner.token,
      );
      expect(known.data?.addProjectMember.__typename).toBe('Project');
      expect(unknown).toEqual(known);
      // An admin of one project asking about another: the same not-found either way.
      const elsewhereKnown = await request(world.server, AddProjectMemberDocument, { projectId: world.privateProjectId, user: world.member.email, role: 'VIEWER' }, world.outsider.token);
      const elsewhereUnknown = await request(world.server, AddProjectMemberDocument, { projectId: world.privateProjectId, user: 'nobody@example.test', role: 'VIEWER' }, world.outsider.token);
      expect(elsewhereUnknown).toEqual(elsewhereKnown);
      expect(elsewhereKnown.data?.addProjectMember.__typename).toBe('NotFoundError');
      // Undo the outsider's membership: the other suites' world stays as it was built.
      await world.server.parley.db.prisma.membership.delete({
        where: { projectId_userId: { projectId: rawId(project), userId: world.outsider.userId } },
      });
    });

    it('refuses what is neither an email nor a user id, whatever exists', async () => {
      const result = await request(world.server, AddProjectMemberDocument, { projectId: world.projectId, user: 'not an address', role: 'VIEWER' }, world.owner.token);
      expect(result.data?.addProjectMember).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT' });
    });
  });
});
