import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

// The project settings screen's operations: its projects' roles, a project's tool servers, and
// adding, refreshing and removing one. The shipped client (@parley/client) carries no tool-server
// documents yet, and the web chat imports nothing but that client and React, so these few are
// written here as GraphQL text and read by `operation` below (a reader for exactly the subset
// they use). test/browser/web-tool-servers.test.ts checks each against graphql's own parser and
// against schema.graphql. When the client carries them, import them from `@parley/client` instead.

export type ProjectRole = 'ADMIN' | 'MEMBER' | 'VIEWER';
export type ToolServerStatus = 'CONNECTED' | 'UNAUTHORIZED' | 'UNAVAILABLE';

export interface ServerTool {
  name: string;
  description: string;
}

export interface ToolServer {
  __typename: 'ToolServer';
  id: string;
  name: string;
  url: string;
  transport: 'HTTP' | 'STDIO';
  status: ToolServerStatus;
  lastError: string | null;
  headerNames: string[];
  timeoutMs: number | null;
  operatorDeclared: boolean;
  tools: ServerTool[];
}

/** A typed error of a mutation's result union (the `Error` interface's fields). */
export interface ToolServerError {
  __typename: 'ConflictError' | 'ForbiddenError' | 'InvalidInputError' | 'NotFoundError' | 'RateLimitedError' | 'ServiceUnavailableError';
  message: string;
  code: string;
  field?: string;
}

export interface ToolServerHeader {
  name: string;
  value: string;
}

const SERVER_FIELDS = `
  __typename id name url transport status lastError headerNames timeoutMs operatorDeclared
  tools { name description }
`;
const ERROR_FIELDS = `
  ... on Error { __typename message code }
  ... on InvalidInputError { field }
`;

export const ProjectRolesDocument = operation<
  { __typename?: 'Query'; viewer: { id: string; projects: { id: string; name: string; viewerRole: ProjectRole | null }[] } },
  Record<string, never>
>(`
  query ProjectRoles { viewer { id projects { id name viewerRole } } }
`);

export const ProjectToolServersDocument = operation<
  { __typename?: 'Query'; project: { id: string; name: string; viewerRole: ProjectRole | null; toolServers: ToolServer[] } },
  { projectId: string }
>(`
  query ProjectToolServers($projectId: ID!) {
    project(id: $projectId) { id name viewerRole toolServers { ${SERVER_FIELDS} } }
  }
`);

export const AddToolServerDocument = operation<
  { __typename?: 'Mutation'; addToolServer: ToolServer | ToolServerError },
  { projectId: string; name: string; url: string; headers: ToolServerHeader[] | null; timeoutMs: number | null }
>(`
  mutation AddToolServer($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {
    addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {
      __typename
      ... on ToolServer { ${SERVER_FIELDS} }
      ${ERROR_FIELDS}
    }
  }
`);

export const RefreshToolServerDocument = operation<{ __typename?: 'Mutation'; refreshToolServer: ToolServer | ToolServerError }, { toolServerId: string }>(`
  mutation RefreshToolServer($toolServerId: ID!) {
    refreshToolServer(toolServerId: $toolServerId) {
      __typename
      ... on ToolServer { ${SERVER_FIELDS} }
      ${ERROR_FIELDS}
    }
  }
`);

export const RemoveToolServerDocument = operation<
  { __typename?: 'Mutation'; removeToolServer: { __typename: 'ToolServerRemoved'; toolServerId: string } | ToolServerError },
  { toolServerId: string }
>(`
  mutation RemoveToolServer($toolServerId: ID!) {
    removeToolServer(toolServerId: $toolServerId) {
      __typename
      ... on ToolServerRemoved { toolServerId }
      ${ERROR_FIELDS}
    }
  }
`);

/** The documents above, by name (the test checks each). */
export const TOOL_SERVER_DOCUMENTS = {
  ProjectRolesDocument,
  ProjectToolServersDocument,
  AddToolServerDocument,
  RefreshToolServerDocument,
  RemoveToolServerDocument,
};

// A reader of one operation in the subset of GraphQL above: `query|mutation Name($var: Type, …)`,
// fields with variable arguments and selection sets, and inline fragments. It builds the same
// syntax tree as graphql's `parse(text, { noLocation: true })`, which the client prints to send.

type Node = { kind: string; [key: string]: unknown };

function operation<TResult, TVariables>(text: string): TypedDocumentNode<TResult, TVariables> {
  const tokens = text.match(/\.\.\.|[{}()[\]!:$,]|[_A-Za-z][_0-9A-Za-z]*|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string): string => {
    const token = tokens[at++];
    if (token === undefined || (expected !== undefined && token !== expected)) {
      throw new Error(`GraphQL: expected ${expected ?? 'more'} but found ${token ?? 'the end'} in ${text}`);
    }
    return token;
  };
  const name = (): Node => {
    const value = take();
    if (!/^[_A-Za-z]/.test(value)) throw new Error(`GraphQL: expected a name but found ${value}`);
    return { kind: 'Name', value };
  };
  const variable = (): Node => {
    take('$');
    return { kind: 'Variable', name: name() };
  };
  const type = (): Node => {
    let inner: Node;
    if (peek() === '[') {
      take('[');
      inner = { kind: 'ListType', type: type() };
      take(']');
    } else {
      inner = { kind: 'NamedType', name: name() };
    }
    if (peek() !== '!') return inner;
    take('!');
    return { kind: 'NonNullType', type: inner };
  };
  const list = <T>(open: string, close: string, item: () => T): T[] => {
    const items: T[] = [];
    take(open);
    while (peek() !== close) {
      items.push(item());
      if (peek() === ',') take(',');
    }
    take(close);
    return items;
  };
  const selectionSet = (): Node => ({ kind: 'SelectionSet', selections: list('{', '}', selection) });
  const selection = (): Node => {
    if (peek() === '...') {
      take('...');
      take('on');
      return { kind: 'InlineFragment', typeCondition: { kind: 'NamedType', name: name() }, directives: [], selectionSet: selectionSet() };
    }
    let fieldName = name();
    let alias: Node | undefined;
    if (peek() === ':') {
      take(':');
      alias = fieldName;
      fieldName = name();
    }
    const args =
      peek() === '('
        ? list('(', ')', () => {
            const argument = name();
            take(':');
            return { kind: 'Argument', name: argument, value: variable() };
          })
        : [];
    return {
      kind: 'Field',
      ...(alias ? { alias } : {}),
      name: fieldName,
      arguments: args,
      directives: [],
      ...(peek() === '{' ? { selectionSet: selectionSet() } : {}),
    };
  };
  const kind = take();
  if (kind !== 'query' && kind !== 'mutation') throw new Error(`GraphQL: expected query or mutation but found ${kind}`);
  const operationName = name();
  const variableDefinitions =
    peek() === '('
      ? list('(', ')', () => {
          const defined = variable();
          take(':');
          return { kind: 'VariableDefinition', variable: defined, type: type(), directives: [] };
        })
      : [];
  const definition = { kind: 'OperationDefinition', operation: kind, name: operationName, variableDefinitions, directives: [], selectionSet: selectionSet() };
  if (at !== tokens.length) throw new Error(`GraphQL: unexpected ${peek()} after the operation in ${text}`);
  return { kind: 'Document', definitions: [definition] } as unknown as TypedDocumentNode<TResult, TVariables>;
}
