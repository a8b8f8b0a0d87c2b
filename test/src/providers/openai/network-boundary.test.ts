/**
 * The network boundary of the OpenAI-compatible adapter (issue 12), against loopback servers and
 * the real `fetch`: redirects, secrets, the adapter timeout, error bodies that never end, the
 * success-body cap and the content type of a streaming answer.
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
import { openai, type OpenAIOptions } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { SSE, failure, visibleText } from './boundary-support';
import { chunk, completion, sse, usageChunk } from './support';

import {
  ModelProtocolError,
  ModelRedirectError,
  ModelTransportError,
  ResponseTooLargeError,
} from '../../../support/internal-errors';
const KEY = 'sk-live-0123456789abcdef';
const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const ok = () => ({ body: JSON.stringify(completion({ content: 'ok' })) });

let server: ReplayServer;
let other: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  await Promise.all([server.close(), other.close()]);
});

function model(options: Partial<OpenAIOptions> = {}) {
  return openai({
    model: 'gpt-4o',
    preset: 'openai',
    apiKey: KEY,
    baseURL: server.url,
    ...options,
  });
}

describe('redirects: credentials and bodies stay with their origin', () => {
  test('a 307 to another origin is refused (non-retryable, names the Location); nothing reaches it', async () => {
    server.push({ status: 307, headers: { location: `${other.url}/v1/chat/completions?k=1` } });
    const error = await failure(model().generate(hi));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 307, location: `${other.url}/v1/chat/completions` });
    expect((error as Error).message).toContain(`${other.url}/v1/chat/completions`);
    expect(isRetryable(error)).toBe(false);
    expect(other.requests).toEqual([]);
  });

  test('a streaming request redirected to another origin is refused the same way', async () => {
    server.push({ status: 308, headers: { location: `${other.url}/chat/completions` } });
    const error = await failure(model().stream(hi, () => undefined));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(other.requests).toEqual([]);
  });

  test('headers a user adds never leave the origin either', async () => {
    server.push({ status: 307, headers: { location: `${other.url}/chat/completions` } });
    const error = await failure(
      model({
        apiKey: undefined,
        preset: undefined,
        headers: { 'x-api-key': 'user-secret-42' },
      }).generate(hi),
    );
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(other.requests).toEqual([]);
  });

  test.each([307, 308])(
    'a same-origin %i is followed with the same body and headers, and the call succeeds',
    async (status) => {
      server.push({ status, headers: { location: '/moved/chat/completions' } }, ok());
      const response = await model({ headers: { 'x-team': 'blue' } }).generate(hi);
      expect(response.message.content).toBe('ok');
      const [first, second] = server.requests;
      expect(second?.url).toBe('/moved/chat/completions');
      expect(second?.body).toBe(first?.body);
      expect(second?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(second?.headers['x-team']).toBe('blue');
    },
  );
});

describe('no secret anywhere a user or log can see', () => {
  const echoed = (key: string) => ({
    status: 401,
    body: JSON.stringify({
      error: { message: `Incorrect API key provided: ${key}.`, code: `bad:${key}` },
    }),
  });

  test.each([
    ['with spaces', 'sk key with spaces 0123'],
    ['with Latin-1 letters', 'sk-café-ñandú-0123'],
    ['with JSON-escaped characters', 'sk-"quoted"\\slash-0123'],
    ['plain, echoed by the server in its error body', KEY],
  ])('a key %s: message, cause chain and ModelHTTPError.body are redacted', async (_, key) => {
    server.push(echoed(key));
    const error = await failure(model({ apiKey: key }).generate(hi));
    expect(ModelHTTPError.is(error)).toBe(true);
    expect((error as ModelHTTPError).body).toContain('[redacted]');
    expect(visibleText(error)).not.toContain(key);
    expect(visibleText(error)).not.toContain(JSON.stringify(key).slice(1, -1));
  });

  test.each([
    ['a newline', 'sk-abc\ndef-0123'],
    ['a carriage return', 'sk-abc\rdef-0123'],
    ['non-Latin-1 unicode', 'sk-ключ-密钥-0123'],
  ])('a key with %s is a model ConfigError naming the header, not the key', async (_, key) => {
    const error = await failure(model({ apiKey: key }).generate(hi));
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain('authorization');
    expect(visibleText(error)).not.toContain('sk-abc');
    expect(visibleText(error)).not.toContain('ключ');
    expect(server.requests).toEqual([]);
  });

  test('a credential in a user header is redacted like the key', async () => {
    const token = 'user-token-9876543210';
    server.push(echoed(token));
    const error = await failure(
      model({ apiKey: undefined, preset: undefined, headers: { 'X-Api-Key': token } }).generate(hi),
    );
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(visibleText(error)).not.toContain(token);
  });

  test('a stream error frame echoing the key is redacted', async () => {
    server.push({
      headers: SSE,
      body: sse([{ error: { message: `key ${KEY} revoked`, type: 'invalid_request_error' } }]),
    });
    const error = await failure(model().stream(hi, () => undefined));
    expect(visibleText(error)).toContain('[redacted]');
    expect(visibleText(error)).not.toContain(KEY);
  });

  test('run events and the RunError of an Agent carry no key', async () => {
    server.push(echoed(KEY), echoed(KEY));
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: model(),
      maxAttempts: 2,
      sleep: () => Promise.resolve(),
      onEvent: (e) => events.push(e),
    });
    const error = await failure(agent.run('hi'));
    expect(events.some((e) => e.kind === 'model_end')).toBe(true);
    expect(visibleText(events)).not.toContain(KEY);
    expect(visibleText(error)).not.toContain(KEY);
  });
});

describe('the adapter timeout', () => {
  test('a server that never sends its body: a retryable ModelTransportError', async () => {
    server.push({ hold: true });
    const error = await failure(model({ timeout: 100 }).generate(hi));
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toBe(
      'openai: transport failure: no complete response within the adapter timeout of 100 ms',
    );
  });

  test('a stream that stops mid-way: the same retryable ModelTransportError', async () => {
    server.push({ headers: SSE, chunks: [sse([chunk({ content: 'par' })], false)], hold: true });
    const deltas: unknown[] = [];
    const error = await failure(model({ timeout: 100 }).stream(hi, (d) => void deltas.push(d)));
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect(deltas).toEqual([{ content: 'par' }]);
  });
});

test('an error response whose body never ends still reports its status and Retry-After', async () => {
  server.push({
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '7' },
    body: '{"error":{"message":"overloa',
    hold: true,
  });
  const error = await failure(model({ errorBodyTimeout: 50 }).generate(hi));
  expect(ModelHTTPError.is(error)).toBe(true);
  expect(error).toMatchObject({ status: 503, retryAfter: 7000, retryable: true });
  expect((error as ModelHTTPError).body).toContain('not received within 50 ms');
});

describe('the success-body cap', () => {
  const big = JSON.stringify(completion({ content: 'x'.repeat(5000) }));

  test('a body over maxResponseBytes is a non-retryable ResponseTooLargeError', async () => {
    server.push({ body: big }, { chunks: [big.slice(0, 3000), big.slice(3000)] });
    const declared = await failure(model({ maxResponseBytes: 1000 }).generate(hi));
    const chunked = await failure(model({ maxResponseBytes: 1000 }).generate(hi));
    for (const error of [declared, chunked]) {
      expect(ResponseTooLargeError.is(error)).toBe(true);
      expect(error).toMatchObject({ limit: 1000, retryable: false });
    }
  });

  test('a body within the cap is read as usual', async () => {
    server.push({ body: big });
    const response = await model({ maxResponseBytes: big.length }).generate(hi);
    expect(response.message.content).toHaveLength(5000);
  });

  test.each([
    [{ maxResponseBytes: 0 }, 'openai: maxResponseBytes must be a whole number ≥ 1'],
    [{ errorBodyTimeout: 0.5 }, 'openai: errorBodyTimeout must be a whole number ≥ 1'],
    [{ timeout: 2 ** 31 }, 'openai: timeout must be at most 2147483647 ms (about 24.8 days)'],
  ])('invalid %j is a model ConfigError', (options, message) => {
    expect(() => model(options)).toThrow(message);
  });
});

test.each(['application/json', 'text/html; charset=utf-8'])(
  'a 200 of type %s answering a streaming request is a non-retryable ModelProtocolError',
  async (type) => {
    server.push({
      headers: { 'content-type': type },
      body: JSON.stringify(completion({ content: 'ok' })),
    });
    const error = await failure(model().stream(hi, () => undefined));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toContain(JSON.stringify(type));
  },
);

test('an event stream with parameters in its content type is accepted', async () => {
  server.push({
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    body: sse([chunk({ content: 'ok' }, 'stop'), usageChunk(1, 1)]),
  });
  expect((await model().stream(hi, () => undefined)).message.content).toBe('ok');
});
