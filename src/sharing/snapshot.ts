import type { MessageRole } from '../generated/prisma/enums.ts';
import type { MessagePart, ToolServerOutput } from '../conversation/parts.ts';

/** One message of a shared snapshot: what a reader of the link sees of it, and nothing else. */
export interface SharedMessage {
  role: MessageRole;
  createdAt: string;
  parts: MessagePart[];
}

/** A stored attachment part as the share page names it: the link's own download path, not the signed-in one. */
export type SharedAttachmentPart = Extract<MessagePart, { type: 'attachment' }> & { downloadPath: string };

/**
 * The parts of a message as a snapshot keeps them. Files go unless the owner chose to include
 * them (the attachment parts, and the files a tool's result kept); summaries of compaction go
 * (they name messages of the thread, not what was said); everything else was said in the thread
 * and is kept as it was.
 */
export function snapshotParts(parts: readonly MessagePart[], includeAttachments: boolean): MessagePart[] {
  const kept: MessagePart[] = [];
  for (const part of parts) {
    if (part.type === 'compaction') continue;
    if (part.type === 'attachment' && !includeAttachments) continue;
    if (part.type === 'tool-call' && !includeAttachments && hasFiles(part.output)) {
      const { attachments: _files, ...output } = part.output;
      kept.push({ ...part, output });
      continue;
    }
    kept.push(part);
  }
  return kept;
}

/** The ids of every file a snapshot names: only these may be downloaded through its link. */
export function attachmentIdsOf(messages: readonly SharedMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'attachment') ids.add(part.attachmentId);
      if (part.type === 'tool-call' && hasFiles(part.output)) for (const file of part.output.attachments ?? []) ids.add(file.attachmentId);
    }
  }
  return ids;
}

/** The snapshot's parts with each file's download path under the link (`/share/<token>/attachments/<id>`). */
export function withSharedDownloads(parts: readonly MessagePart[], sharePath: string): MessagePart[] {
  const pathOf = (attachmentId: string) => `${sharePath}/attachments/${attachmentId}`;
  return parts.map((part) => {
    if (part.type === 'attachment') return { ...part, downloadPath: pathOf(part.attachmentId) } satisfies SharedAttachmentPart;
    if (part.type === 'tool-call' && hasFiles(part.output) && part.output.attachments) {
      const attachments = part.output.attachments.map((file) => ({ ...file, downloadPath: pathOf(file.attachmentId) }));
      return { ...part, output: { ...part.output, attachments } };
    }
    return part;
  });
}

function hasFiles(output: unknown): output is ToolServerOutput {
  return typeof output === 'object' && output !== null && 'attachments' in output;
}
