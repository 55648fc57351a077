import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'graphql-yoga';

/** Where `npm run build:web` puts the reference web chat (web/). */
export const WEB_APP_DIRECTORY = path.resolve(import.meta.dirname, '../../../web/dist');

/**
 * What the web chat's pages may load: their own scripts, styles and images from this origin, and
 * requests (fetch and the WebSocket) to this origin. Nothing inline, nothing from elsewhere, so a
 * script injected into the page could neither run nor send the token anywhere. With a token URL
 * (PARLEY_WEB_TOKEN_URL), requests may also go to that URL's origin, and only there.
 */
export function webAppContentSecurityPolicy(tokenUrl?: string): string {
  const connect = tokenUrl ? `connect-src 'self' ${new URL(tokenUrl).origin}` : "connect-src 'self'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    connect,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const WEB_APP_CONTENT_SECURITY_POLICY = webAppContentSecurityPolicy();

/** The meta tag that tells the page where to get a fresh JWT (web/src/token.ts reads it): data, not script. */
export const TOKEN_URL_META = 'parley-token-url';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function withTokenUrl(html: Buffer, tokenUrl: string): string {
  const meta = `<meta name="${TOKEN_URL_META}" content="${escapeAttribute(tokenUrl)}" />`;
  return html.toString('utf8').replace('</head>', `${meta}\n</head>`);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A built asset: Vite's hashed file names (`index-<hash>.js`), no path separators, one dot. */
const SHARE_PAGE_PATH = /^\/share\/[\w-]+$/;

const ASSET_PATH = /^\/assets\/[\w-]+\.(?:js|css|svg|png)$/;

export function webAppBuilt(directory = WEB_APP_DIRECTORY): boolean {
  return existsSync(path.join(directory, 'index.html'));
}

/** The file a GET on `pathname` is answered with, relative to the build; null for any other path. */
function fileFor(pathname: string): string | null {
  // A share link's page is the chat's own (use-share-links.ts lets only known tokens through).
  if (pathname === '/' || pathname === '/index.html' || SHARE_PAGE_PATH.test(pathname)) return 'index.html';
  return ASSET_PATH.test(pathname) ? pathname.slice(1) : null;
}

/**
 * Serves the built web chat at `/` (index.html) and `/assets/…` (hashed, cached for good), every
 * answer with webAppContentSecurityPolicy(tokenUrl). The files are read from disk per request, so a
 * rebuild shows at the next load. Without a build, `/` says how to make one. A token URL is named
 * to the page in a meta tag of index.html.
 */
export function useWebApp({ directory = WEB_APP_DIRECTORY, tokenUrl }: { directory?: string; tokenUrl?: string | undefined } = {}): Plugin {
  const policy = webAppContentSecurityPolicy(tokenUrl);
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const file = fileFor(url.pathname);
      if (!file) return;
      const headers = {
        'content-security-policy': policy,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      };
      const read = await readFile(path.join(directory, file)).catch(() => null);
      const body = read && tokenUrl && file === 'index.html' ? withTokenUrl(read, tokenUrl) : read;
      if (!body) {
        if (file !== 'index.html') return endResponse(new fetchAPI.Response('Not found', { status: 404, headers }));
        return endResponse(
          new fetchAPI.Response('The web app is not built: run `npm run build:web`, then reload.\n', {
            status: 503,
            headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
          }),
        );
      }
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : body, {
          status: 200,
          headers: {
            ...headers,
            'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
            // Asset names change with their content; the page itself is checked on every load.
            'cache-control': file === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable',
          },
        }),
      );
    },
  };
}
