import { graphql } from './gql/gql.ts';

// Thread search as a search box shows it: a page of the viewer's threads, each with its best
// message and snippets as plain parts (render each part as text, emphasised when highlighted).

export const ThreadSearchDocument = graphql(`
  query ThreadSearch($query: String!, $agentId: ID, $first: Int, $after: String) {
    searchThreads(query: $query, agentId: $agentId, first: $first, after: $after) {
      hasNextPage endCursor
      hits {
        cursor threadId messageId titleMatched
        title { text parts { text highlighted } }
        snippet { text parts { text highlighted } }
      }
    }
  }
`);
