import type { Plugin } from 'graphql-yoga';

export interface BodyLimitOptions {
  maxBytes: number;
  /** A multipart request may add its attachments to maxBytes. */
  maxMultipartBytes: number;
}

/** Answers 413 to a request whose declared body is over the limit, before anything reads the body. */
export function useBodyLimit({ maxBytes, maxMultipartBytes }: BodyLimitOptions): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const length = Number(request.headers.get('content-length') ?? 0);
      const limit = String(request.headers.get('content-type')).startsWith('multipart/') ? maxMultipartBytes : maxBytes;
      if (length <= limit) return;
      endResponse(
        new fetchAPI.Response(
          JSON.stringify({
            errors: [{ message: `Request body over ${limit} bytes.`, extensions: { code: 'BAD_USER_INPUT' } }],
          }),
          { status: 413, headers: { 'content-type': 'application/json' } },
        ),
      );
    },
  };
}
