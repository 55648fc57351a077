import type { GraphiQLOptions } from 'graphql-yoga';

/**
 * The first document GraphiQL shows: who the token belongs to, their projects with the demo agent,
 * and each agent's latest threads, so the first run teaches the shape of the API.
 */
export const GRAPHIQL_DEFAULT_QUERY = `# Welcome to Parley.
#
# 1. Open "Headers" below and put your token there:
#      {"Authorization": "Bearer <token>"}
#    Every GraphiQL tab whose Headers set no Authorization sends this one too.
# 2. Run this query (Ctrl-Enter): you, your projects, their agents (the demo agent
#    among them) and each agent's latest threads.
# 3. docs/getting-started.md, "Try it in GraphiQL", goes on from here: create a thread,
#    send a message, follow its run with the runEvents subscription.

query Start {
  viewer {
    id
    email
    projects {
      id
      name
      agents {
        id
        name
        model
        threads(first: 3) {
          edges {
            node {
              id
              title
            }
          }
        }
      }
    }
  }
}
`;

/**
 * GraphiQL's subscriptions run over Server-Sent Events (Yoga's `SSE` protocol: a GET with
 * `Accept: text/event-stream`), so a subscription carries the Headers tab as ordinary HTTP headers,
 * authenticated like any query.
 */
export const graphiqlOptions: GraphiQLOptions = {
  title: 'Parley',
  subscriptionsProtocol: 'SSE',
  defaultQuery: GRAPHIQL_DEFAULT_QUERY,
};

/** The header GraphiQL adds to its requests, so that Yoga's CSRF prevention lets an anonymous one (a GET) pass. */
export const GRAPHIQL_CSRF_HEADER = 'graphql-require-preflight';

/**
 * Shares the Authorization header across GraphiQL tabs and windows (and marks every request with
 * GRAPHIQL_CSRF_HEADER): a request to the GraphQL
 * endpoint that sets none gets the last one a tab sent. GraphiQL starts each new tab with empty
 * headers, which would make every tab but the first anonymous. The header is kept in localStorage,
 * where GraphiQL keeps each tab's headers too.
 */
function sharedAuthorizationScript(options: GraphiQLOptions): string {
  return `<script>
(() => {
  const storageKey = 'parley:authorization';
  const endpoint = new URL(${JSON.stringify(options.endpoint ?? null)} ?? location.pathname, location.href);
  const originalFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== endpoint.origin || url.pathname !== endpoint.pathname) return originalFetch(input, init);
    request.headers.set(${JSON.stringify(GRAPHIQL_CSRF_HEADER)}, '1');
    if (request.headers.has('authorization')) {
      const given = request.headers.get('authorization');
      if (given) localStorage.setItem(storageKey, given);
    } else {
      const kept = localStorage.getItem(storageKey);
      if (kept) request.headers.set('authorization', kept);
    }
    return originalFetch(request);
  };
})();
</script>`;
}

/**
 * GraphiQL's page from the installed `@graphql-yoga/render-graphiql`: its CSS, bundle, Monaco
 * workers and favicon are inlined (workers as blob: URLs, the favicon as a data: URL), so the page
 * makes no request outside the server's origin and works offline. The package (~9 MB of
 * JavaScript, half a second to load) is loaded when the page is first asked for, not at start; the
 * last page built is kept.
 */
export function createGraphiQLRenderer(): (options: GraphiQLOptions) => Promise<string> {
  let built: { key: string; page: string } | null = null;
  return async (options) => {
    const key = JSON.stringify(options);
    if (built?.key !== key) {
      const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
      const html = renderGraphiQL(options);
      if (!html.includes('</head>')) throw new Error('@graphql-yoga/render-graphiql returned a page without </head>');
      built = { key, page: html.replace('</head>', () => `${sharedAuthorizationScript(options)}</head>`) };
    }
    return built.page;
  };
}
