import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { GraphQLError } from 'graphql';
import { REQUEST_ID_HEADER } from '../observability/request-id.ts';

export interface RequestBodyLimits {
  maxBytes: number;
  /** A multipart request may add its attachments to maxBytes. */
  maxMultipartBytes: number;
}

/**
 * Counts a request body's bytes as they arrive, whether its length was declared or it comes
 * chunked, and answers 413 (closing the connection) as soon as it passes the limit, so an
 * oversized body is never held in memory. Returns false when the request has been answered.
 *
 * Yoga reads the body from `req.body` when that is a stream, so the counted stream is put there.
 */
export function limitRequestBody(req: IncomingMessage, res: ServerResponse, limits: RequestBodyLimits): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  const limit = String(req.headers['content-type']).startsWith('multipart/') ? limits.maxMultipartBytes : limits.maxBytes;
  const declared = req.headers['content-length'];
  if (declared !== undefined && !(Number(declared) <= limit)) {
    refuse(res, limit);
    return false;
  }
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      received += chunk.length;
      if (received <= limit) return done(null, chunk);
      req.unpipe(counted);
      refuse(res, limit);
      done(bodyTooLarge(limit));
    },
  });
  req.pipe(counted);
  (req as IncomingMessage & { body?: unknown }).body = counted;
  return true;
}

function bodyTooLarge(limit: number): GraphQLError {
  return new GraphQLError(`Request body over ${limit} bytes.`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 413 } } });
}

function refuse(res: ServerResponse, limit: number): void {
  if (res.headersSent || res.writableEnded) return;
  // The HTTP server named the request in its response header before reading the body.
  const requestId = res.getHeader(REQUEST_ID_HEADER);
  res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(
    JSON.stringify({
      errors: [{ message: bodyTooLarge(limit).message, extensions: { code: 'BAD_USER_INPUT', ...(requestId ? { requestId } : {}) } }],
    }),
  );
}
