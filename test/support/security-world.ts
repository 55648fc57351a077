import { randomUUID } from 'node:crypto';
import type { ExecutionStatus } from '../../src/generated/prisma/client.ts';
import { encodeId, type NodeTypeName } from '../../src/schema/ids.ts';
import { expectTypename } from './client.ts';
import { CreateThreadDocument, SendMessageDocument } from './documents.ts';
import { eventually, requestData, type TestServer } from './server.ts';
import { executionRowsReaching } from './waits.ts';

// The world the security suites attack: a project whose members hold every role, the owner's
// private project and threads, and an outsider with a project of their own.

export const ROLES = ['anonymous', 'outsider', 'viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];
export const rank = (role: Role) => ROLES.indexOf(role);

export interface Actor {
  userId: string;
  token: string;
  email: string;
}

export interface SecurityWorld {
  server: TestServer;
  /** Created project P (ADMIN) and owns the threads of the fixtures. */
  owner: Actor;
  admin: Actor;
  member: Actor;
  viewer: Actor;
  outsider: Actor;
  /** Project P and its agent (global ids). */
  projectId: string;
  agentId: string;
  /** The owner's private project Q, its agent and what only the owner may read of it. */
  privateProjectId: string;
  privateAgentId: string;
  privateSecrets: string[];
  /** The outsider's own project and agent. */
  outsiderProjectId: string;
  outsiderAgentId: string;
}

export function tokenOf(world: SecurityWorld, role: Role): string | null {
  return role === 'anonymous' ? null : world[role].token;
}

/** The raw id inside a global id. */
/** The database id in a global id; a plain (raw) id stays as it is. */
export function rawId(globalId: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(globalId)) return globalId;
  return Buffer.from(globalId, 'base64').toString('utf8').split(':').slice(1).join(':');
}

/** A well-formed id of `type` that names nothing. */
export function randomGlobalId(type: NodeTypeName): string {
  return encodeId(type, randomUUID());
}

export async function buildSecurityWorld(server: TestServer): Promise<SecurityWorld> {
  // Written straight into the directory: its API has suites of its own, and this is quicker.
  const directory = server.parley.services.directory;
  const actor = async (name: string): Promise<Actor> => {
    const email = `${name}-${randomUUID().slice(0, 8)}@example.test`;
    return { ...(await server.createUser({ email })), email };
  };
  const [owner, admin, member, viewer, outsider] = await Promise.all(
    ['owner', 'admin', 'member', 'viewer', 'outsider'].map(actor),
  );
  const project = async (creator: Actor, name: string) =>
    (await directory.createProject(await directory.findUser(creator.userId), { name })).id;
  const agent = async (projectId: string, systemPrompt = '') =>
    encodeId(
      'Agent',
      (await directory.createAgent(null, projectId, { name: 'Helper', model: 'demo:default', systemPrompt, tools: ['approve_action', 'ask_user'] })).id,
    );
  const projectId = await project(owner!, 'P');
  for (const [who, role] of [
    [admin!, 'admin'],
    [member!, 'member'],
    [viewer!, 'viewer'],
  ] as const) {
    await directory.addMember(null, { projectId, user: who.userId, role });
  }
  const agentId = await agent(projectId);
  const secret = `SECRET-${randomUUID()}`;
  const privateProjectId = await project(owner!, `Private ${secret}`);
  const privateAgentId = await agent(privateProjectId, `prompt ${secret}`);
  const outsiderProjectId = await project(outsider!, 'O');
  const outsiderAgentId = await agent(outsiderProjectId);
  return {
    server,
    owner: owner!,
    admin: admin!,
    member: member!,
    viewer: viewer!,
    outsider: outsider!,
    projectId: encodeId('Project', projectId),
    agentId,
    privateProjectId: encodeId('Project', privateProjectId),
    privateAgentId,
    privateSecrets: [secret, owner!.email, privateProjectId, rawId(privateAgentId), owner!.token],
    outsiderProjectId: encodeId('Project', outsiderProjectId),
    outsiderAgentId,
  };
}

/** A new thread of the agent by `token`'s user; SHARED makes it visible to the project's members. */
export async function createThread(world: SecurityWorld, kind: 'TEST' | 'SHARED', agentId = world.agentId, token = world.owner.token) {
  const thread = expectTypename(
    (await requestData(world.server, CreateThreadDocument, { agentId, title: `${kind} thread` }, token)).createThread,
    'Thread',
  );
  // The API creates TEST threads only; a shared one is made so in the database.
  if (kind === 'SHARED') {
    await world.server.parley.db.prisma.thread.update({ where: { id: rawId(thread.id) }, data: { kind: 'SHARED' } });
  }
  return thread.id;
}

async function sendAs(world: SecurityWorld, threadId: string, text: string, token = world.owner.token): Promise<string> {
  const { sendMessage } = await requestData(world.server, SendMessageDocument, { threadId, text }, token);
  return expectTypename(sendMessage, 'MessageQueued').queueId;
}

/** The thread's one top-level execution (its global id) once it reached `status`; `accepting`: and takes steered messages. */
async function topLevelExecution(world: SecurityWorld, threadId: string, status: ExecutionStatus, accepting?: true): Promise<string> {
  const [execution] = await executionRowsReaching(world.server.parley.db.prisma, rawId(threadId), status, {
    topLevel: true,
    acceptsSteering: accepting,
    timeoutMs: 60_000,
  });
  return encodeId('Execution', execution.id);
}

export interface BusyThread {
  threadId: string;
  executionId: string;
  /** Two pending messages, in queue order. */
  queueIds: [string, string];
}

/** A thread whose reply runs for a minute, with two messages waiting behind it. */
export async function busyThread(world: SecurityWorld, kind: 'TEST' | 'SHARED', agentId?: string, token?: string): Promise<BusyThread> {
  const threadId = await createThread(world, kind, agentId, token);
  await sendAs(world, threadId, '/slow 60 busy', token);
  const executionId = await topLevelExecution(world, threadId, 'RUNNING', true);
  // The reply's message is written at its first flush; after it, only its text changes while it runs.
  await eventually(
    () => world.server.parley.db.prisma.message.findFirst({ where: { executionId: rawId(executionId), role: 'ASSISTANT' } }),
    60_000,
    'the running reply to be recorded',
  );
  const first = await sendAs(world, threadId, 'waiting one', token);
  const second = await sendAs(world, threadId, 'waiting two', token);
  return { threadId, executionId, queueIds: [first, second] };
}

/** A thread whose execution waits for an approval. */
export async function suspendedThread(world: SecurityWorld, kind: 'TEST' | 'SHARED', agentId?: string, token?: string) {
  const threadId = await createThread(world, kind, agentId, token);
  await sendAs(world, threadId, '/approve deploy', token);
  const executionId = await topLevelExecution(world, threadId, 'SUSPENDED');
  const suspension = await world.server.parley.db.prisma.suspension.findFirstOrThrow({
    where: { executionId: rawId(executionId), status: 'OPEN' },
  });
  return { threadId, executionId, suspensionId: encodeId('Suspension', suspension.id) };
}

/** A thread whose only turn failed with a retryable failure (the server must not retry it itself). */
export async function failedThread(world: SecurityWorld, kind: 'TEST' | 'SHARED', agentId?: string, token?: string) {
  const threadId = await createThread(world, kind, agentId, token);
  await sendAs(world, threadId, '/fail transport', token);
  const executionId = await topLevelExecution(world, threadId, 'FAILED');
  return { threadId, executionId };
}

/** A thread whose one turn completed: its user message and its reply, as global ids. */
export async function answeredThread(world: SecurityWorld, kind: 'TEST' | 'SHARED') {
  const threadId = await createThread(world, kind);
  await sendAs(world, threadId, 'hello');
  await topLevelExecution(world, threadId, 'COMPLETED');
  const messages = await world.server.parley.db.prisma.message.findMany({ where: { threadId: rawId(threadId) }, orderBy: { seq: 'asc' } });
  const [question, reply] = [messages.find((message) => message.role === 'USER')!, messages.find((message) => message.role === 'ASSISTANT')!];
  return { threadId, userMessageId: encodeId('Message', question.id), replyMessageId: encodeId('Message', reply.id) };
}

/**
 * A thread with one turn more than the agent keeps through a compaction (4), so `compactThread` has
 * something to summarise; `compacted`: and summarised once, so `uncompactThread` has something to undo.
 */
export async function compactableThread(world: SecurityWorld, kind: 'TEST' | 'SHARED', compacted: boolean) {
  const threadId = await createThread(world, kind);
  const prisma = world.server.parley.db.prisma;
  for (let turn = 1; turn <= 5; turn++) {
    await sendAs(world, threadId, `turn ${turn}`);
    await executionRowsReaching(prisma, rawId(threadId), 'COMPLETED', { topLevel: true, count: turn, timeoutMs: 60_000 });
  }
  if (compacted) {
    const owner = await prisma.user.findUniqueOrThrow({ where: { id: world.owner.userId } });
    await world.server.parley.services.compaction.compactThread(owner, rawId(threadId));
  }
  return { threadId };
}

/**
 * What a request could change in the world, for the threads given and the directory: equal before
 * and after means the request changed nothing there. Runs elsewhere do not disturb it.
 */
export async function worldState(world: SecurityWorld, threadIds: string[]) {
  const prisma = world.server.parley.db.prisma;
  const threads = threadIds.map(rawId);
  const inThreads = { threadId: { in: threads } };
  const [users, memberships, projects, agents, threadRows, executions, queueItems, suspensions, messages, events] = await Promise.all([
    prisma.user.findMany({ orderBy: { id: 'asc' } }),
    prisma.membership.findMany({ orderBy: [{ projectId: 'asc' }, { userId: 'asc' }] }),
    prisma.project.findMany({ orderBy: { id: 'asc' } }),
    prisma.agent.findMany({ orderBy: { id: 'asc' } }),
    prisma.thread.findMany({ where: { id: { in: threads } }, orderBy: { id: 'asc' } }),
    prisma.execution.findMany({
      where: inThreads,
      orderBy: { id: 'asc' },
      select: { id: true, status: true, cancelRequestedAt: true, acceptsSteering: true },
    }),
    prisma.queueItem.findMany({ where: inThreads, orderBy: { id: 'asc' } }),
    prisma.suspension.findMany({ where: inThreads, orderBy: { id: 'asc' }, select: { id: true, status: true, resolution: true } }),
    prisma.message.count({ where: inThreads }),
    prisma.threadEvent.count({ where: inThreads }),
  ]);
  const shareLinks = await prisma.shareLink.findMany({ orderBy: { id: 'asc' }, select: { id: true, threadId: true } });
  return { users, memberships, projects, agents, threadRows, executions, queueItems, suspensions, messages, events, shareLinks };
}
