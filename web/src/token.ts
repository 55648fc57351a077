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
