import type { Plugin } from 'graphql-yoga';
import type { RateLimits } from '../../auth/rate-limits.ts';
import { DomainError } from '../../domain/errors.ts';
import { SHARE_PATH, type ShareService } from '../../sharing/share-service.ts';
import type { ServerContext } from '../request-context.ts';
import { downloadHeaders } from './use-attachment-download.ts';
import { WEB_APP_CONTENT_SECURITY_POLICY } from './use-web-app.ts';

const PAGE = /^\/share\/([^/]+)$/;
const FILE = /^\/share\/([^/]+)\/attachments\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export interface ShareLinksOptions {
  sharing: Pick<ShareService, 'sharedThread' | 'sharedAttachment'>;
  rateLimits: Pick<RateLimits, 'consume'>;
  /** Whether the web chat serves its page here (PARLEY_WEB); without it a link's page is not found. */
  webApp: boolean;
}

/**
 * `/share/<token>` (the web chat's page of a shared snapshot) and `/share/<token>/attachments/<id>`
 * (a file of it, when its owner included files), read without signing in. Each request counts as
 * an anonymous query of its address (the same per-minute budget); an unknown, revoked or malformed
 * token, and a file the snapshot does not name, are one bare 404. A known token's page goes on to
 * the web chat's plugin, which serves it with its Content-Security-Policy.
 */
export function useShareLinks({ sharing, rateLimits, webApp }: ShareLinksOptions): Plugin {
  return {
    async onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith(SHARE_PATH) || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      const headers = { 'content-security-policy': WEB_APP_CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
      const answer = (status: number, text: string, extra: Record<string, string> = {}) =>
        endResponse(new fetchAPI.Response(text, { status, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra } }));
      const { req } = serverContext as ServerContext;
      const address = req?.socket.remoteAddress ?? 'unknown';
      const limited = await rateLimits.consume('query', { address });
      if (limited) return answer(429, 'Too many requests.\n', { 'retry-after': String(limited.retryAfterS) });
      const notFound = () => answer(404, 'Not found.\n');
      const file = FILE.exec(url.pathname);
      if (file) {
        const found = await orNotFound(sharing.sharedAttachment(file[1]!, file[2]!.toLowerCase()));
        if (!found) return notFound();
        return endResponse(
          new fetchAPI.Response(request.method === 'HEAD' ? null : (found.data as unknown as BodyInit), {
            status: 200,
            headers: { ...downloadHeaders(found), 'referrer-policy': 'no-referrer' },
          }),
        );
      }
      const page = PAGE.exec(url.pathname);
      if (!page || !webApp || !(await orNotFound(sharing.sharedThread(page[1]!)))) return notFound();
    },
  };
}

async function orNotFound<T>(reading: Promise<T>): Promise<T | null> {
  try {
    return await reading;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}
