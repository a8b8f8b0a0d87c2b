/**
 * The network boundary of the Azure OpenAI adapter (issue 12), against loopback servers and the
 * real `fetch`, with each of its credentials: the `api-key` header, a bearer token and the
 * `getToken` callback.
 */
import {
  Agent,
  ModelHTTPError,
  isRetryable,
  type ModelRequest,
  type RunEvent,
  ConfigError,
} from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { azure, type AzureOptions } from 'golem/providers/azure';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import {
  SSE,
  abortListeners,
  failure,
  timersLeftBy,
  visibleText,
} from '../openai/boundary-support';
import { chunk, completion, sse, usageChunk } from '../openai/support';

import {
  ModelProtocolError,
  ModelRedirectError,
  ModelTransportError,
  ResponseTooLargeError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
const KEY = 'azure-key-0123456789abcdef';
const TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOi.entra-token';
const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const ok = () => ({ body: JSON.stringify(completion({ content: 'ok' })) });
const answer = [chunk({ content: 'Hi' }, 'stop'), usageChunk(2, 1)];

let server: ReplayServer;
let other: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  await Promise.all([server.close(), other.close()]);
});

function model(options: Partial<AzureOptions> = { apiKey: KEY }) {
  return azure({ endpoint: server.url, deployment: 'gpt-4o', apiVersion: 'v1', ...options });
}

const credentials: [string, Partial<AzureOptions>, string][] = [
  ['api-key', { apiKey: KEY }, KEY],
  ['azureADToken', { azureADToken: TOKEN }, TOKEN],
  ['getToken', { getToken: () => TOKEN }, TOKEN],
];

describe.each(credentials)('with %s', (_, auth, secret) => {
  test('a 307 to another origin is refused and nothing reaches it', async () => {
    server.push({ status: 307, headers: { location: `${other.url}/openai/v1/chat/completions` } });
    const error = await failure(model(auth).generate(hi));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toContain(other.url);
    expect(other.requests).toEqual([]);
  });

  test('a same-origin 308 is followed with the credential and the call succeeds', async () => {
    server.push({ status: 308, headers: { location: '/elsewhere' } }, ok());
    expect((await model(auth).generate(hi)).message.content).toBe('ok');
    const headers = server.requests[1]?.headers;
    expect(headers?.['api-key'] ?? headers?.authorization).toContain(secret);
  });

  test('the credential echoed in an error body or a stream error frame is redacted', async () => {
    server.push(
      { status: 401, body: JSON.stringify({ error: { message: `bad credential ${secret}` } }) },
      { headers: SSE, body: sse([{ error: { message: `revoked ${secret}`, code: 'x' } }]) },
    );
    const http = await failure(model(auth).generate(hi));
    const frame = await failure(model(auth).stream(hi, () => undefined));
    expect(ModelHTTPError.is(http)).toBe(true);
    expect(StreamInterruptedError.is(frame)).toBe(true);
    for (const error of [http, frame]) {
      expect(visibleText(error)).toContain('[redacted]');
      expect(visibleText(error)).not.toContain(secret);
    }
  });

  test('nothing is retained after a completed generate and stream', async () => {
    server.push(ok(), ok(), { headers: SSE, body: sse(answer) });
    await model(auth).generate(hi);
    const caller = new AbortController();
    const left = await timersLeftBy(async () => {
      await model(auth).generate(hi, { signal: caller.signal });
      await model(auth).stream(hi, () => undefined, { signal: caller.signal });
    });
    expect([left, abortListeners(caller.signal)]).toEqual([0, 0]);
  });
});

describe('secrets', () => {
  test.each([
    ['with spaces', 'azure key with spaces 01'],
    ['with Latin-1 letters', 'azure-clé-ñ-0123'],
    ['with JSON-escaped characters', 'azure-"key"\\0123'],
  ])('an api-key %s echoed by the server is redacted', async (_, key) => {
    server.push({ status: 401, body: JSON.stringify({ error: { message: `key ${key}` } }) });
    const error = await failure(model({ apiKey: key }).generate(hi));
    expect((error as ModelHTTPError).body).toContain('[redacted]');
    expect(visibleText(error)).not.toContain(key);
  });

  test.each([
    ['an api-key', { apiKey: 'azure-key\n0123' }, 'api-key'],
    ['a token from getToken', { getToken: () => 'eyJ\r\ntoken' }, 'authorization'],
    ['a non-Latin-1 token', { azureADToken: 'токен-0123' }, 'authorization'],
  ])('%s HTTP cannot carry is a model ConfigError naming the header', async (_, auth, header) => {
    const error = await failure(model(auth).generate(hi));
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain(`"${header}"`);
    expect(visibleText(error)).not.toMatch(/azure-key|eyJ|токен/);
    expect(server.requests).toEqual([]);
  });

  test('a getToken failure quoting an issued token or a header credential is redacted', async () => {
    const issued = ['token-first-0123456', 'token-second-0123456'];
    let calls = 0;
    const getToken = () => {
      const token = issued[calls++];
      if (token !== undefined) return token;
      throw new Error(`refresh failed for ${issued.join(', ')} with x-api-key=user-secret-9876`, {
        cause: new Error(`upstream rejected ${issued[1] ?? ''}`),
      });
    };
    server.push(ok(), ok());
    const m = model({ getToken, headers: { 'X-Api-Key': 'user-secret-9876' } });
    await m.generate(hi);
    await m.generate(hi);
    const error = await failure(m.generate(hi));
    expect(ModelTransportError.is(error)).toBe(true);
    const text = visibleText(error);
    expect(text).toContain('refresh failed');
    for (const secret of [...issued, 'user-secret-9876']) expect(text).not.toContain(secret);
  });

  test('run events of an Agent carry no key', async () => {
    const echo = { status: 500, body: JSON.stringify({ error: { message: `key ${KEY}` } }) };
    server.push(echo, echo);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: model(),
      maxAttempts: 2,
      sleep: () => Promise.resolve(),
      onEvent: (e) => events.push(e),
    });
    const error = await failure(agent.run('hi'));
    expect(events.filter((e) => e.kind === 'model_end')).toHaveLength(2);
    expect(visibleText(events)).not.toContain(KEY);
    expect(visibleText(error)).not.toContain(KEY);
  });
});

describe('timeouts and bodies', () => {
  test('a server that never sends its body: a retryable ModelTransportError', async () => {
    server.push({ hold: true });
    const error = await failure(model({ apiKey: KEY, timeout: 100 }).generate(hi));
    expect(error).toMatchObject({
      kind: 'ModelTransportError',
      message:
        'azure: transport failure: no complete response within the adapter timeout of 100 ms',
    });
    expect(isRetryable(error)).toBe(true);
  });

  test('a getToken that never returns ends at the adapter timeout, retryable, sending nothing', async () => {
    const getToken = () => new Promise<string>(() => undefined);
    const error = await failure(model({ getToken, timeout: 100 }).generate(hi));
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect(server.requests).toEqual([]);
  });

  test('an error body that never ends still reports status and Retry-After', async () => {
    server.push({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
      body: '{"error":',
      hold: true,
    });
    const error = await failure(model({ apiKey: KEY, errorBodyTimeout: 50 }).generate(hi));
    expect(error).toMatchObject({ kind: 'ModelHTTPError', status: 429, retryAfter: 3000 });
  });

  test('a success body over maxResponseBytes is a ResponseTooLargeError', async () => {
    server.push({ body: JSON.stringify(completion({ content: 'y'.repeat(4000) })) });
    const error = await failure(model({ apiKey: KEY, maxResponseBytes: 2000 }).generate(hi));
    expect(ResponseTooLargeError.is(error)).toBe(true);
    expect(error).toMatchObject({ limit: 2000, retryable: false });
  });

  test('a JSON 200 answering a streaming request is a non-retryable ModelProtocolError', async () => {
    server.push(ok());
    const error = await failure(model().stream(hi, () => undefined));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toContain('"application/json"');
  });
});

describe('stream termination', () => {
  test('a complete stream on a connection the server keeps open resolves at [DONE]', async () => {
    server.push({ headers: SSE, body: sse(answer), hold: true });
    const response = await model().stream(hi, () => undefined);
    expect([response.message.content, response.usage]).toEqual([
      'Hi',
      { inputTokens: 2, outputTokens: 1 },
    ]);
  });

  test('a reset after the finish reason and usage completes; one before them is interrupted', async () => {
    server.push(
      { headers: SSE, chunks: [sse(answer, false)], reset: true },
      { headers: SSE, chunks: [sse(answer.slice(0, 1), false)], reset: true },
    );
    expect((await model().stream(hi, () => undefined)).message.content).toBe('Hi');
    const error = await failure(model().stream(hi, () => undefined));
    expect(StreamInterruptedError.is(error)).toBe(true);
  });
});
