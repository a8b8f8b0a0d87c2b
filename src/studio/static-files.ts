import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The policy of the studio's pages: its own scripts, styles and API only, never framed (the
 * approve buttons must not be clickjacked), no plugins, no base or form elsewhere.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The page `/` answers when the app folder has no index.html. */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Golem Studio</title></head>
<body><h1>Golem Studio</h1><p>The studio app is not built: run <code>npm run build:studio</code>.</p></body></html>
`;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: Buffer | string,
  type: string,
  cache: string,
  head: boolean,
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    ...(type.startsWith('text/html') && {
      'content-security-policy': PAGE_POLICY,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    }),
  });
  res.end(head ? undefined : body);
}

/**
 * Serves the built app from `root`: a file under it by its path (hashed `/assets/*` cached for a
 * year, everything else `no-store`), any other path the SPA's index.html (or, when the app is not
 * built, a page saying how to build it). Paths leaving `root` are refused (404).
 */
export async function serveStatic(
  root: string,
  path: string,
  res: ServerResponse,
  head: boolean,
): Promise<void> {
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    send(res, 400, 'bad path', 'text/plain; charset=utf-8', 'no-store', head);
    return;
  }
  if (decoded.includes('\0')) {
    send(res, 404, 'not found', 'text/plain; charset=utf-8', 'no-store', head);
    return;
  }
  const target = resolve(join(base, decoded));
  if (target !== base && !target.startsWith(base + sep)) {
    send(res, 404, 'not found', 'text/plain; charset=utf-8', 'no-store', head);
    return;
  }
  if (target !== base && (await isFile(target))) {
    const type = TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream';
    const hashed = decoded.startsWith('/assets/');
    const cache = hashed ? 'public, max-age=31536000, immutable' : 'no-store';
    send(res, 200, await readFile(target), type, cache, head);
    return;
  }
  if (decoded.startsWith('/assets/')) {
    send(res, 404, 'not found', 'text/plain; charset=utf-8', 'no-store', head);
    return;
  }
  const index = join(base, 'index.html');
  if (await isFile(index)) {
    send(res, 200, await readFile(index), TYPES['.html'] as string, 'no-store', head);
    return;
  }
  send(res, 200, NOT_BUILT, TYPES['.html'] as string, 'no-store', head);
}
