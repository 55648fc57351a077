import type { ExportedMessage, ExportedPart, ThreadExport } from './export-format.ts';

// A thread's export as Markdown, for people: the same content as the JSON, not meant to be imported.

/** A fence longer than any run of backticks in the text, so the text cannot end it. */
function fenced(body: string, language = ''): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${body}\n${fence}`;
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? 'null';
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
}

/** Markdown's own characters in a one-line label (a file name, a tool's name) shown as themselves. */
function literal(text: string): string {
  return text.replace(/[\\`*_[\]<>#|]/g, (char) => `\\${char}`).replace(/\s+/g, ' ');
}

function partMarkdown(part: ExportedPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return quoted(`**Reasoning**\n\n${part.text}`);
    case 'tool-call': {
      const facts = [part.state, part.durationMs == null ? null : `${part.durationMs} ms`].filter(Boolean).join(', ');
      const lines = [`**Tool call** ${literal(part.toolName)} (${facts})`, '', 'Input:', '', fenced(json(part.input), 'json')];
      if (part.output !== undefined && part.output !== null) lines.push('', 'Result:', '', fenced(json(part.output), 'json'));
      if (part.error) lines.push('', `Error: ${literal(part.error)}`);
      return lines.join('\n');
    }
    case 'delegation':
      return quoted(
        [`**Delegated** (${literal(part.toolCallId)})`, '', part.text, ...(part.error ? ['', `Error ${part.error.reason} at ${part.error.occurredAt}: ${part.error.message}`] : [])].join('\n'),
      );
    case 'error':
      return quoted(`**Error** ${part.reason} at ${part.occurredAt}: ${part.message}`);
    case 'attachment':
      return `Attachment: [${literal(part.filename)}](${encodeURI(part.downloadPath)}) (${literal(part.mediaType)}, ${part.size} bytes)`;
    case 'steered-input':
      return quoted(`**Steered in**: ${part.text}`);
    case 'compaction':
      return quoted(`**Summary of the ${part.replacedMessages} messages before this one**${part.undone ? ' (undone)' : ''}\n\n${part.summary}`);
  }
}

function messageMarkdown(message: ExportedMessage): string {
  const who = message.role === 'USER' ? 'User' : 'Assistant';
  const outcome = message.outcome && message.outcome !== 'COMPLETED' ? ` · ${message.outcome}` : '';
  const body = message.parts.map(partMarkdown).filter((text) => text.length > 0);
  return [`## ${who} · ${message.createdAt}${outcome}`, '', ...body.flatMap((text) => [text, ''])].join('\n').trimEnd();
}

export function markdownOf(exported: ThreadExport): string {
  const { thread } = exported;
  const header = [
    `# ${literal(thread.title) || 'Untitled thread'}`,
    '',
    `Exported from Parley at ${exported.exportedAt}: agent ${literal(thread.agent.name)} (${literal(thread.agent.model)}), ${exported.messages.length} messages of the active branch.`,
  ].join('\n');
  return `${[header, ...exported.messages.map(messageMarkdown)].join('\n\n')}\n`;
}
