import { randomUUID } from 'node:crypto';
import { AccessPolicy } from '../../src/auth/access.ts';
import { DirectoryService, type AgentInput } from '../../src/directory/directory-service.ts';
import type { Database } from '../../src/db/database.ts';
import { ModelRegistry } from '../../src/models/registry.ts';
import { TOOL_NAMES } from '../../src/runtime/tools.ts';
import { expectTypename, send } from './client.ts';
import { CreateThreadDocument } from './documents.ts';
import { follow, type Follower } from './follower.ts';
import { ofKind, type RunEvent } from './run-events.ts';
import { requestData, type TestServer } from './server.ts';

// The set-up nearly every suite starts from: a user with a project and an agent, written straight
// into the directory (the API that creates them has suites of its own), and threads of that agent.

const DEMO_TOOLS = [...TOOL_NAMES];

export type Locale = 'en' | 'de';

export interface User {
  userId: string;
  token: string;
}

interface AgentSetUp extends User {
  projectId: string;
  agentId: string;
}

/** A test server's directory, or one of our own on the database that child instances share. */
export type DirectoryTarget = Pick<TestServer, 'parley'> | Pick<Database, 'prisma' | 'sql'>;

function directoryOf(target: DirectoryTarget): DirectoryService {
  if ('parley' in target) return target.parley.services.directory;
  return new DirectoryService(target.prisma, new AccessPolicy(target.prisma, target.sql), new ModelRegistry({ demo: true, compatible: {} }));
}

async function createUser(target: DirectoryTarget, locale: Locale = 'en'): Promise<User> {
  const email = `user-${randomUUID().slice(0, 8)}@example.test`;
  const { user, token } = await directoryOf(target).createUser({ email, locale });
  return { userId: user.id, token };
}

/**
 * A user (the project's admin) with a project and an agent, by default on the demo model with every
 * demo tool. `user` makes an existing user the admin.
 */
export async function setUpAgent(
  target: DirectoryTarget,
  options: { project?: string; locale?: Locale; user?: User } & AgentInput = {},
): Promise<AgentSetUp> {
  const { project: name = 'Demo', locale, user: given, ...agent } = options;
  const directory = directoryOf(target);
  const user = given ?? (await createUser(target, locale));
  const project = await directory.createProject(await directory.findUser(user.userId), { name });
  return { ...user, projectId: project.id, agentId: await addAgent(target, project.id, agent) };
}

/** Another agent in the project: the demo model with every demo tool unless `input` says otherwise. */
export async function addAgent(target: DirectoryTarget, projectId: string, input: AgentInput = {}): Promise<string> {
  const agent = await directoryOf(target).createAgent(null, projectId, {
    name: 'Demo',
    model: 'demo:default',
    tools: DEMO_TOOLS,
    ...input,
  });
  return agent.id;
}

/** A new user with `role` in the project. */
export async function addMember(
  target: DirectoryTarget,
  projectId: string,
  options: { role?: 'admin' | 'member' | 'viewer'; locale?: Locale } = {},
): Promise<User> {
  const member = await createUser(target, options.locale);
  await directoryOf(target).addMember(null, { projectId, user: member.userId, role: options.role ?? 'member' });
  return member;
}

export async function newThread(server: { url: string }, token: string, agentId: string, title?: string): Promise<string> {
  const { createThread } = await requestData(server, CreateThreadDocument, { agentId, title }, token);
  return expectTypename(createThread, 'Thread').id;
}

/** A new thread of the agent, followed from its start. */
export async function followNewThread(server: { url: string; wsUrl: string }, token: string, agentId: string): Promise<Follower> {
  return follow(server, token, await newThread(server, token, agentId));
}

/**
 * Sends `text` on the thread and follows the thread from its start until the turn has finished
 * (after the `earlierTurns` that finished before it); returns every event up to then.
 */
export async function sendAndFollow(
  server: { url: string; wsUrl: string },
  token: string,
  threadId: string,
  text: string,
  earlierTurns = 0,
): Promise<RunEvent[]> {
  const follower = follow(server, token, threadId);
  try {
    await send(server, token, threadId, text);
    return await follower.waitUntil((events) => ofKind(events, 'ExecutionFinished').length > earlierTurns);
  } finally {
    await follower.close();
  }
}
