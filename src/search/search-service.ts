import type { User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { InvalidInputError } from '../domain/errors.ts';
import { searchThreads, type ThreadSearchRow } from '../storage/search-statements.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import { searchWords } from './search-query.ts';
import { snippetOf, type Snippet } from './snippet.ts';

export const DEFAULT_SEARCH_PAGE = 20;
export const MAX_SEARCH_PAGE = 50;

export interface ThreadSearchHit {
  threadId: string;
  /** The title has a matched word: such hits come first. */
  titleMatched: boolean;
  /** The thread's title, its matched words highlighted. */
  title: Snippet;
  /** The best-matching message of the thread's active path; null when only the title matched. */
  messageId: string | null;
  snippet: Snippet | null;
}

export interface ThreadSearchPage {
  hits: ThreadSearchHit[];
  /** The position of the page's first hit among all (0-based); the next page starts after its last. */
  offset: number;
  hasNextPage: boolean;
}

export interface ThreadSearchInput {
  query: string;
  agentId: string | null;
  offset: number;
  limit: number;
}

/**
 * searchThreads: the user's own threads whose title or active path's text has the query's words
 * (English and German stems, the last word also as a prefix), best first, a page at a time.
 */
export class SearchService {
  constructor(
    private readonly sql: SqlRunner,
    private readonly access: Pick<AccessPolicy, 'agent'>,
  ) {}

  async searchThreads(user: User, input: ThreadSearchInput): Promise<ThreadSearchPage> {
    const words = searchWords(input.query);
    if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > MAX_SEARCH_PAGE) {
      throw new InvalidInputError('first', `must be between 1 and ${MAX_SEARCH_PAGE}.`);
    }
    if (!Number.isInteger(input.offset) || input.offset < 0) throw new InvalidInputError('after', 'is not a cursor of this search.');
    // An agent the user may not read is NotFound, as an unknown one, rather than an empty page.
    if (input.agentId !== null) await this.access.agent(user, input.agentId, 'agent:read');
    const rows = await searchThreads(this.sql, {
      viewerId: user.id,
      agentId: input.agentId,
      words,
      offset: input.offset,
      limit: input.limit + 1,
    });
    return { hits: rows.slice(0, input.limit).map(hitOf), offset: input.offset, hasNextPage: rows.length > input.limit };
  }
}

function hitOf(row: ThreadSearchRow): ThreadSearchHit {
  return {
    threadId: row.threadId,
    titleMatched: row.titleMatched,
    title: snippetOf(row.title, [row.title_simple, row.title_english, row.title_german], Number.MAX_SAFE_INTEGER),
    messageId: row.messageId,
    snippet: row.messageId === null ? null : snippetOf(row.text ?? '', [row.text_simple, row.text_english, row.text_german]),
  };
}
