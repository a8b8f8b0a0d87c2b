/** Where the studio's access token lives for the tab's lifetime (never localStorage). */
const STORAGE_KEY = 'golem-studio-token';

let cached: string | undefined;

/**
 * Reads `?token=` from the address once, keeps it in sessionStorage and removes it from the
 * address bar (so it is not bookmarked, shared or sent as a referrer). Later calls return the
 * kept token; an empty string when there is none.
 */
export function studioToken(): string {
  if (cached !== undefined) return cached;
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null && fromUrl !== '') {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage may be disabled: the token then lives in memory only.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    cached = fromUrl;
    return cached;
  }
  let stored: string | null;
  try {
    stored = window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  cached = stored ?? '';
  return cached;
}
