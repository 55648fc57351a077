import { MATCH_END, MATCH_START } from '../storage/search-statements.ts';

/** A piece of a snippet: plain text, marked when it is a matched word. Never markup. */
export interface SnippetPart {
  text: string;
  highlighted: boolean;
}

export interface Snippet {
  /** The parts' texts joined: what the snippet says, with "…" where it was cut. */
  text: string;
  parts: SnippetPart[];
}

interface Range {
  start: number;
  end: number;
}

const CONTEXT_BEFORE = 60;
const SNIPPET_CHARS = 220;

/**
 * The ranges a headline marks, as offsets into the text without its markers; none when the
 * headline is not the text with markers in it (it then says nothing reliable).
 */
export function markedRanges(text: string, headline: string | null): Range[] {
  if (headline === null) return [];
  const ranges: Range[] = [];
  let plain = '';
  let start: number | null = null;
  for (const char of headline) {
    if (char === MATCH_START) start = plain.length;
    else if (char === MATCH_END && start !== null) {
      ranges.push({ start, end: plain.length });
      start = null;
    } else plain += char;
  }
  return plain === text ? ranges : [];
}

/** Overlapping or touching ranges as one, in order. */
function union(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** A cut that does not split a word (or a surrogate pair): moved back to the whitespace before it. */
function wordStart(text: string, at: number): number {
  if (at <= 0) return 0;
  const space = text.lastIndexOf(' ', at);
  return space > at - 30 && space >= 0 ? space + 1 : whole(text, at);
}

function wordEnd(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const space = text.indexOf(' ', at);
  return space >= 0 && space < at + 30 ? space : whole(text, at);
}

/** Never between the two halves of a surrogate pair. */
function whole(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * The text around its first matched word, at most about SNIPPET_CHARS long, split into parts: the
 * words any configuration's headline marked are highlighted. Line breaks become spaces.
 */
export function snippetOf(rawText: string, headlines: readonly (string | null)[], maxChars = SNIPPET_CHARS): Snippet {
  const ranges = union(headlines.flatMap((headline) => markedRanges(rawText, headline)));
  const text = rawText.replace(/\s/g, ' ');
  const from = text.length <= maxChars ? 0 : wordStart(text, Math.max(0, (ranges[0]?.start ?? 0) - CONTEXT_BEFORE));
  const to = text.length - from <= maxChars ? text.length : wordEnd(text, from + maxChars);
  const parts: SnippetPart[] = [];
  const plain = (value: string) => value && parts.push({ text: value, highlighted: false });
  if (from > 0) plain('…');
  let at = from;
  for (const range of ranges) {
    if (range.end <= from || range.start >= to) continue;
    const start = Math.max(range.start, from);
    const end = Math.min(range.end, to);
    plain(text.slice(at, start));
    parts.push({ text: text.slice(start, end), highlighted: true });
    at = end;
  }
  plain(text.slice(at, to));
  if (to < text.length) plain('…');
  return { text: parts.map((part) => part.text).join(''), parts };
}
