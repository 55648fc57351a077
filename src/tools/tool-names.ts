import type { Prisma, PrismaClient, ToolServer } from '../generated/prisma/client.ts';
import { splitToolName, type ToolInfo } from './tool-catalog.ts';

/**
 * Which declared (stdio) servers a project may use: those listing its id, its name or "*". The
 * column holds raw ids (a Relay id in the file is decoded when it is read).
 */
export function declaredFor(project: { id: string; name: string }): Prisma.ToolServerWhereInput {
  return { projectId: null, transport: 'STDIO', projects: { hasSome: ['*', project.id, project.name] } };
}

/**
 * The servers a project's agents may use, by name: its own and the operator's declared ones it is
 * allowed. A project's own server shadows a declared one of the same name in that project (adding
 * one is refused, but a server added before the file named the same one keeps working).
 */
export async function projectServers(prisma: PrismaClient, projectId: string, where: Prisma.ToolServerWhereInput = {}): Promise<ToolServer[]> {
  const project = await prisma.project.findUnique({ where: { id: projectId }, select: { id: true, name: true } });
  if (!project) return [];
  const rows = await prisma.toolServer.findMany({
    where: { AND: [where, { OR: [{ projectId }, declaredFor(project)] }] },
    orderBy: { name: 'asc' },
  });
  const own = new Set(rows.filter((row) => row.projectId !== null).map((row) => row.name));
  return rows.filter((row) => row.projectId !== null || !own.has(row.name));
}

/** Names among `names` of the form `<server>/<tool>` or `<server>/*` that the project's servers do not have (as last listed). */
export async function unknownToolNames(prisma: PrismaClient, projectId: string, names: readonly string[]): Promise<string[]> {
  const qualified = names.filter((name) => splitToolName(name));
  if (qualified.length === 0) return [];
  const servers = await projectServers(prisma, projectId);
  const byName = new Map(servers.map((server) => [server.name, (server.tools as unknown as ToolInfo[]).map((entry) => entry.name)]));
  return qualified.filter((name) => {
    const { server, tool } = splitToolName(name)!;
    const tools = byName.get(server);
    return !tools || (tool !== '*' && !tools.includes(tool));
  });
}
