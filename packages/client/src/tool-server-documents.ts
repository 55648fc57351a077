import { graphql } from './gql/gql.ts';

// A project's settings: its tool servers, which its admins add, refresh and remove.

export const ClientToolServerFieldsFragment = graphql(`
  fragment ClientToolServerFields on ToolServer {
    __typename id name url transport status lastError headerNames timeoutMs operatorDeclared reconnects lastReconnectAt
    tools { name description }
  }
`);

export const ProjectToolServersDocument = graphql(`
  query ProjectToolServers($projectId: ID!) {
    project(id: $projectId) { id name viewerRole toolServers { ...ClientToolServerFields } }
  }
`);

export const AddToolServerDocument = graphql(`
  mutation AddToolServer($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {
    addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {
      __typename
      ...ClientToolServerFields
      ...ClientErrorFields
    }
  }
`);

export const RefreshToolServerDocument = graphql(`
  mutation RefreshToolServer($toolServerId: ID!) {
    refreshToolServer(toolServerId: $toolServerId) {
      __typename
      ...ClientToolServerFields
      ...ClientErrorFields
    }
  }
`);

export const RemoveToolServerDocument = graphql(`
  mutation RemoveToolServer($toolServerId: ID!) {
    removeToolServer(toolServerId: $toolServerId) {
      __typename
      ... on ToolServerRemoved { toolServerId }
      ...ClientErrorFields
    }
  }
`);
