/**
 * The network boundary of the Anthropic adapter (issue 12) against loopback servers and the real
 * fetch: redirects keep the key and the conversation with their origin, the adapter's timeout is
 * a retryable transport error, an error body that never ends still reports its status, success
 * bodies have a byte cap, and a streaming request answered with something other than an event
 * stream is a protocol error.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isRetryable, ModelHTTPError, type ModelRequest } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { API_KEY, jsonReply, modelFor, sse, sseReply } from './support';

import {
  ModelProtocolError,
  ModelRedirectError,
  ModelTransportError,
  ResponseTooLargeError,
} from '../../../support/internal-errors';
let server: ReplayServer;
let other: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  await server.close();
  await other.close();
});

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const answer = JSON.stringify({
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content: [{ type: 'text', text: 'Hello there.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 5, output_tokens: 3 },
});
const streamed = sse(
  { type: 'message_start', message: { model: 'claude-test', usage: { input_tokens: 5 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const calls = {
  generate: (s: ReplayServer, options = {}) => modelFor(s, options).generate(request),
  stream: (s: ReplayServer, options = {}) => modelFor(s, options).stream(request, () => undefined),
};

describe('redirects', () => {
  test.each(['generate', 'stream'] as const)(
    '%s: a 307 to another origin is a non-retryable ModelRedirectError naming it, and nothing reaches it',
    async (kind) => {
      server.push({ status: 307, headers: { location: `${other.url}/v1/messages?k=v` } });
      const error = await failure(calls[kind](server, { betas: ['beta-1'] }));
      expect(ModelRedirectError.is(error)).toBe(true);
      expect(isRetryable(error)).toBe(false);
      expect((error as ModelRedirectError).location).toBe(`${other.url}/v1/messages`);
      expect((error as Error).message).toContain(`${other.url}/v1/messages`);
      expect(other.requests).toEqual([]);
      expect(server.requests).toHaveLength(1);
    },
  );

  test.each([307, 308])(
    'a same-origin %i is followed with the same key, headers and body',
    async (status) => {
      server.push({ status, headers: { location: '/moved/v1/messages' } }, jsonReply(answer));
      const response = await modelFor(server, { betas: ['beta-1'] }).generate(request);
      expect(response.message.content).toBe('Hello there.');
      const [first, second] = server.requests;
      expect(second?.url).toBe('/moved/v1/messages');
      expect(second?.headers['x-api-key']).toBe(API_KEY);
      expect(second?.headers['anthropic-beta']).toBe('beta-1');
      expect(second?.body).toBe(first?.body);
    },
  );

  test('a same-origin 307 is followed for a stream too', async () => {
    server.push({ status: 307, headers: { location: '/moved/v1/messages' } }, sseReply(streamed));
    const response = await calls.stream(server);
    expect(response.message.content).toBe('Hello there.');
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/messages', '/moved/v1/messages']);
  });
});

/** A TCP server that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const { port } = tcp.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => {
          resolve();
        });
      }),
  };
}

describe('the adapter timeout is a retryable ModelTransportError', () => {
  const expectTimeout = (error: unknown): void => {
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toBe(
      'anthropic: transport failure: no complete response within the adapter timeout of 100 ms',
    );
  };

  test.each(['generate', 'stream'] as const)('%s: a server that never answers', async (kind) => {
    const silent = await silentServer();
    try {
      const model = anthropic({ model: 'm', apiKey: API_KEY, baseURL: silent.url, timeout: 100 });
      const call =
        kind === 'generate' ? model.generate(request) : model.stream(request, () => undefined);
      expectTimeout(await failure(call));
    } finally {
      await silent.close();
    }
  });

  test('generate: a 200 whose body never ends', async () => {
    server.push({ headers: { 'content-type': 'application/json' }, body: '{"type":', hold: true });
    expectTimeout(await failure(calls.generate(server, { timeout: 100 })));
  });

  test('stream: a stream that stops sending mid-message', async () => {
    server.push({ ...sseReply([streamed.slice(0, 200)]), hold: true });
    expectTimeout(await failure(calls.stream(server, { timeout: 100 })));
  });
});

describe('an error response whose body never ends', () => {
  test.each(['generate', 'stream'] as const)(
    '%s: still a ModelHTTPError with its status and Retry-After, after errorBodyTimeout',
    async (kind) => {
      server.push({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '7' },
        body: '{"type":"error","error":{"type":"rate_limit_error",',
        hold: true,
      });
      const error = await failure(calls[kind](server, { errorBodyTimeout: 50 }));
      expect(ModelHTTPError.is(error)).toBe(true);
      const http = error as ModelHTTPError;
      expect([http.status, http.retryAfter, isRetryable(http)]).toEqual([429, 7000, true]);
      expect(http.body).toContain('rate_limit_error');
    },
  );
});

describe('maxResponseBytes', () => {
  test('a body over the cap is a non-retryable ResponseTooLargeError (chunked)', async () => {
    server.push({
      headers: { 'content-type': 'application/json' },
      chunks: [answer, ' '.repeat(64)],
    });
    const error = await failure(calls.generate(server, { maxResponseBytes: answer.length + 10 }));
    expect(ResponseTooLargeError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as ResponseTooLargeError).limit).toBe(answer.length + 10);
  });

  test('a declared Content-Length over the cap is refused before the body is read', async () => {
    server.push({
      headers: { 'content-type': 'application/json', 'content-length': String(answer.length) },
      body: answer,
    });
    const error = await failure(calls.generate(server, { maxResponseBytes: 32 }));
    expect(ResponseTooLargeError.is(error)).toBe(true);
  });

  test('a body within the cap decodes', async () => {
    server.push(jsonReply(answer));
    const response = await calls.generate(server, { maxResponseBytes: answer.length });
    expect(response.message.content).toBe('Hello there.');
  });

  test('the option is validated', () => {
    expect(() => anthropic({ model: 'm', apiKey: API_KEY, maxResponseBytes: 0 })).toThrow(
      'anthropic: `maxResponseBytes` must be a positive integer',
    );
    expect(() => anthropic({ model: 'm', apiKey: API_KEY, errorBodyTimeout: -1 })).toThrow(
      /errorBodyTimeout/,
    );
  });
});

test('a 200 JSON answer to a streaming request is a non-retryable ModelProtocolError naming the type', async () => {
  server.push(jsonReply(answer));
  const error = await failure(calls.stream(server));
  expect(ModelProtocolError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(false);
  expect((error as Error).message).toContain('"application/json"');
});
