import type { ModelMessage } from 'ai';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { activePath, pathTo } from '../conversation/active-path.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';

const HISTORY_MESSAGES = 100;

/**
 * What a fresh turn shows the model: the active branch up to this turn's reply (never another
 * branch's messages), earlier turns as text, the current turn's message with its attachments as
 * files. The turn's message is its reply's parent: for a regenerated reply, an earlier turn's.
 */
export async function loadHistory(prisma: PrismaClient, threadId: string, executionId: string): Promise<ModelMessage[]> {
  const reply = await prisma.message.findFirst({
    where: { threadId, executionId, role: 'ASSISTANT' },
    orderBy: { seq: 'desc' },
    select: { id: true, parentId: true },
  });
  const path = reply ? await pathTo(prisma, reply.parentId) : await activePath(prisma, threadId);
  const turnMessageId = reply?.parentId ?? null;
  const rows = await prisma.message.findMany({
    where: { id: { in: path.slice(-HISTORY_MESSAGES) } },
    orderBy: { seq: 'asc' },
    select: { id: true, role: true, parts: true },
  });
  const messages: ModelMessage[] = [];
  for (const row of rows) {
    const parts = row.parts as MessagePart[];
    const text = textOf(parts);
    if (row.role === 'ASSISTANT') {
      if (text.length > 0) messages.push({ role: 'assistant', content: text });
      continue;
    }
    // Only this turn's own message hands its files to the model, and only when it has any.
    const files =
      row.id === turnMessageId && parts.some((part) => part.type === 'attachment')
        ? await prisma.attachment.findMany({ where: { messageId: row.id }, orderBy: { createdAt: 'asc' } })
        : [];
    if (files.length === 0) {
      if (text.length > 0) messages.push({ role: 'user', content: text });
      continue;
    }
    messages.push({ role: 'user', content: [{ type: 'text', text }, ...files.map(fileOf)] });
  }
  return messages;
}

/** An attachment as the model gets it: its bytes are stored base64 (see docs/architecture.md). */
function fileOf(file: { dataBase64: string; mediaType: string; filename: string }) {
  return { type: 'file' as const, data: new Uint8Array(Buffer.from(file.dataBase64, 'base64')), mediaType: file.mediaType, filename: file.filename };
}
