import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../../domain/errors.ts';
import type { User } from '../../generated/prisma/client.ts';
import { decodeId } from '../../schema/ids.ts';
import type { ExportFile, ExportFormat } from '../../transfer/transfer-service.ts';
import { contentDisposition } from './use-attachment-download.ts';

const EXPORT_PATH = /^\/threads\/([^/]+)\/export$/;
const FORMATS: Record<string, ExportFormat> = { json: 'JSON', markdown: 'MARKDOWN' };

export interface ThreadExportDownloadOptions {
  /** The viewer, or why their JWT was refused (told to the client). */
  identify(authorization: string | null): Promise<{ user: User | null; refusal: string | null }>;
  exportThread(user: User, threadId: string, format: ExportFormat): Promise<ExportFile>;
}

/**
 * `GET /threads/<id>/export?format=json|markdown` with `Authorization: Bearer <token>`: exportThread
 * as a file download (Content-Disposition: attachment). Without a valid token 401; a thread the
 * viewer may not read, an unknown one and a malformed id are the same 404; another format 400.
 */
export function useThreadExportDownload({ identify, exportThread }: ThreadExportDownloadOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const match = EXPORT_PATH.exec(url.pathname);
      if (!match) return;
      const json = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
        endResponse(
          new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
            status,
            headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', ...headers },
          }),
        );
      if (request.method !== 'GET') return json(405, 'BAD_REQUEST', 'An export is read with GET.', { allow: 'GET' });
      const { user: viewer, refusal } = await identify(request.headers.get('authorization'));
      if (!viewer) {
        return json(401, 'UNAUTHENTICATED', refusal ?? 'Authentication required: send "Authorization: Bearer <token>".', {
          'www-authenticate': 'Bearer',
        });
      }
      const format = FORMATS[(url.searchParams.get('format') ?? '').toLowerCase()];
      if (!format) return json(400, 'BAD_USER_INPUT', 'format: must be json or markdown.');
      const notFound = () => json(404, 'NOT_FOUND', 'Thread was not found.');
      let file: ExportFile;
      try {
        file = await exportThread(viewer, decodeId('threadId', decodeURIComponent(match[1]!), 'Thread'), format);
      } catch (error) {
        if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'BAD_USER_INPUT')) return notFound();
        throw error;
      }
      endResponse(
        new fetchAPI.Response(file.content, {
          status: 200,
          headers: {
            'content-type': file.mediaType.includes('charset') ? file.mediaType : `${file.mediaType}; charset=utf-8`,
            'content-disposition': contentDisposition(file.fileName),
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
            'cache-control': 'private, no-store',
          },
        }),
      );
    },
  };
}
