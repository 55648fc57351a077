import { InvalidInputError } from '../domain/errors.ts';

/** Longer queries are refused rather than cut: a search box never sends one. */
export const MAX_QUERY_CHARS = 200;
export const MAX_QUERY_WORDS = 12;
/** A word longer than PostgreSQL indexes (2,047 bytes) could never match; this is well below it. */
const MAX_WORD_CHARS = 100;

/**
 * The words of a search box's text: runs of letters, marks and digits (anything else separates
 * words), lower-cased. Refuses a query without a word, or longer than a search box would send.
 */
export function searchWords(query: string): string[] {
  if (query.length > MAX_QUERY_CHARS) throw new InvalidInputError('query', `must be at most ${MAX_QUERY_CHARS} characters.`);
  const words = query.normalize('NFC').toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  if (words.length === 0) throw new InvalidInputError('query', 'must contain a word (letters or digits).');
  if (words.length > MAX_QUERY_WORDS) throw new InvalidInputError('query', `must have at most ${MAX_QUERY_WORDS} words.`);
  if (words.some((word) => word.length > MAX_WORD_CHARS)) throw new InvalidInputError('query', `words must be at most ${MAX_WORD_CHARS} characters.`);
  return words;
}
