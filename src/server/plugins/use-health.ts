import type { Plugin } from 'graphql-yoga';

const HEALTH_PATH = '/health';

/**
 * `/health`, the liveness probe: 200 `{"status":"alive"}` while the process serves HTTP. Yoga's own
 * health check cannot be turned off and runs ahead of every plugin given to it, answering the path
 * with an empty 200; so this plugin gives each answer on the path the JSON body that probes read.
 */
export function useHealth(): Plugin {
  return {
    onResponse({ request, setResponse, fetchAPI }) {
      if (new URL(request.url).pathname !== HEALTH_PATH) return;
      setResponse(
        new fetchAPI.Response(JSON.stringify({ status: 'alive' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      );
    },
  };
}
