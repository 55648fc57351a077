import type { Plugin } from 'graphql-yoga';

/**
 * What GraphiQL's page may load: only its own inlined styles and scripts, its Monaco workers
 * (blob: URLs), inlined fonts and images (data: URLs), and requests to this origin. The browser
 * then refuses any other origin, so a script on the page cannot send the token elsewhere either.
 */
export const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline' blob:",
  'worker-src blob:',
  "style-src 'unsafe-inline'",
  'font-src data:',
  'img-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Sends GRAPHIQL_CONTENT_SECURITY_POLICY with every HTML page Yoga answers that has no policy of
 * its own (GraphiQL's; the web chat's pages carry theirs).
 */
export function useGraphiQLContentSecurityPolicy(): Plugin {
  return {
    onResponse({ response }) {
      if (response.headers.get('content-type')?.startsWith('text/html') && !response.headers.has('content-security-policy')) {
        response.headers.set('content-security-policy', GRAPHIQL_CONTENT_SECURITY_POLICY);
      }
    },
  };
}
