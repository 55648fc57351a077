import { graphql } from './gql/gql.ts';

// Share links (docs/sharing.md): a thread's owner makes a read-only snapshot of its active path up
// to one message, lists and revokes the links; anyone with a link reads the snapshot, signed in or not.

export const ShareThreadLinkDocument = graphql(`
  mutation ShareThreadLink($threadId: ID!, $throughMessageId: ID!, $includeAttachments: Boolean) {
    shareThread(threadId: $threadId, throughMessageId: $throughMessageId, includeAttachments: $includeAttachments) {
      __typename
      ... on ShareLink { id url createdAt throughMessageId includeAttachments }
      ...ClientErrorFields
    }
  }
`);

export const ThreadShareLinkListDocument = graphql(`
  query ThreadShareLinkList($threadId: ID!) {
    thread(id: $threadId) { id shareLinks { id createdAt throughMessageId includeAttachments } }
  }
`);

export const RevokeThreadShareLinkDocument = graphql(`
  mutation RevokeThreadShareLink($id: ID!) {
    revokeShareLink(id: $id) {
      __typename
      ... on ShareLinkRevoked { shareLinkId }
      ...ClientErrorFields
    }
  }
`);

/** The snapshot behind a link's token (the last segment of `/share/<token>`); needs no sign-in. */
export const SharedSnapshotDocument = graphql(`
  query SharedSnapshot($token: String!) {
    sharedThread(token: $token) {
      __typename
      ... on ThreadSnapshot {
        title agentName sharedAt
        messages {
          role createdAt
          # What the page shows of a part, no more: a snapshot is read whole, so each part costs as little as it can.
          parts {
            __typename
            ... on TextPart { text }
            ... on ReasoningPart { text }
            ... on SteeredInputPart { text }
            ... on AttachmentPart { attachmentId filename mediaType size downloadPath }
            ... on ToolCallPart { toolCallId toolName state }
            ... on DelegationPart { toolCallId text }
          }
        }
      }
      ... on NotFoundError { message code }
    }
  }
`);
