import type { ModelMessage } from 'ai';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';

const HISTORY_MESSAGES = 100;

/** What a fresh turn shows the model: earlier turns as text, the current turn's message with its attachments as files. */
export async function loadHistory(prisma: PrismaClient, threadId: string, executionId: string): Promise<ModelMessage[]> {
  const rows = await prisma.message.findMany({
    where: { threadId, NOT: { executionId, role: 'ASSISTANT' } },
    orderBy: { seq: 'desc' },
    take: HISTORY_MESSAGES,
    select: { id: true, role: true, parts: true, executionId: true },
  });
  const messages: ModelMessage[] = [];
  for (const row of rows.reverse()) {
    const parts = row.parts as MessagePart[];
    const text = textOf(parts);
    if (row.role === 'ASSISTANT') {
      if (text.length > 0) messages.push({ role: 'assistant', content: text });
      continue;
    }
    // Only this turn's own message hands its files to the model, and only when it has any.
    const files =
      row.executionId === executionId && parts.some((part) => part.type === 'attachment')
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
