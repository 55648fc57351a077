import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeId } from '../schema/ids.ts';
import { TOOL_NAMES } from '../runtime/tools.ts';
import type { Parley } from '../parley.ts';

export interface DemoBootstrap {
  token: string | null;
  userId: string;
  projectId: string;
  agentId: string;
  /** Global ids, as GraphQL shows them. */
  agentGlobalId: string;
  created: boolean;
}

export const DEMO_EMAIL = 'demo@parley.local';

/**
 * On an empty database, creates a demo user, project and agent on the built-in demo model. In the
 * embedded mode the demo token is kept in the data folder so every local start can print it.
 */
export async function bootstrapDemo(parley: Parley): Promise<DemoBootstrap> {
  const prisma = parley.db.prisma;
  const tokenFile =
    parley.db.kind === 'pglite' && parley.config.PARLEY_DATA_DIR !== 'memory://'
      ? path.join(parley.config.PARLEY_DATA_DIR, 'demo-token.txt')
      : null;
  const existing = await prisma.user.findFirst({ where: { email: DEMO_EMAIL, externalIssuer: null } });
  if (existing) {
    const agent = await prisma.agent.findFirst({
      where: { project: { memberships: { some: { userId: existing.id } } }, model: 'demo:default' },
      orderBy: { createdAt: 'asc' },
    });
    const token = tokenFile && existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : null;
    return {
      token,
      userId: existing.id,
      projectId: agent?.projectId ?? '',
      agentId: agent?.id ?? '',
      agentGlobalId: agent ? encodeId('Agent', agent.id) : '',
      created: false,
    };
  }
  const { user, token } = await parley.services.directory.createUser({ email: DEMO_EMAIL, locale: 'en' });
  const project = await parley.services.directory.createProject(user, { name: 'Demo project' });
  const agent = await parley.services.directory.createAgent(user, project.id, {
    name: 'Demo agent',
    model: 'demo:default',
    systemPrompt: 'You are the Parley demo agent.',
    tools: [...TOOL_NAMES],
  });
  if (tokenFile) writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  return {
    token,
    userId: user.id,
    projectId: project.id,
    agentId: agent.id,
    agentGlobalId: encodeId('Agent', agent.id),
    created: true,
  };
}
