// The API token lives in this tab's sessionStorage only. A sign-in link (`/#token=…`, as the
// start banner prints it) fills it once and is removed from the address bar and the history.

const TOKEN_KEY = 'parley:token';

export function takeTokenFromLink(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token');
  if (!token) return;
  sessionStorage.setItem(TOKEN_KEY, token);
  params.delete('token');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
}

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const storeToken = (token: string) => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

/** The open thread is kept in the address (`#thread=…`), so a reload and a copied link show it. */
export function threadInLocation(): string | null {
  return new URLSearchParams(location.hash.slice(1)).get('thread');
}

export function showThreadInLocation(threadId: string | null): void {
  history.replaceState(null, '', threadId ? `#thread=${encodeURIComponent(threadId)}` : location.pathname);
}

/**
 * Where the product answers a fresh JWT for this browser's session (PARLEY_WEB_TOKEN_URL, named by
 * the server in a meta tag of the page); null when the product has none.
 */
export function tokenUrl(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="parley-token-url"]')?.content || null;
}

/** A JWT's `iat` and `exp` in ms, read without verifying (the server does); null for an API token. */
function lifetimeOf(token: string): { issuedAt: number | null; expiresAt: number } | null {
  try {
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: unknown; exp?: unknown };
    if (typeof claims.exp !== 'number') return null;
    return { issuedAt: typeof claims.iat === 'number' ? claims.iat * 1000 : null, expiresAt: claims.exp * 1000 };
  } catch {
    return null;
  }
}

/**
 * The client's token function with a token URL: the stored token, except that a JWT in the last
 * fifth of its life (or expired) is first replaced by a fresh one from the URL, fetched with this
 * browser's cookies (the product's session). One fetch at a time; when it fails the old token stays
 * (the server then says whether it is still good). A JWT without `iat` counts its life from when
 * this page first saw it.
 */
export function refreshingToken(url: string, signedInWith: string): () => Promise<string> {
  const firstSeen = new Map<string, number>();
  let inFlight: Promise<string> | null = null;

  const fetchFresh = async (current: string): Promise<string> => {
    try {
      const response = await fetch(url, { credentials: 'include', headers: { accept: 'application/json' } });
      if (!response.ok) return current;
      const { token } = (await response.json()) as { token?: unknown };
      if (typeof token !== 'string' || !token) return current;
      // Signed out meanwhile: the fresh token must not sign this tab back in.
      if (storedToken() === null) return current;
      storeToken(token);
      return token;
    } catch {
      return current;
    }
  };

  return async () => {
    const current = storedToken() ?? signedInWith;
    const lifetime = lifetimeOf(current);
    if (!lifetime) return current;
    if (!firstSeen.has(current)) firstSeen.set(current, Date.now());
    const issuedAt = lifetime.issuedAt ?? firstSeen.get(current)!;
    const left = lifetime.expiresAt - Date.now();
    if (left > (lifetime.expiresAt - issuedAt) / 5) return current;
    inFlight ??= fetchFresh(current).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
