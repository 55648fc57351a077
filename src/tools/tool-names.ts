import type { PrismaClient } from '../generated/prisma/client.ts';
import { splitToolName, type ToolInfo } from './tool-catalog.ts';

/** Names among `names` of the form `<server>/<tool>` or `<server>/*` that the project's servers do not have (as last listed). */
export async function unknownToolNames(prisma: PrismaClient, projectId: string, names: readonly string[]): Promise<string[]> {
  const qualified = names.filter((name) => splitToolName(name));
  if (qualified.length === 0) return [];
  const servers = await prisma.toolServer.findMany({ where: { projectId }, select: { name: true, tools: true } });
  const byName = new Map(servers.map((server) => [server.name, (server.tools as unknown as ToolInfo[]).map((entry) => entry.name)]));
  return qualified.filter((name) => {
    const { server, tool } = splitToolName(name)!;
    const tools = byName.get(server);
    return !tools || (tool !== '*' && !tools.includes(tool));
  });
}
