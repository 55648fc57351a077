import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

interface Variants {
  page: string;
  etag: string;
  br: Uint8Array;
  gzip: Uint8Array;
}

async function compress(page: string): Promise<Variants> {
  const bytes = Buffer.from(page, 'utf8');
  const [br, gzip] = await Promise.all([
    brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gzipped(bytes, { level: 6 }),
  ]);
  return { page, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`, br, gzip };
}

/** The encoding to send: brotli, else gzip, else none, as the client's Accept-Encoding allows. */
export function chooseEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((entry) => entry.trim().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

/**
 * GraphiQL's page is about 9 MB: it is compressed once (brotli and gzip, off the event loop) and
 * sent with an ETag, so a browser revalidates it with a 304 instead of fetching it again, and a
 * request costs the server no more than sending the compressed bytes. The page also gets nosniff and
 * a Referrer-Policy that sends no URL elsewhere.
 */
export function useGraphiQLDelivery(graphqlEndpoint: string): Plugin {
  // The renderer builds a new page only when its options change: one page is kept, with its variants.
  let kept: { page: string; variants: Promise<Variants> } | null = null;
  const variantsOf = (page: string): Promise<Variants> => {
    if (kept?.page !== page) kept = { page, variants: compress(page) };
    return kept.variants;
  };
  return {
    async onResponse({ request, response, setResponse, fetchAPI }) {
      if (request.method !== 'GET' || !response.headers.get('content-type')?.startsWith('text/html')) return;
      if (new URL(request.url).pathname.replace(/\/$/, '') !== graphqlEndpoint) return;
      const built = await variantsOf(await response.text());
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-type', 'text/html; charset=utf-8');
      headers.set('etag', built.etag);
      headers.set('cache-control', 'no-cache');
      headers.set('vary', 'Accept-Encoding');
      headers.set('x-content-type-options', 'nosniff');
      headers.set('referrer-policy', 'no-referrer');
      if (request.headers.get('if-none-match')?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === built.etag)) {
        headers.delete('content-length');
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      const body = encoding ? built[encoding] : built.page;
      if (encoding) headers.set('content-encoding', encoding);
      headers.delete('content-length');
      setResponse(new fetchAPI.Response(body as BodyInit, { status: 200, headers }));
    },
  };
}
