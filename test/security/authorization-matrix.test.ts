import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import {
  firstSubscriptionAnswer,
  operationDocument,
  post,
  rootFields,
  type OperationKind,
} from '../support/schema-operations.ts';
import {
  answeredThread,
  buildSecurityWorld,
  busyThread,
  compactableThread,
  createThread,
  failedThread,
  rank,
  rawId,
  ROLES,
  suspendedThread,
  tokenOf,
  worldState,
  type Role,
  type SecurityWorld,
} from '../support/security-world.ts';
import { cancel } from '../support/client.ts';
import { startTestServer } from '../support/server.ts';

// Every root field of the schema, tried by every role. The table says who may do what; a field
// the table does not name fails the suite, so a new field is checked from the day it is added.
//
// Roles, weakest first: anonymous (no token), outsider (signed in, not in the project), viewer,
// member and admin of project P, and owner (P's creator, an admin, who owns the threads tried).
// Allowed roles succeed. The others get: UNAUTHENTICATED without a token, NOT_FOUND outside the
// project (and for another user's private TEST thread), FORBIDDEN for a role too weak; and the
// attempt changes nothing.

type FixtureKind =
  | 'none'
  | 'shared'
  | 'private'
  | 'busy'
  | 'suspended'
  | 'private-suspended'
  | 'failed'
  | 'newcomer'
  | 'fellow-viewer'
  | 'owner-token'
  | 'tool-server'
  | 'budget'
  | 'answered'
  | 'private-answered'
  | 'compactable'
  | 'private-compactable'
  | 'compacted'
  | 'private-compacted'
  | 'share-link';

interface Fixture {
  threadIds: string[];
  threadId?: string;
  executionId?: string;
  queueIds?: [string, string];
  suspensionId?: string;
  email?: string;
  /** A spare API token of the owner's (revoking one of the tokens the roles use would end them). */
  tokenId?: string;
  /** A tool server of P (a closed loopback port, allowed here), and a name no server of P has yet. */
  toolServerId?: string;
  toolServerName?: string;
  /** A budget of P. */
  budgetId?: string;
  /** A completed turn's user message and reply. */
  userMessageId?: string;
  replyMessageId?: string;
  /** A share link of the owner's private thread, and its token. */
  shareLinkId?: string;
  shareToken?: string;
}

interface Case {
  /** What the case tries, when a field has several. */
  name?: string;
  /** The weakest role allowed; `admin-credential`: no project role is (the admin API, see test/security/admin-api.test.ts). */
  minimum: Role | 'admin-credential';
  /** What every signed-in role gets for an `admin-credential` case. */
  refusal?: 'FORBIDDEN' | 'NOT_FOUND';
  fixture: FixtureKind;
  variables: (world: SecurityWorld, fixture: Fixture) => Record<string, unknown>;
}

const threadRead = (argument: string): Case[] => [
  { minimum: 'viewer', fixture: 'shared', variables: (_w, f) => ({ [argument]: f.threadId }) },
  { name: 'the owner’s private thread', minimum: 'owner', fixture: 'private', variables: (_w, f) => ({ [argument]: f.threadId }) },
];

const onAnswered = (variables: Case['variables'], minimum: Role = 'member'): Case[] => [
  { minimum, fixture: 'answered', variables },
  { name: 'the owner’s private thread', minimum: 'owner', fixture: 'private-answered', variables },
];

/** A valid thread export (docs/thread-export.md) of one message, for importThread. */
const EXPORT = JSON.stringify({
  format: 'parley.thread',
  version: 1,
  exportedAt: '2026-12-01T10:00:00.000Z',
  thread: { id: 'exported', title: 'Imported', createdAt: '2026-12-01T09:00:00.000Z', agent: { id: 'agent', name: 'Demo', model: 'demo:default' } },
  messages: [{ id: 'm1', role: 'USER', createdAt: '2026-12-01T09:00:00.000Z', outcome: null, parts: [{ type: 'text', text: 'hello' }] }],
});

const MATRIX: Record<string, Case[]> = {
  'mutation.createUser': [{ minimum: 'admin-credential', refusal: 'FORBIDDEN', fixture: 'none', variables: () => ({ email: `made-${randomUUID().slice(0, 8)}@example.test` }) }],
  'mutation.disableUser': [{ minimum: 'admin-credential', refusal: 'NOT_FOUND', fixture: 'none', variables: (w) => ({ userId: encodeId('User', w.owner.userId) }) }],
  'mutation.enableUser': [{ minimum: 'admin-credential', refusal: 'NOT_FOUND', fixture: 'none', variables: (w) => ({ userId: encodeId('User', w.owner.userId) }) }],
  'mutation.editMessage': onAnswered((_w, f) => ({ messageId: f.userMessageId, text: 'edited', idempotencyKey: randomUUID() })),
  'mutation.regenerateMessage': onAnswered((_w, f) => ({ messageId: f.replyMessageId })),
  'mutation.switchBranch': onAnswered((_w, f) => ({ messageId: f.userMessageId })),
  'mutation.compactThread': [
    { minimum: 'member', fixture: 'compactable', variables: (_w, f) => ({ threadId: f.threadId }) },
    { name: 'the owner’s private thread', minimum: 'owner', fixture: 'private-compactable', variables: (_w, f) => ({ threadId: f.threadId }) },
  ],
  'mutation.uncompactThread': [
    { minimum: 'member', fixture: 'compacted', variables: (_w, f) => ({ threadId: f.threadId }) },
    { name: 'the owner’s private thread', minimum: 'owner', fixture: 'private-compacted', variables: (_w, f) => ({ threadId: f.threadId }) },
  ],
  // Only the thread's owner shares it: to anyone else, even in the project, it is not found.
  'mutation.shareThread': onAnswered((_w, f) => ({ threadId: f.threadId, throughMessageId: f.replyMessageId }), 'owner'),
  'mutation.revokeShareLink': [{ minimum: 'owner', fixture: 'share-link', variables: (_w, f) => ({ id: f.shareLinkId }) }],
  // Anonymous on purpose: whoever holds the link reads its snapshot, signed in or not.
  'query.sharedThread': [{ minimum: 'anonymous', fixture: 'share-link', variables: (_w, f) => ({ token: f.shareToken }) }],
  'mutation.renameThread': onAnswered((_w, f) => ({ threadId: f.threadId, title: 'Renamed' })),
  // The owner, or a project admin for a shared thread.
  'mutation.deleteThread': onAnswered((_w, f) => ({ threadId: f.threadId }), 'admin'),
  'query.agent': [{ minimum: 'viewer', fixture: 'none', variables: (w) => ({ id: w.agentId }) }],
  'query.conversation': threadRead('threadId'),
  'query.node': threadRead('id'),
  'query.project': [{ minimum: 'viewer', fixture: 'none', variables: (w) => ({ id: w.projectId }) }],
  'query.queue': threadRead('threadId'),
  'query.thread': threadRead('id'),
  'query.viewer': [{ minimum: 'outsider', fixture: 'none', variables: () => ({}) }],
  'query.modelPrices': [{ minimum: 'outsider', fixture: 'none', variables: () => ({ models: ['demo:default'] }) }],
  'query.usage': [
    { minimum: 'viewer', fixture: 'none', variables: (w) => ({ projectId: w.projectId, from: '2026-01-01T00:00:00Z', to: '2026-12-31T00:00:00Z', groupBy: ['USER'] }) },
  ],
  'mutation.setModelPrice': [
    { minimum: 'admin-credential', refusal: 'FORBIDDEN', fixture: 'none', variables: () => ({ model: 'demo:default', inputPerMillion: '1', outputPerMillion: '2' }) },
  ],
  'mutation.setBudget': [{ minimum: 'admin', fixture: 'none', variables: (w) => ({ projectId: w.projectId, perUser: true, period: 'DAY', amount: '5' }) }],
  'mutation.removeBudget': [{ minimum: 'admin', fixture: 'budget', variables: (_w, f) => ({ budgetId: f.budgetId }) }],
  'mutation.addProjectMember': [
    { minimum: 'admin', fixture: 'newcomer', variables: (w, f) => ({ projectId: w.projectId, user: f.email, role: 'VIEWER' }) },
  ],
  'mutation.removeProjectMember': [
    { minimum: 'admin', fixture: 'fellow-viewer', variables: (w, f) => ({ projectId: w.projectId, user: f.email }) },
  ],
  'mutation.revokeApiToken': [{ minimum: 'owner', fixture: 'owner-token', variables: (_w, f) => ({ id: f.tokenId }) }],
  'mutation.cancelExecution': [{ minimum: 'member', fixture: 'busy', variables: (_w, f) => ({ executionId: f.executionId }) }],
  'mutation.createAgent': [
    { minimum: 'admin', fixture: 'none', variables: (w) => ({ projectId: w.projectId, name: 'New', model: 'demo:default' }) },
  ],
  'mutation.addToolServer': [
    {
      minimum: 'admin',
      fixture: 'tool-server',
      variables: (w, f) => ({ projectId: w.projectId, name: f.toolServerName, url: 'http://127.0.0.1:1/mcp' }),
    },
  ],
  'mutation.updateToolServer': [
    { minimum: 'admin', fixture: 'tool-server', variables: (_w, f) => ({ toolServerId: f.toolServerId, name: f.toolServerName }) },
  ],
  'mutation.removeToolServer': [{ minimum: 'admin', fixture: 'tool-server', variables: (_w, f) => ({ toolServerId: f.toolServerId }) }],
  'mutation.refreshToolServer': [{ minimum: 'admin', fixture: 'tool-server', variables: (_w, f) => ({ toolServerId: f.toolServerId }) }],
  'mutation.createProject': [{ minimum: 'outsider', fixture: 'none', variables: () => ({ name: 'Mine' }) }],
  'mutation.createThread': [{ minimum: 'member', fixture: 'none', variables: (w) => ({ agentId: w.agentId }) }],
  'mutation.importThread': [{ minimum: 'member', fixture: 'none', variables: (w) => ({ agentId: w.agentId, content: EXPORT }) }],
  'query.exportThread': [
    { minimum: 'viewer', fixture: 'shared', variables: (_w, f) => ({ threadId: f.threadId, format: 'JSON' }) },
    { name: 'the owner’s private thread', minimum: 'owner', fixture: 'private', variables: (_w, f) => ({ threadId: f.threadId, format: 'MARKDOWN' }) },
  ],
  // Anyone signed in searches their own threads; naming an agent needs to see it.
  'query.searchThreads': [
    { minimum: 'outsider', fixture: 'none', variables: () => ({ query: 'hello' }) },
    { name: 'one agent’s threads', minimum: 'viewer', fixture: 'none', variables: (w) => ({ query: 'hello', agentId: w.agentId }) },
  ],
  'mutation.editQueuedMessage': [
    { minimum: 'member', fixture: 'busy', variables: (_w, f) => ({ queueId: f.queueIds![0], text: 'edited' }) },
  ],
  'mutation.removeQueuedMessage': [{ minimum: 'member', fixture: 'busy', variables: (_w, f) => ({ queueId: f.queueIds![0] }) }],
  'mutation.reorderQueuedMessage': [
    {
      minimum: 'member',
      fixture: 'busy',
      variables: (_w, f) => ({ queueId: f.queueIds![1], targetQueueId: f.queueIds![0], expectedQueueIds: f.queueIds }),
    },
  ],
  'mutation.resolveSuspension': [
    { minimum: 'member', fixture: 'suspended', variables: (_w, f) => ({ id: f.suspensionId, decision: 'DENY' }) },
  ],
  'mutation.retryExecution': [{ minimum: 'member', fixture: 'failed', variables: (_w, f) => ({ executionId: f.executionId }) }],
  'mutation.sendMessage': [
    { minimum: 'member', fixture: 'shared', variables: (_w, f) => ({ threadId: f.threadId, text: 'hello' }) },
    {
      name: 'the owner’s private thread',
      minimum: 'owner',
      fixture: 'private',
      variables: (_w, f) => ({ threadId: f.threadId, text: 'hello' }),
    },
  ],
  'mutation.steerQueuedMessage': [
    { minimum: 'member', fixture: 'busy', variables: (_w, f) => ({ queueId: f.queueIds![0], executionId: f.executionId }) },
  ],
  'mutation.updateAgent': [{ minimum: 'admin', fixture: 'none', variables: (w) => ({ agentId: w.agentId, name: 'Renamed' }) }],
  // A thread with recorded events that stay as they are (an open approval), so that an allowed
  // subscription answers with its replay at once.
  'subscription.runEvents': [
    { minimum: 'viewer', fixture: 'suspended', variables: (_w, f) => ({ threadId: f.threadId, after: '0' }) },
    {
      name: 'the owner’s private thread',
      minimum: 'owner',
      fixture: 'private-suspended',
      variables: (_w, f) => ({ threadId: f.threadId, after: '0' }),
    },
  ],
};

async function buildFixture(world: SecurityWorld, kind: FixtureKind): Promise<Fixture> {
  switch (kind) {
    case 'none':
      return { threadIds: [] };
    case 'newcomer': {
      const email = `newcomer-${randomUUID().slice(0, 8)}@example.test`;
      await world.server.createUser({ email });
      return { threadIds: [], email };
    }
    case 'fellow-viewer': {
      const email = `fellow-${randomUUID().slice(0, 8)}@example.test`;
      const { userId } = await world.server.createUser({ email });
      await world.server.parley.services.directory.addMember(null, { projectId: rawId(world.projectId), user: userId, role: 'VIEWER' });
      return { threadIds: [], email };
    }
    case 'tool-server': {
      const row = await world.server.parley.db.prisma.toolServer.create({
        data: { projectId: rawId(world.projectId), name: `t-${randomUUID().slice(0, 8)}`, url: 'http://127.0.0.1:1/mcp' },
      });
      return { threadIds: [], toolServerId: encodeId('ToolServer', row.id), toolServerName: `n-${randomUUID().slice(0, 8)}` };
    }
    case 'budget': {
      const scope = `*:shared:${randomUUID()}`;
      const row = await world.server.parley.db.prisma.budget.create({ data: { projectId: rawId(world.projectId), perUser: false, period: 'MONTH', amount: '10', scope } });
      return { threadIds: [], budgetId: encodeId('Budget', row.id) };
    }
    case 'share-link': {
      const threadId = await createThread(world, 'TEST');
      const shareToken = randomBytes(32).toString('base64url');
      const link = await world.server.parley.db.prisma.shareLink.create({
        data: {
          threadId: rawId(threadId), ownerId: world.owner.userId, tokenHash: createHash('sha256').update(shareToken).digest('hex'),
          throughMessageId: randomUUID(), title: 'shared', agentName: 'agent', snapshot: [],
        },
      });
      return { threadIds: [threadId], shareLinkId: encodeId('ShareLink', link.id), shareToken };
    }
    case 'owner-token': {
      const token = await world.server.parley.db.prisma.apiToken.create({
        data: { userId: world.owner.userId, tokenHash: randomUUID(), label: 'spare' },
      });
      return { threadIds: [], tokenId: token.id };
    }
    case 'shared':
    case 'private': {
      const threadId = await createThread(world, kind === 'shared' ? 'SHARED' : 'TEST');
      return { threadIds: [threadId], threadId };
    }
    case 'busy': {
      const busy = await busyThread(world, 'SHARED');
      return { threadIds: [busy.threadId], ...busy };
    }
    case 'suspended':
    case 'private-suspended': {
      const suspended = await suspendedThread(world, kind === 'suspended' ? 'SHARED' : 'TEST');
      return { threadIds: [suspended.threadId], ...suspended };
    }
    case 'answered':
    case 'private-answered': {
      const answered = await answeredThread(world, kind === 'answered' ? 'SHARED' : 'TEST');
      return { threadIds: [answered.threadId], ...answered };
    }
    case 'compactable':
    case 'private-compactable':
    case 'compacted':
    case 'private-compacted': {
      const compactable = await compactableThread(world, kind.startsWith('private') ? 'TEST' : 'SHARED', kind.endsWith('compacted'));
      return { threadIds: [compactable.threadId], ...compactable };
    }
    case 'failed': {
      const failed = await failedThread(world, 'SHARED');
      return { threadIds: [failed.threadId], ...failed };
    }
  }
}

/**
 * A busy fixture's run lasts a minute and holds one of the owner's run slots
 * (PARLEY_MAX_CONCURRENT_RUNS_PER_USER): left running, a later case's busy thread would wait that
 * long to start. Stopped when its case ends; one the case stopped already answers with an error.
 */
async function stopBusyRuns(world: SecurityWorld, fixtures: Fixture[]): Promise<void> {
  for (const { executionId } of fixtures) await cancel(world.server, world.owner.token, executionId!);
}

/** What an attempt ended with: success, or the code of the error it was refused with. */
type Outcome = { ok: true } | { ok: false; code: string; detail: unknown };

async function attempt(world: SecurityWorld, kind: OperationKind, fieldName: string, variables: Record<string, unknown>, role: Role): Promise<Outcome> {
  const field = rootFields().find((entry) => entry.kind === kind && entry.field.name === fieldName)!.field;
  const query = operationDocument(kind, field, variables);
  const token = tokenOf(world, role);
  if (kind === 'subscription') {
    const answer = await firstSubscriptionAnswer(world.server, query, variables, token);
    if (answer.data) return { ok: true };
    // A server may refuse an unauthenticated socket outright (4401/4403) instead of the subscription.
    if (answer.closeCode === 4401 || answer.closeCode === 4403) return { ok: false, code: 'UNAUTHENTICATED', detail: answer };
    return { ok: false, code: answer.errors?.[0]?.extensions?.code ?? 'NONE', detail: answer };
  }
  const result = await post(world.server, query, variables, token);
  if (result.errors?.length) return { ok: false, code: result.errors[0]!.extensions?.code ?? 'NONE', detail: result.errors };
  const value = result.data?.[fieldName] as { __typename?: string; code?: string } | null | undefined;
  if (value?.code) return { ok: false, code: value.code, detail: value };
  return value ? { ok: true } : { ok: false, code: 'NONE', detail: result };
}

function expectedRefusal(role: Role, entry: Case): string {
  const { minimum } = entry;
  if (role === 'anonymous') return 'UNAUTHENTICATED';
  if (minimum === 'admin-credential') return entry.refusal!;
  if (role === 'outsider' || minimum === 'owner') return 'NOT_FOUND';
  return 'FORBIDDEN';
}

describeEachBackend('authorization matrix', (backend) => {
  let world: SecurityWorld;

  beforeAll(async () => {
    const server = await startTestServer({ backend, env: { PARLEY_RETRY_MAX_ATTEMPTS: '1', PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' } });
    world = await buildSecurityWorld(server);
  }, 180_000);

  afterAll(() => world?.server.stop());

  it('names every query, mutation and subscription of the schema', () => {
    const fields = rootFields().map(({ kind, field }) => `${kind}.${field.name}`).sort();
    expect(Object.keys(MATRIX).sort()).toEqual(fields);
  });

  for (const { kind, field } of rootFields()) {
    const key = `${kind}.${field.name}`;
    for (const entry of MATRIX[key] ?? []) {
      const who = entry.minimum === 'admin-credential' ? 'no project role' : `${entry.minimum} and above`;
      it(`${key}${entry.name ? ` on ${entry.name}` : ''}: ${who}`, async () => {
        let fixture = await buildFixture(world, entry.fixture);
        const fixtures = [fixture];
        let used = false;
        try {
          for (const role of ROLES) {
            const allowed = entry.minimum !== 'admin-credential' && rank(role) >= rank(entry.minimum);
            if (allowed) {
              if (used) fixtures.push((fixture = await buildFixture(world, entry.fixture)));
              const outcome = await attempt(world, kind, field.name, entry.variables(world, fixture), role);
              expect(outcome, `${key} as ${role}`).toEqual({ ok: true });
              used = true;
              continue;
            }
            const before = await worldState(world, fixture.threadIds);
            const outcome = await attempt(world, kind, field.name, entry.variables(world, fixture), role);
            expect(outcome.ok ? 'allowed' : outcome.code, `${key} as ${role}: ${JSON.stringify(outcome)}`).toBe(
              expectedRefusal(role, entry),
            );
            expect(await worldState(world, fixture.threadIds), `${key} as ${role} changed something`).toEqual(before);
          }
        } finally {
          if (entry.fixture === 'busy') await stopBusyRuns(world, fixtures);
        }
      }, 180_000);
    }
  }
});
