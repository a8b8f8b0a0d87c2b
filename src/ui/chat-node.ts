import type { ChatAgent, ChatOptions } from './chat';
import { badRequestBody, chatStream } from './chat';
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
export interface PipeChatOptions<Deps = unknown, Output = unknown> extends ChatOptions<
  Deps,
  Output
> {
  /** Largest raw request body read, in bytes; default 4 MiB (files arrive inline as data URLs). */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

async function readBody(req: NodeRequestLike, limit: number): Promise<unknown> {
  if (req.body !== undefined && !(typeof req.body === 'string' || req.body instanceof Uint8Array))
    return req.body;
  let text: string;
  if (req.body !== undefined)
    text = typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
  else {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      const bytes =
        typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      size += bytes.length;
      if (size > limit)
        throw new UIMessageError('body', `the request body is larger than ${limit} bytes`);
      chunks.push(bytes);
    }
    text = Buffer.concat(chunks).toString('utf8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UIMessageError('body', 'the request body is not valid JSON');
  }
}

/**
 * A chat route for Node servers (node:http, Express, Nest `@Req()`/`@Res()`, Fastify's raw
 * request and reply): reads the request body, then streams {@link chatStream} to the response.
 * A malformed request gets HTTP 400 with `{ error, path }`. When the client goes away, the run is
 * cancelled (its evidence is kept on its error). Resolves when the response ends.
 *
 * @example
 * http.createServer((req, res) => void pipeChat(agent, req, res));
 */
export async function pipeChat<Deps, Output>(
  agent: ChatAgent<Deps, Output>,
  req: NodeRequestLike,
  res: NodeResponseLike,
  options: PipeChatOptions<Deps, Output> = {},
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
    try {
      const body = await readBody(req, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
      stream = chatStream(agent, body, { ...options, signal });
    } catch (error) {
      if (!UIMessageError.is(error)) throw error;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(badRequestBody(error));
      return;
    }
    await pipeUIMessageStreamToResponse(stream, res, options);
  } finally {
    res.removeListener('close', onClose);
  }
}
