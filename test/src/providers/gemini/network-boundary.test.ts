/**
 * The network boundary of the Gemini adapter (issue 12) against loopback servers and the real
 * fetch: redirects keep the key, the configured headers and the conversation with their origin,
 * the adapter's timeout is a retryable transport error, an error body that never ends still
 * reports its status, success bodies have a byte cap, and a streaming request answered with
 * something other than an event stream is a protocol error.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { isRetryable, ModelHTTPError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { gemini, type GeminiOptions } from 'golem/providers/gemini';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { API_KEY, chunk, jsonReply, modelFor, rejection, request, sse, sseReply } from './helpers';

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

const ask = request([userMessage('hi')]);
const answer = chunk([{ text: 'Hello there.' }], {
  finishReason: 'STOP',
  usage: { promptTokenCount: 5, candidatesTokenCount: 3 },
});
const GENERATE = '/v1beta/models/gemini-2.5-flash:generateContent';
const STREAM = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';

const calls = {
  generate: (s: ReplayServer, options: Partial<GeminiOptions> = {}) =>
    modelFor(s, options).generate(ask),
  stream: (s: ReplayServer, options: Partial<GeminiOptions> = {}) =>
    modelFor(s, options).stream(ask, () => undefined),
};

describe('redirects', () => {
  test.each(['generate', 'stream'] as const)(
    '%s: a 307 to another origin is a non-retryable ModelRedirectError naming it, and nothing reaches it',
    async (kind) => {
      server.push({ status: 307, headers: { location: `${other.url}/v1beta/x?key=${API_KEY}` } });
      const error = await rejection(
        calls[kind](server, { headers: { 'x-goog-user-project': 'proj-1' } }),
      );
      expect(ModelRedirectError.is(error)).toBe(true);
      expect(isRetryable(error)).toBe(false);
      expect((error as ModelRedirectError).location).toBe(`${other.url}/v1beta/x`);
      expect((error as Error).message).toContain(`${other.url}/v1beta/x`);
      expect((error as Error).message).not.toContain(API_KEY);
      expect(other.requests).toEqual([]);
    },
  );

  test('a user-added credential header never goes to another origin either (access token)', async () => {
    server.push({ status: 308, headers: { location: `${other.url}/v1beta/x` } });
    const error = await rejection(
      modelFor(server, {
        apiKey: undefined,
        accessToken: 'ya29.token-0123456789',
        headers: { 'x-proxy-authorization': 'proxy-secret-0123456789' },
      }).generate(ask),
    );
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(other.requests).toEqual([]);
  });

  test.each([307, 308])(
    'a same-origin %i is followed with the same key, headers and body',
    async (status) => {
      server.push({ status, headers: { location: '/moved/generate' } }, jsonReply(answer));
      const response = await calls.generate(server, {
        headers: { 'x-goog-user-project': 'proj-1' },
      });
      expect(response.message.content).toBe('Hello there.');
      const [first, second] = server.requests;
      expect([first?.url, second?.url]).toEqual([GENERATE, '/moved/generate']);
      expect(second?.headers['x-goog-api-key']).toBe(API_KEY);
      expect(second?.headers['x-goog-user-project']).toBe('proj-1');
      expect(second?.body).toBe(first?.body);
    },
  );

  test('a same-origin 307 is followed for a stream too', async () => {
    server.push({ status: 307, headers: { location: '/moved/stream' } }, sseReply(sse(answer)));
    const response = await calls.stream(server);
    expect(response.message.content).toBe('Hello there.');
    expect(server.requests.map((r) => r.url)).toEqual([STREAM, '/moved/stream']);
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
      'gemini: transport failure: no complete response within the adapter timeout of 100 ms',
    );
  };

  test.each(['generate', 'stream'] as const)('%s: a server that never answers', async (kind) => {
    const silent = await silentServer();
    try {
      const model = gemini({
        model: 'gemini-2.5-flash',
        apiKey: API_KEY,
        baseURL: `${silent.url}/v1beta`,
        timeout: 100,
      });
      const call = kind === 'generate' ? model.generate(ask) : model.stream(ask, () => undefined);
      expectTimeout(await rejection(call));
    } finally {
      await silent.close();
    }
  });

  test('generate: a 200 whose body never ends', async () => {
    server.push({ headers: { 'content-type': 'application/json' }, body: '{"cand', hold: true });
    expectTimeout(await rejection(calls.generate(server, { timeout: 100 })));
  });

  test('stream: a stream that stops before its finish reason', async () => {
    const first = chunk([{ text: 'Hel' }]);
    server.push({ ...sseReply(sse(first)), hold: true });
    expectTimeout(await rejection(calls.stream(server, { timeout: 100 })));
  });
});

describe('an error response whose body never ends', () => {
  test.each(['generate', 'stream'] as const)(
    '%s: still a ModelHTTPError with its status and Retry-After, after errorBodyTimeout',
    async (kind) => {
      server.push({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '7' },
        body: '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED",',
        hold: true,
      });
      const error = await rejection(calls[kind](server, { errorBodyTimeout: 50 }));
      expect(ModelHTTPError.is(error)).toBe(true);
      const http = error as ModelHTTPError;
      expect([http.status, http.retryAfter, isRetryable(http)]).toEqual([429, 7000, true]);
      expect(http.body).toContain('RESOURCE_EXHAUSTED');
    },
  );
});

describe('maxResponseBytes', () => {
  const text = JSON.stringify(answer);

  test('a body over the cap is a non-retryable ResponseTooLargeError (chunked)', async () => {
    server.push({
      headers: { 'content-type': 'application/json' },
      chunks: [text, ' '.repeat(64)],
    });
    const error = await rejection(calls.generate(server, { maxResponseBytes: text.length + 10 }));
    expect(ResponseTooLargeError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as ResponseTooLargeError).limit).toBe(text.length + 10);
  });

  test('a declared Content-Length over the cap is refused before the body is read', async () => {
    server.push({
      headers: { 'content-type': 'application/json', 'content-length': String(text.length) },
      body: text,
    });
    const error = await rejection(calls.generate(server, { maxResponseBytes: 32 }));
    expect(ResponseTooLargeError.is(error)).toBe(true);
  });

  test('a body within the cap decodes', async () => {
    server.push(jsonReply(answer));
    const response = await calls.generate(server, { maxResponseBytes: text.length });
    expect(response.message.content).toBe('Hello there.');
  });

  test('the options are validated', () => {
    const base = { model: 'gemini-2.5-flash', apiKey: API_KEY };
    expect(() => gemini({ ...base, maxResponseBytes: 0 })).toThrow(
      'gemini: maxResponseBytes must be a positive integer',
    );
    expect(() => gemini({ ...base, errorBodyTimeout: 0 })).toThrow(/errorBodyTimeout/);
  });
});

test('a 200 JSON answer to a streaming request is a non-retryable ModelProtocolError naming the type', async () => {
  server.push(jsonReply(answer));
  const error = await rejection(calls.stream(server));
  expect(ModelProtocolError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(false);
  expect((error as Error).message).toContain('"application/json; charset=UTF-8"');
});
