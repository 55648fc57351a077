import { InvalidInputError } from '../domain/errors.ts';
import { DEFAULT_SEARCH_PAGE, type ThreadSearchHit } from '../search/search-service.ts';
import type { Snippet, SnippetPart } from '../search/snippet.ts';
import { builder } from './builder.ts';
import { decodeId, encodeId, encodeOptionalId } from './ids.ts';

// searchThreads (src/search/): a page of the viewer's own threads whose title or active path matches.

const CURSOR_PREFIX = 'search:';
const cursorOf = (position: number) => Buffer.from(`${CURSOR_PREFIX}${position}`).toString('base64url');

/** The position after which a page starts: 0 without a cursor; a cursor of anything else is refused. */
function offsetAfter(cursor: string | null | undefined): number {
  if (cursor == null) return 0;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = decoded.startsWith(CURSOR_PREFIX) ? Number(decoded.slice(CURSOR_PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(position) || position < 1 || cursor.length > 40) throw new InvalidInputError('after', 'is not a cursor of searchThreads.');
  return position;
}

const SnippetPartRef = builder.objectRef<SnippetPart>('SnippetPart').implement({
  description: 'A piece of a snippet, plain text: render each as text (never as markup), emphasised when highlighted.',
  fields: (t) => ({
    text: t.exposeString('text'),
    highlighted: t.exposeBoolean('highlighted', { description: 'A word the query matched (as written, by its English or German stem, or by prefix).' }),
  }),
});

const SnippetRef = builder.objectRef<Snippet>('SearchSnippet').implement({
  description: 'Text around what matched, as plain text and as parts that mark the matched words; "…" where it was cut.',
  fields: (t) => ({
    text: t.exposeString('text', { description: 'The parts’ texts joined.' }),
    parts: t.field({ type: [SnippetPartRef], resolve: (snippet) => snippet.parts }),
  }),
});

const HitRef = builder.objectRef<ThreadSearchHit & { cursor: string }>('ThreadSearchHit').implement({
  description: 'A thread of the viewer that matched, with its best-matching message on the active path.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` for the hits after this one.' }),
    threadId: t.id({ resolve: (hit) => encodeId('Thread', hit.threadId) }),
    thread: t.prismaField({
      type: 'Thread',
      resolve: (query, hit, _args, { loader }) => loader.thread.findUniqueOrThrow({ ...query, where: { id: hit.threadId } }),
    }),
    titleMatched: t.exposeBoolean('titleMatched', { description: 'The title has a matched word; such hits come first.' }),
    title: t.field({ type: SnippetRef, description: 'The whole title, its matched words highlighted.', resolve: (hit) => hit.title }),
    messageId: t.id({
      nullable: true,
      description: 'The best-matching message of the active path; null when only the title matched.',
      resolve: (hit) => encodeOptionalId('Message', hit.messageId),
    }),
    message: t.prismaField({
      type: 'Message',
      nullable: true,
      resolve: (query, hit, _args, { loader }) => (hit.messageId ? loader.message.findUnique({ ...query, where: { id: hit.messageId } }) : null),
    }),
    snippet: t.field({ type: SnippetRef, nullable: true, description: 'The message’s text around its first match.', resolve: (hit) => hit.snippet }),
  }),
});

const ResultsRef = builder.objectRef<{ hits: (ThreadSearchHit & { cursor: string })[]; hasNextPage: boolean }>('ThreadSearchResults').implement({
  fields: (t) => ({
    hits: t.field({ type: [HitRef], resolve: (results) => results.hits }),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.string({ nullable: true, description: 'The last hit’s cursor: `after` for the next page.', resolve: (results) => results.hits.at(-1)?.cursor ?? null }),
  }),
});

builder.queryField('searchThreads', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ResultsRef,
    description:
      'The viewer’s own threads whose title or active path’s text has every word of `query` (English and German word forms; ' +
      'the last word also as a prefix), title matches first, then by rank. Text on other branches is found once they are active again. ' +
      'A query without a word or over 200 characters, or `first` outside 1–50, is BAD_USER_INPUT.',
    args: {
      query: t.arg.string({ required: true }),
      agentId: t.arg.id({ description: 'Only this agent’s threads.' }),
      first: t.arg.int({ description: `At most 50; ${DEFAULT_SEARCH_PAGE} when not given.` }),
      after: t.arg.string(),
    },
    resolve: async (_root, args, { services, viewer }) => {
      const page = await services.search.searchThreads(viewer, {
        query: args.query,
        agentId: args.agentId == null ? null : decodeId('agentId', args.agentId, 'Agent'),
        offset: offsetAfter(args.after),
        limit: args.first ?? DEFAULT_SEARCH_PAGE,
      });
      return { hits: page.hits.map((hit, index) => ({ ...hit, cursor: cursorOf(page.offset + index + 1) })), hasNextPage: page.hasNextPage };
    },
  }),
);
