import type { Plugin } from 'graphql-yoga';
import type { User } from '../../generated/prisma/client.ts';

export interface UploadAuthenticationOptions {
  /** The viewer, or why their JWT was refused (told to the client). */
  identify(authorization: string | null): Promise<{ user: User | null; refusal: string | null }>;
  /** Told of each upload refused before its files were read. */
  onRefused?: () => void;
}

/**
 * Refuses a multipart request (the only way to send files) whose token is missing or wrong before
 * its body is parsed: only a signed-in user can send a message, so an anonymous upload would be
 * read, and its files buffered, only to be refused. The connection is closed, so the files still on
 * their way are not read either.
 */
export function useUploadAuthentication({ identify, onRefused }: UploadAuthenticationOptions): Plugin {
  return {
    async onRequest({ request, endResponse, fetchAPI }) {
      if (request.method !== 'POST' || !request.headers.get('content-type')?.toLowerCase().startsWith('multipart/')) return;
      const { user, refusal } = await identify(request.headers.get('authorization'));
      if (user) return;
      onRefused?.();
      endResponse(
        new fetchAPI.Response(
          JSON.stringify({
            errors: [
              {
                message: refusal ?? 'Authentication required to send files: send "Authorization: Bearer <token>".',
                extensions: { code: 'UNAUTHENTICATED' },
              },
            ],
          }),
          {
            status: 401,
            headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer', connection: 'close' },
          },
        ),
      );
    },
  };
}
