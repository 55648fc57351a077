import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A tool's result as Parley keeps it: text, bounded. A file in it (an image, audio, a binary
 * resource) reads as its note from `fileNotes` (by content index: kept as which attachment, or why
 * not).
 */
export function boundedOutput(result: CallToolResult, maxBytes: number, fileNotes: ReadonlyMap<number, string> = new Map()): { text: string; truncated: boolean } {
  const pieces: string[] = [];
  for (const [index, item] of (result.content ?? []).entries()) {
    switch (item.type) {
      case 'text':
        pieces.push(item.text);
        break;
      case 'image':
      case 'audio':
        pieces.push(fileNotes.get(index) ?? `[${item.type} ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes, not kept]`);
        break;
      case 'resource':
        pieces.push('text' in item.resource ? String(item.resource.text) : (fileNotes.get(index) ?? `[resource ${item.resource.uri}, not kept]`));
        break;
      case 'resource_link':
        pieces.push(`[resource ${item.uri}]`);
        break;
      default:
        break;
    }
  }
  if (pieces.length === 0 && result.structuredContent !== undefined) pieces.push(JSON.stringify(result.structuredContent));
  return cut(pieces.join('\n'), maxBytes);
}

export function cut(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { text, truncated: false };
  // Cut on a character boundary: decoding a prefix may end in half a character, dropped here.
  const kept = Buffer.from(text).subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
  return { text: `${kept}\n[output cut: ${bytes} bytes, the first ${maxBytes} kept]`, truncated: true };
}
