import { Prisma } from '../generated/prisma/client.ts';
import type { SqlRunner } from './sql-client.ts';

/**
 * The configurations the `searchVector` columns hold (prisma/migrations/0016_thread_search): each
 * word as written, and its English and German stems.
 */
const CONFIGURATIONS = ['simple', 'english', 'german'] as const;

/** What a headline marks a matched word with: private-use characters, taken out of the text first. */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, HighlightAll=true`;

/**
 * The query as one tsquery: every word (AND), each in any configuration (OR); the last one, which
 * may still be being typed, also as a prefix of a word as written. The words are letters and
 * digits only (src/search/search-query.ts), so `to_tsquery` never meets its own syntax in them.
 */
function tsQueryOf(words: readonly string[]): Prisma.Sql {
  return Prisma.join(
    words.map((word, index) => {
      const alternatives = CONFIGURATIONS.map((configuration) => Prisma.sql`to_tsquery(${configuration}::regconfig, ${word})`);
      if (index === words.length - 1) alternatives.push(Prisma.sql`to_tsquery('simple'::regconfig, ${`${word}:*`})`);
      return Prisma.sql`(${Prisma.join(alternatives, ' || ')})`;
    }),
    ' && ',
  );
}

/**
 * A message's text parts as one text, as the index joins and cuts them (at 100,000 characters, past
 * which nothing is indexed), without the headline's markers.
 */
const MESSAGE_TEXT = Prisma.sql`(SELECT translate(left(coalesce(string_agg(part->>'text', ' ' ORDER BY position), ''), 100000), ${MATCH_START + MATCH_END}, '  ')
  FROM jsonb_array_elements(m."parts") WITH ORDINALITY AS text_part(part, position) WHERE part->>'type' = 'text')`;

function headlines(document: Prisma.Sql, query: Prisma.Sql, alias: string): Prisma.Sql {
  return Prisma.join(
    CONFIGURATIONS.map(
      (configuration) =>
        Prisma.sql`ts_headline(${configuration}::regconfig, ${document}, ${query}, ${HEADLINE_OPTIONS}) AS ${Prisma.raw(`"${alias}_${configuration}"`)}`,
    ),
  );
}

export interface ThreadSearchRow {
  threadId: string;
  titleMatched: boolean;
  messageId: string | null;
  title: string;
  /** The title and the message's text, with the matched words marked by each configuration. */
  title_simple: string;
  title_english: string;
  title_german: string;
  text: string | null;
  text_simple: string | null;
  text_english: string | null;
  text_german: string | null;
}

export interface ThreadSearchRequest {
  viewerId: string;
  agentId: string | null;
  words: readonly string[];
  offset: number;
  limit: number;
}

/**
 * One statement: a page of the user's own threads (of projects they are still a member of) whose
 * title or active path's text matches, each with its best message and the headlines of both. Title
 * matches first, then by rank (title's plus best message's), then the newest activity. A message
 * counts only on its thread's active path, walked up from the leaf of each thread with a match.
 */
export async function searchThreads(db: SqlRunner, page: ThreadSearchRequest): Promise<ThreadSearchRow[]> {
  const query = tsQueryOf(page.words);
  const agentFilter = page.agentId === null ? Prisma.empty : Prisma.sql`AND t."agentId" = ${page.agentId}`;
  return db.query<ThreadSearchRow>(Prisma.sql`
    WITH RECURSIVE owned AS (
      SELECT t."id", t."activeLeafMessageId" AS "leaf", t."lastActivityAt",
             t."searchVector" @@ (${query}) AS "titleMatched", ts_rank(t."searchVector", ${query}) AS "titleRank"
      FROM "thread" t
      JOIN "agent" a ON a."id" = t."agentId"
      JOIN "membership" mb ON mb."projectId" = a."projectId" AND mb."userId" = ${page.viewerId}
      WHERE t."ownerId" = ${page.viewerId} ${agentFilter}
    ), matched AS (
      SELECT m."id", m."threadId", m."seq", ts_rank(m."searchVector", ${query}) AS "rank"
      FROM "message" m JOIN owned ON owned."id" = m."threadId"
      WHERE m."searchVector" @@ (${query})
    ), path AS (
      SELECT m."id", m."parentId" FROM "message" m JOIN owned ON owned."leaf" = m."id"
      WHERE owned."id" IN (SELECT "threadId" FROM matched)
      UNION ALL
      SELECT parent."id", parent."parentId" FROM "message" parent JOIN path ON parent."id" = path."parentId"
    ), best AS (
      SELECT DISTINCT ON (matched."threadId") matched."threadId", matched."id", matched."rank"
      FROM matched JOIN path ON path."id" = matched."id"
      ORDER BY matched."threadId", matched."rank" DESC, matched."seq" DESC
    ), hits AS (
      SELECT owned."id" AS "threadId", owned."titleMatched", best."id" AS "messageId",
             row_number() OVER (ORDER BY owned."titleMatched" DESC, owned."titleRank" + coalesce(best."rank", 0) DESC,
                                owned."lastActivityAt" DESC, owned."id") AS "position"
      FROM owned LEFT JOIN best ON best."threadId" = owned."id"
      WHERE owned."titleMatched" OR best."id" IS NOT NULL
    ), page AS (
      SELECT * FROM hits WHERE "position" > ${page.offset} AND "position" <= ${page.offset + page.limit}
    )
    SELECT page."threadId", page."titleMatched", page."messageId", t."title",
           ${headlines(Prisma.sql`translate(t."title", ${MATCH_START + MATCH_END}, '  ')`, query, 'title')},
           ${MESSAGE_TEXT} AS "text", ${headlines(MESSAGE_TEXT, query, 'text')}
    FROM page
    JOIN "thread" t ON t."id" = page."threadId"
    LEFT JOIN "message" m ON m."id" = page."messageId"
    ORDER BY page."position"`);
}
