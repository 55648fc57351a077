import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../../domain/errors.ts';
import type { User } from '../../generated/prisma/client.ts';

export const ATTACHMENT_PATH = '/attachments/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AttachmentDownloadOptions {
  /** The viewer, or why their JWT was refused (told to the client). */
  identify(authorization: string | null): Promise<{ user: User | null; refusal: string | null }>;
  load(user: User, attachmentId: string): Promise<{ filename: string; mediaType: string; data: Uint8Array }>;
}

/** A stored file's headers as a download: downloaded, never rendered nor sniffed, never kept by a cache. */
export function downloadHeaders(file: { filename: string; mediaType: string; data: Uint8Array }): Record<string, string> {
  return {
    // Text types are stored only as UTF-8.
    'content-type': file.mediaType.startsWith('text/') ? `${file.mediaType}; charset=utf-8` : file.mediaType,
    'content-length': String(file.data.byteLength),
    'content-disposition': contentDisposition(file.filename),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
  };
}

/** `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266): every browser downloads, none renders. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `GET /attachments/<id>` with `Authorization: Bearer <token>`: the file, always as a download that
 * no browser renders or sniffs (Content-Disposition: attachment, nosniff, a sandboxing CSP).
 * Without a valid token 401; a file the viewer may not see and a file that does not exist are the
 * same 404.
 */
export function useAttachmentDownload({ identify, load }: AttachmentDownloadOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith(ATTACHMENT_PATH)) return;
      const json = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
        endResponse(
          new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
            status,
            headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', ...headers },
          }),
        );
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return json(405, 'BAD_REQUEST', 'Attachments are read with GET.', { allow: 'GET, HEAD' });
      }
      const { user: viewer, refusal } = await identify(request.headers.get('authorization'));
      if (!viewer) {
        return json(401, 'UNAUTHENTICATED', refusal ?? 'Authentication required: send "Authorization: Bearer <token>".', {
          'www-authenticate': 'Bearer',
        });
      }
      const id = decodeURIComponent(url.pathname.slice(ATTACHMENT_PATH.length));
      const notFound = () => json(404, 'NOT_FOUND', 'Attachment was not found.');
      if (!UUID.test(id)) return notFound();
      let file;
      try {
        file = await load(viewer, id.toLowerCase());
      } catch (error) {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') return notFound();
        throw error;
      }
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : (file.data as unknown as BodyInit), {
          status: 200,
          headers: downloadHeaders(file),
        }),
      );
    },
  };
}
