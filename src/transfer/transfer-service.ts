import { randomUUID } from 'node:crypto';
import type { Agent, PrismaClient, Thread, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { activePath } from '../conversation/active-path.ts';
import { downloadPathOf, OPEN_TOOL_CALL_STATES, type MessagePart } from '../conversation/parts.ts';
import type { DirectoryService } from '../directory/directory-service.ts';
import { NotFoundError } from '../domain/errors.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedMessage, type ExportedPart, type ThreadExport } from './export-format.ts';
import { parseThreadExport } from './import-parse.ts';
import { markdownOf } from './markdown-export.ts';

export type ExportFormat = 'MARKDOWN' | 'JSON';

/** A thread's export as a file: what the API and the CLI hand out. */
export interface ExportFile {
  fileName: string;
  mediaType: string;
  content: string;
}

/**
 * exportThread and importThread: a thread's active path as a versioned JSON document
 * (docs/thread-export.md) or as Markdown, and a JSON export made a new thread of its importer, as
 * finished history (no execution, no queue, nothing runs).
 */
export class TransferService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: Pick<AccessPolicy, 'agent' | 'thread'>,
    private readonly directory: Pick<DirectoryService, 'createThread'>,
  ) {}

  /** A thread the user may read; another user's private thread is NotFound, like an unknown id. */
  async exportThread(user: User, threadId: string, format: ExportFormat): Promise<ExportFile> {
    const thread = await this.access.thread(user, threadId, 'agent:read');
    return fileOf(await this.exportOf(thread, thread.agent), format);
  }

  /** The operator's export (the CLI): any thread. */
  async exportThreadAsOperator(threadId: string, format: ExportFormat): Promise<ExportFile> {
    const thread = await this.prisma.thread.findUnique({ where: { id: threadId }, include: { agent: true } });
    if (!thread) throw new NotFoundError('Thread', threadId);
    return fileOf(await this.exportOf(thread, thread.agent), format);
  }

  /**
   * A new thread of the user with the export's messages as its active path, in order. Refused
   * with an InvalidInputError (nothing made) unless `content` is a valid export of this version.
   */
  async importThread(user: User, agentId: string, content: string): Promise<Thread> {
    // The agent first: an agent the user may not use is NotFound whatever the content.
    await this.access.agent(user, agentId, 'agent:execute');
    const exported = parseThreadExport(content);
    const thread = await this.directory.createThread(user, { agentId, title: exported.thread.title });
    try {
      return await this.writeHistory(thread.id, exported.messages);
    } catch (error) {
      await this.prisma.thread.delete({ where: { id: thread.id } }).catch(() => undefined);
      throw error;
    }
  }

  private async exportOf(thread: Thread, agent: Agent): Promise<ThreadExport> {
    const path = await activePath(this.prisma, thread.id);
    const rows = await this.prisma.message.findMany({
      where: { threadId: thread.id, id: { in: path } },
      orderBy: { seq: 'asc' },
      select: { id: true, role: true, createdAt: true, parts: true, execution: { select: { status: true } } },
    });
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: new Date().toISOString(),
      thread: {
        id: thread.id,
        title: thread.title,
        createdAt: thread.createdAt.toISOString(),
        agent: { id: agent.id, name: agent.name, model: agent.model },
      },
      messages: rows.map((row) => ({
        id: row.id,
        role: row.role,
        createdAt: row.createdAt.toISOString(),
        outcome: row.execution?.status ?? null,
        parts: (row.parts as MessagePart[]).map(exportedPartOf),
      })),
    };
  }

  private async writeHistory(threadId: string, messages: readonly ExportedMessage[]): Promise<Thread> {
    const newIds = new Map(messages.map((message) => [message.id, randomUUID()]));
    const rows = messages.map((message, index) => ({
      id: newIds.get(message.id)!,
      threadId,
      role: message.role,
      parentId: index === 0 ? null : newIds.get(messages[index - 1]!.id)!,
      parts: message.parts.flatMap((part) => importedParts(part, newIds)) as object[],
      createdAt: new Date(message.createdAt),
    }));
    const leaf = rows.at(-1);
    return this.prisma.$transaction(async (tx) => {
      if (rows.length > 0) await tx.message.createMany({ data: rows });
      return tx.thread.update({
        where: { id: threadId },
        data: { activeLeafMessageId: leaf?.id ?? null, lastActivityAt: new Date() },
      });
    });
  }
}

function fileOf(exported: ThreadExport, format: ExportFormat): ExportFile {
  const base = `thread-${exported.thread.id}`;
  return format === 'JSON'
    ? { fileName: `${base}.json`, mediaType: 'application/json', content: `${JSON.stringify(exported, null, 2)}\n` }
    : { fileName: `${base}.md`, mediaType: 'text/markdown; charset=utf-8', content: markdownOf(exported) };
}

/** A stored part as the export writes it: an attachment with where the server serves it. */
function exportedPartOf(part: MessagePart): ExportedPart {
  if (part.type === 'attachment') return { ...part, downloadPath: downloadPathOf(part.attachmentId) };
  return part as ExportedPart;
}

/**
 * A part of the export as the imported thread stores it. History is finished: a call that was
 * still open is INTERRUPTED. A summary names its messages by their new ids (dropped when they
 * are not in the export). An attachment stays a link to the file where it is: the export holds
 * no file's bytes, so it is served only to whoever may read the thread it was sent in.
 */
function importedParts(part: ExportedPart, newIds: ReadonlyMap<string, string>): MessagePart[] {
  switch (part.type) {
    case 'tool-call':
      return [OPEN_TOOL_CALL_STATES.has(part.state) ? { ...part, state: 'INTERRUPTED' } : part];
    case 'compaction': {
      const firstMessageId = newIds.get(part.firstMessageId);
      const throughMessageId = newIds.get(part.throughMessageId);
      return firstMessageId && throughMessageId ? [{ ...part, firstMessageId, throughMessageId }] : [];
    }
    case 'attachment': {
      const { downloadPath: _servedAt, ...stored } = part;
      return [stored];
    }
    default:
      return [part as MessagePart];
  }
}
