/** How long a title taken from a message may be, in characters (code points). */
export const AUTO_TITLE_CHARS = 60;

/**
 * The title an untitled thread gets from its first message: the message's first non-blank line,
 * trimmed, cut to AUTO_TITLE_CHARS (never inside a character). Empty when the text is blank.
 */
export function titleFromText(text: string): string {
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return Array.from(firstLine.trim()).slice(0, AUTO_TITLE_CHARS).join('').trimEnd();
}
