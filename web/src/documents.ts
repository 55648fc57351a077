import { graphql } from './gql/gql.ts';

// What the chat needs beyond a thread session: who is signed in, their agents and threads, and a
// new thread. `npm run codegen` types these into ./gql.

export const ChatViewerDocument = graphql(`
  query ChatViewer {
    viewer {
      id email locale
      projects {
        id name
        agents {
          id name model
          threads(last: 30) { edges { node { id title createdAt } } }
        }
      }
    }
  }
`);

export const StartThreadDocument = graphql(`
  mutation StartThread($agentId: ID!, $title: String) {
    createThread(agentId: $agentId, title: $title) {
      __typename
      ... on Thread { id title createdAt }
      ... on Error { message code }
    }
  }
`);
