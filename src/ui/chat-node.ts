import type { ChatAgent, ChatOptions } from './chat';
import { admitChat, badRequestBody } from './chat';
import type { UIMessageChunk } from './chunk-types';
import type { NodeResponseLike } from './node-response';
import { pipeUIMessageStreamToResponse } from './node-response';
import { UIMessageError } from './ui-message-error';

/**
 * The parts of a Node request `pipeChat` reads: the body already parsed by a framework
 * (Express's `json()`, Nest, Fastify) as `body`, else the raw request stream.
 */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  body?: unknown;
}

/** Options of {@link pipeChat}. */
export interface PipeChatOptions<
  Deps = unknown,
  Output = unknown,
  Req extends NodeRequestLike = NodeRequestLike,
> extends Omit<ChatOptions<Deps, Output>, 'owner'> {
  /**
   * Who the request speaks for (a tenant or user key), taken from the request by your
   * authentication — `(req) => req.user.id` — or given as is. With a run store, a new run is
   * stored with it and decisions resume only a run stored with it; another owner's run is refused
   * exactly as an unknown id (HTTP 404). `undefined` is unscoped (an operator's access): refuse
   * unauthenticated requests before `pipeChat`. Called once per request, after the body is read;
   * if it throws, `pipeChat` rejects with its error and nothing runs.
   */
  owner?: string | ((req: Req) => string | undefined | Promise<string | undefined>);
  /**
   * Largest raw request body read, in bytes; default 4 MiB (files arrive inline as data URLs). A
   * larger body is refused with HTTP 400 after being read on and discarded up to as many bytes
   * again (at least 1 MiB), so the kept-alive connection stays usable; past that the refusal
   * closes the connection (`connection: close`).
   */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
/** Bytes of a refused body read past the limit and discarded, at least: the connection stays usable. */
const MIN_DRAIN = 1024 * 1024;

/** How far a request's raw body was read: `ended` once it was read to its end. */
interface BodyReading {
  ended: boolean;
}

async function readBody(
  req: NodeRequestLike,
  limit: number,
  reading: BodyReading,
): Promise<unknown> {
  if (req.body !== undefined && !(typeof req.body === 'string' || req.body instanceof Uint8Array))
    return req.body;
  const text =
    req.body === undefined
      ? await readRaw(req, limit, reading)
      : typeof req.body === 'string'
        ? req.body
        : Buffer.from(req.body).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UIMessageError('body', 'the request body is not valid JSON');
  }
}

/**
 * The raw body's text, up to `limit` bytes. A larger body is refused, but first read on and
 * discarded — up to as many bytes again as the limit, at least {@link MIN_DRAIN} — so that the
 * kept-alive connection can carry the client's next request; past that, `reading.ended` stays
 * false and the refusal closes the connection. The iterator is never returned early: that would
 * destroy the request, and with it the socket under the refusal.
 */
async function readRaw(req: NodeRequestLike, limit: number, reading: BodyReading): Promise<string> {
  const body = req[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await body.next();
    if (next.done === true) break;
    const chunk = next.value;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > limit) {
      reading.ended = await drain(body, size, limit + Math.max(limit, MIN_DRAIN));
      throw new UIMessageError('body', `the request body is larger than ${limit} bytes`);
    }
    chunks.push(bytes);
  }
  reading.ended = true;
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and discards the rest of a body; `false` when it goes past `bound` bytes first. */
async function drain(body: AsyncIterator<unknown>, size: number, bound: number): Promise<boolean> {
  let read = size;
  while (read <= bound) {
    const next = await body.next();
    if (next.done === true) return true;
    const chunk = next.value;
    read += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
  }
  return false;
}

/**
 * A chat route for Node servers (node:http, Express, Nest `@Req()`/`@Res()`, Fastify's raw
 * request and reply): reads the request body, then streams the answer (`chatStream`) to the
 * response. A malformed request gets HTTP 400 with `{ error, path }`; decisions for a stored run
 * the route cannot see (unknown, another owner's or agent's) HTTP 404, for one no longer waiting
 * HTTP 409 — and nothing runs. When the client goes away, the run is cancelled (its evidence is
 * kept on its error). Resolves when the response ends.
 *
 * @example
 * http.createServer((req, res) => void pipeChat(agent, req, res, { owner: userOf }));
 */
export async function pipeChat<Deps, Output, Req extends NodeRequestLike = NodeRequestLike>(
  agent: ChatAgent<Deps, Output>,
  req: Req,
  res: NodeResponseLike,
  options: PipeChatOptions<Deps, Output, Req> = {},
): Promise<void> {
  const gone = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) gone.abort(new Error('golem/ui: the client went away'));
  };
  res.once('close', onClose);
  try {
    const signal =
      options.signal === undefined ? gone.signal : AbortSignal.any([options.signal, gone.signal]);
    let stream: ReadableStream<UIMessageChunk>;
    const reading: BodyReading = { ended: req.body !== undefined };
    try {
      const body = await readBody(req, options.maxBodyBytes ?? DEFAULT_MAX_BODY, reading);
      const { owner: ownerOf, ...rest } = options;
      const owner = typeof ownerOf === 'function' ? await ownerOf(req) : ownerOf;
      const chatOptions: ChatOptions<Deps, Output> = { ...rest, signal };
      if (owner !== undefined) chatOptions.owner = owner;
      stream = await admitChat(agent, body, chatOptions);
    } catch (error) {
      if (!UIMessageError.is(error)) throw error;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      // A body left unread would reset the connection under the client's next request.
      if (!reading.ended) headers.connection = 'close';
      res.writeHead(error.status, headers);
      res.end(badRequestBody(error));
      return;
    }
    await pipeUIMessageStreamToResponse(stream, res, options);
  } finally {
    res.removeListener('close', onClose);
  }
}
