import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/** Addresses a tool server may not be on unless PARLEY_TOOL_ALLOWED_HOSTS lists them. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export class RefusedUrl extends Error {}

export interface UrlGuardOptions {
  /** Host names, addresses or CIDR ranges (PARLEY_TOOL_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Largest request body sent to a tool server. */
  maxRequestBytes: number;
  /** Largest response body read from it (a stream counts as one response). */
  maxResponseBytes: number;
}

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** Unwraps `::ffff:a.b.c.d`, so a mapped loopback address is seen as loopback. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

export class UrlGuard {
  private readonly allowed = new BlockList();
  private readonly allowedNames = new Set<string>();

  constructor(private readonly options: UrlGuardOptions) {
    for (const entry of options.allowedHosts) {
      const [network, prefix] = entry.split('/');
      if (network && isIP(network)) {
        const bits = prefix === undefined ? (isIP(network) === 6 ? 128 : 32) : Number(prefix);
        this.allowed.addSubnet(network, bits, family(network));
      } else {
        this.allowedNames.add(entry.toLowerCase());
      }
    }
  }

  /** The URL's shape: http or https, a host, no credentials in it. */
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new RefusedUrl('is not a URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedUrl('must start with http:// or https://.');
    if (url.username || url.password) throw new RefusedUrl('must not carry credentials; give them as headers.');
    return url;
  }

  /** Whether `address` (of `host`) may be connected to. */
  private permits(host: string, address: string): boolean {
    const ip = plain(address);
    if (!PRIVATE.check(ip, family(ip))) return true;
    return this.allowedNames.has(host.toLowerCase()) || this.allowed.check(ip, family(ip));
  }

  /** Resolves the URL's host and refuses it when one of its addresses is private and not allowed. */
  async check(raw: string): Promise<URL> {
    const url = this.parse(raw);
    await this.resolve(hostOf(url));
    return url;
  }

  private async resolve(host: string): Promise<{ address: string; family: number }> {
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await dnsLookup(host, { all: true }).catch(() => []);
    if (addresses.length === 0) throw new RefusedUrl(`its host ${host} does not resolve.`);
    const refused = addresses.find((entry) => !this.permits(host, entry.address));
    if (refused) {
      throw new RefusedUrl(
        `its host ${host} is a loopback, private, link-local or unique-local address (${refused.address}); ` +
          'an operator may allow it in PARLEY_TOOL_ALLOWED_HOSTS.',
      );
    }
    return addresses[0]!;
  }

  /**
   * A fetch for one tool server: every connection goes to an address this guard checked in the same
   * lookup (no second resolution to rebind), redirects are answered as errors, and bodies are capped.
   */
  fetch(): typeof fetch {
    const lookup: LookupFunction = (hostname, _options, callback) => {
      this.resolve(hostname).then(
        (entry) => callback(null, entry.address, entry.family),
        (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
      );
    };
    const dispatcher = new Agent({ connect: { lookup } });
    const { maxRequestBytes, maxResponseBytes } = this.options;
    const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const body = init?.body;
      if (typeof body === 'string' && Buffer.byteLength(body) > maxRequestBytes) {
        throw new RefusedUrl(`the request is larger than ${maxRequestBytes} bytes.`);
      }
      const url = this.parse(typeof input === 'string' || input instanceof URL ? String(input) : input.url);
      // A literal address is connected to without a lookup, so it is checked here.
      if (isIP(hostOf(url))) await this.resolve(hostOf(url));
      const response = (await undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        redirect: 'manual',
        dispatcher,
      })) as unknown as Response;
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => {});
        throw new RefusedUrl(`the server answered with a redirect (HTTP ${response.status}), which is not followed.`);
      }
      return capped(response, maxResponseBytes);
    };
    return guarded as typeof fetch;
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function capped(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(new RefusedUrl(`the response is larger than ${maxBytes} bytes.`));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
