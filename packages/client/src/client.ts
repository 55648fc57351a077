import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { threadActions, type ThreadActions } from './actions.ts';
import { watchQuery, type QueryStore } from './query.ts';
import { openSession } from './session.ts';
import type { ThreadState } from './thread-state.ts';
import { createRequest, type ActionResult, type TransportOptions, type UploadedFile } from './transport.ts';

export type ParleyClientOptions = TransportOptions;

export interface ParleyClient {
  /**
   * One GraphQL request over HTTP; a failure comes back as a RequestError. With `files`, it is a
   * GraphQL multipart request: each file is sent as a part and mapped onto the variable path.
   */
  request<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    files?: readonly UploadedFile[],
  ): Promise<ActionResult<TResult>>;
  /** A plain read, retried by the session's rules until it is answered; close it when done. */
  query<TResult, TVariables>(document: TypedDocumentNode<TResult, TVariables>, variables: TVariables): QueryStore<TResult>;
  /** A new session following the thread; close it when done. */
  thread(threadId: string): ThreadSession;
}

export interface ThreadSession extends ThreadActions {
  readonly threadId: string;
  getSnapshot(): ThreadState;
  subscribe(listener: () => void): () => void;
  /**
   * Resolves once the conversation has been read and the subscription is live; rejects when the
   * session cannot follow the thread (e.g. an invalid token or an unknown thread).
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const request = createRequest(options);
  return {
    request,
    query: (document, variables) => watchQuery(request, document, variables, options),
    thread(threadId) {
      const session = openSession(threadId, options, request);
      const { threadId: id, getSnapshot, subscribe, ready, close } = session;
      return { threadId: id, getSnapshot, subscribe, ready, close, ...threadActions(session, request) };
    },
  };
}
