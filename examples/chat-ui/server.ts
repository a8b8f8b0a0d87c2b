/**
 * The chat server: node:http, no framework. POST /api/chat answers `useChat` with golem's UI
 * message stream (`pipeChat` from `golem/ui`: a new user message starts a run, an approval
 * decision resumes the paused one); every other GET serves the page built by `vite build`.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeChat, type ChatAgent } from 'golem/ui';
import { chatAgent } from './agent';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Options of {@link createChatServer}. */
export interface ChatServerOptions {
  /** The agent answering POST /api/chat. */
  agent: ChatAgent;
  /** The built page (vite's output folder); default `dist` beside this file. */
  pageDir?: string;
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

/** Serves a file of the built page; unknown paths get index.html (the page has one route). */
function servePage(pageDir: string, req: IncomingMessage, res: ServerResponse): void {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://page').pathname);
  const wanted = resolve(pageDir, normalize(`.${path}`));
  if (wanted !== pageDir && !wanted.startsWith(pageDir + sep)) {
    fail(res, 404, 'not found');
    return;
  }
  const file =
    existsSync(wanted) && statSync(wanted).isFile() ? wanted : join(pageDir, 'index.html');
  if (!existsSync(file)) {
    fail(res, 503, 'The page is not built: run `npm run build` in examples/chat-ui first.');
    return;
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
  });
  createReadStream(file).pipe(res);
}

/** The chat server (not yet listening). */
export function createChatServer(options: ChatServerOptions): Server {
  const pageDir = resolve(options.pageDir ?? join(__dirname, 'dist'));
  return createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/api/chat' || url.startsWith('/api/chat?')) {
      if (req.method !== 'POST') {
        fail(res, 405, 'POST a chat request here');
        return;
      }
      // A malformed body gets HTTP 400 from pipeChat; anything else is a server fault.
      pipeChat(options.agent, req, res).catch((error: unknown) => {
        console.error('chat-ui: the chat request failed:', error);
        if (!res.headersSent) fail(res, 500, 'internal error');
        else res.end();
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      fail(res, 405, 'method not allowed');
      return;
    }
    servePage(pageDir, req, res);
  });
}

/** Starts the server on `port` (0: any free port) of `host`; resolves with its address. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((done, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => {
      server.removeListener('error', failed);
      done();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return `http://${host}:${bound}`;
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? '3000');
  const host = process.env.HOST ?? '127.0.0.1';
  const server = createChatServer({ agent: chatAgent() });
  listen(server, port, host)
    .then((url) => {
      const model =
        (process.env.OPENAI_API_KEY ?? '') === '' ? 'the offline scripted model' : 'OpenAI';
      console.log(`chat-ui: listening on ${url} (answering with ${model})`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
