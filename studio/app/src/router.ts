import { useEffect, useState } from 'react';

/** Where the app is: one of its pages, read from the address hash. */
export type Route =
  | { readonly page: 'runs' }
  | { readonly page: 'run'; readonly id: string }
  | { readonly page: 'compare'; readonly left: string; readonly right: string }
  | { readonly page: 'playground' }
  | { readonly page: 'evals' }
  | { readonly page: 'eval'; readonly file: string }
  | { readonly page: 'not-found'; readonly hash: string };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Parses a hash (`#/runs/abc`) into a {@link Route}; an empty hash is the runs list. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '').split('?')[0] ?? '';
  const parts = path === '' ? [] : path.split('/').map(decode);
  const [head, a, b] = parts;
  if (head === undefined || (head === 'runs' && a === undefined)) return { page: 'runs' };
  if (head === 'runs' && a !== undefined && parts.length === 2) return { page: 'run', id: a };
  if (head === 'compare' && a !== undefined && b !== undefined && parts.length === 3)
    return { page: 'compare', left: a, right: b };
  if (head === 'playground' && parts.length === 1) return { page: 'playground' };
  if (head === 'evals' && a === undefined) return { page: 'evals' };
  if (head === 'evals' && a !== undefined && parts.length === 2) return { page: 'eval', file: a };
  return { page: 'not-found', hash };
}

/** The hash of a route's page, ids encoded. */
export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

/** Goes to `hash` (a history entry, like a link). */
export function navigate(hash: string): void {
  window.location.hash = hash;
}

/** The current route; re-renders on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = (): void => {
      setRoute(parseRoute(window.location.hash));
    };
    window.addEventListener('hashchange', update);
    return () => {
      window.removeEventListener('hashchange', update);
    };
  }, []);
  return route;
}
