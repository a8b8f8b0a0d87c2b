/**
 * `openaiEmbedding` against loopback servers replaying the documented `POST /embeddings` wire
 * format (`{data: [{object: 'embedding', index, embedding}], usage: {prompt_tokens}}`): request
 * shape, batching, validation of answers, error classification and the network boundary.
 */
import { ConfigError, ModelHTTPError, isCancellation, isRetryable } from 'golem';
import { openaiEmbedding, type OpenAIEmbeddingOptions } from 'golem/providers/openai';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import {
  ModelProtocolError,
  ModelRedirectError,
  ModelTransportError,
  ResponseTooLargeError,
} from '../../../support/internal-errors';
import { failure, visibleText } from './boundary-support';

const KEY = 'sk-embed-0123456789abcdef';

let server: ReplayServer;
let other: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  await Promise.all([server.close(), other.close()]);
});

function model(options: Partial<OpenAIEmbeddingOptions> = {}) {
  return openaiEmbedding({
    model: 'text-embedding-3-small',
    apiKey: KEY,
    baseURL: `${server.url}/v1`,
    preset: 'openai',
    dimensions: 3,
    ...options,
  });
}

/** A documented embeddings list for `vectors` (indexes in order unless given). */
function list(vectors: unknown[], promptTokens = 4, indexes?: number[]): Reply {
  return {
    body: JSON.stringify({
      object: 'list',
      data: vectors.map((embedding, i) => ({
        object: 'embedding',
        index: indexes?.[i] ?? i,
        embedding,
      })),
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    }),
  };
}

test('posts {input, model, dimensions, encoding_format} to {baseURL}/embeddings with the bearer key', async () => {
  server.push(list([[0.1, 0.2, 0.3]], 2));
  const result = await model().embedMany(['hello world']);
  expect(result).toEqual({
    embeddings: [[0.1, 0.2, 0.3]],
    usage: { inputTokens: 2 },
    requests: 1,
  });
  const [request] = server.requests;
  expect(request?.method).toBe('POST');
  expect(request?.url).toBe('/v1/embeddings');
  expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(request?.headers['content-type']).toBe('application/json');
  expect(request?.json).toEqual({
    input: ['hello world'],
    model: 'text-embedding-3-small',
    dimensions: 3,
    encoding_format: 'float',
  });
});

test('five values with maxBatch 2 make three requests, in order, usage summed', async () => {
  server.push(
    list(
      [
        [1, 0, 0],
        [2, 0, 0],
      ],
      3,
    ),
    list(
      [
        [3, 0, 0],
        [4, 0, 0],
      ],
      5,
    ),
    list([[5, 0, 0]], 1),
  );
  const result = await model({ maxBatch: 2 }).embedMany(['a', 'b', 'c', 'd', 'e']);
  expect(server.requests.map((r) => (r.json as { input: string[] }).input)).toEqual([
    ['a', 'b'],
    ['c', 'd'],
    ['e'],
  ]);
  expect(result.embeddings.map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
  expect(result.usage).toEqual({ inputTokens: 9 });
  expect(result.requests).toBe(3);
});

test('no values, no request', async () => {
  const result = await model().embedMany([]);
  expect(result).toEqual({ embeddings: [], usage: { inputTokens: 0 }, requests: 0 });
  expect(server.requests).toEqual([]);
});

test('items answered out of order are put back by their index', async () => {
  server.push(
    list(
      [
        [2, 2, 2],
        [0, 0, 0],
        [1, 1, 1],
      ],
      3,
      [2, 0, 1],
    ),
  );
  const result = await model().embedMany(['x', 'y', 'z']);
  expect(result.embeddings).toEqual([
    [0, 0, 0],
    [1, 1, 1],
    [2, 2, 2],
  ]);
});

test('embed returns one vector and its usage', async () => {
  server.push(list([[0.5, 0.5, 0.5]], 7));
  await expect(model().embed('one')).resolves.toEqual({
    embedding: [0.5, 0.5, 0.5],
    usage: { inputTokens: 7 },
  });
});

test('name, dimensions and maxBatch: documented defaults and the Ollama preset', () => {
  const openai = openaiEmbedding({ model: 'text-embedding-3-large', apiKey: KEY });
  expect([openai.name, openai.dimensions, openai.maxBatch]).toEqual([
    'openai:text-embedding-3-large',
    3072,
    2048,
  ]);
  const ollama = openaiEmbedding({ preset: 'ollama', model: 'nomic-embed-text' });
  expect([ollama.name, ollama.baseURL, ollama.dimensions]).toEqual([
    'ollama:nomic-embed-text',
    'http://localhost:11434/v1',
    undefined,
  ]);
});

test('a preset without an embeddings endpoint, or a maxBatch above the limit, is a ConfigError', () => {
  expect(() => openaiEmbedding({ preset: 'groq', model: 'x', apiKey: KEY })).toThrow(ConfigError);
  expect(() => openaiEmbedding({ preset: 'groq', model: 'x', apiKey: KEY })).toThrow(
    /no embeddings endpoint/,
  );
  expect(() => model({ maxBatch: 5000 })).toThrow(/maxBatch must be a whole number from 1 to 2048/);
  expect(() => openaiEmbedding({ model: 'text-embedding-3-small' })).toThrow(/apiKey is required/);
});

test('the Ollama preset posts to /v1/embeddings without a key and without dimensions', async () => {
  server.push(list([[1, 2]], 0));
  const ollama = openaiEmbedding({
    preset: 'ollama',
    model: 'nomic-embed-text',
    baseURL: `${server.url}/v1`,
  });
  const result = await ollama.embedMany(['q']);
  expect(result.embeddings).toEqual([[1, 2]]);
  expect(server.requests[0]?.headers.authorization).toBeUndefined();
  expect(server.requests[0]?.json).toEqual({
    input: ['q'],
    model: 'nomic-embed-text',
    encoding_format: 'float',
  });
});

describe('answers are validated at the boundary', () => {
  test('a vector of another length than the dimensions is a protocol error naming the adapter', async () => {
    server.push(list([[1, 2]]));
    const error = await failure(model().embedMany(['a']));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/^openai: protocol error: .*expected 3/);
    expect(isRetryable(error)).toBe(false);
  });

  test('fewer vectors than values is a protocol error', async () => {
    server.push(list([[1, 2, 3]]));
    const error = await failure(model().embedMany(['a', 'b']));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toContain('expected 2 vectors (one per value), got 1');
  });

  test('a NaN-like or non-number value is a protocol error', async () => {
    server.push(list([[1, 'NaN', 3]]));
    const error = await failure(model().embedMany(['a']));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toContain('not a finite number');
  });

  test('an embedding that is not an array, or a body without data, is a protocol error', async () => {
    server.push(list(['abc']), { body: JSON.stringify({ object: 'list' }) });
    expect(ModelProtocolError.is(await failure(model().embedMany(['a'])))).toBe(true);
    const error = await failure(model().embedMany(['a']));
    expect((error as Error).message).toContain('no `data` array');
  });

  test('vectors of different lengths across batches are refused without configured dimensions', async () => {
    server.push(list([[1, 2]]), list([[1, 2, 3]]));
    const error = await failure(
      model({ dimensions: undefined, model: 'custom', maxBatch: 1 }).embedMany(['a', 'b']),
    );
    expect(ModelProtocolError.is(error)).toBe(true);
  });

  test('duplicate indexes are a protocol error', async () => {
    server.push(
      list(
        [
          [1, 1, 1],
          [2, 2, 2],
        ],
        1,
        [0, 0],
      ),
    );
    const error = await failure(model().embedMany(['a', 'b']));
    expect((error as Error).message).toContain('index 0 appears twice');
  });
});

describe('errors are classified like chat calls', () => {
  test('401 is a non-retryable ModelHTTPError without the key anywhere', async () => {
    server.push({
      status: 401,
      body: JSON.stringify({
        error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' },
      }),
    });
    const error = await failure(model().embedMany(['a']));
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, retryable: false, code: 'invalid_api_key' });
    expect(visibleText(error)).not.toContain(KEY);
  });

  test('429 with Retry-After is retryable with retryAfter in ms', async () => {
    server.push({
      status: 429,
      headers: { 'retry-after': '7' },
      body: '{"error":{"message":"slow down"}}',
    });
    const error = await failure(model().embedMany(['a']));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfter: 7000 });
  });

  test('a 429 out of credit is not retryable', async () => {
    server.push({ status: 429, body: '{"error":{"message":"quota","code":"insufficient_quota"}}' });
    expect(isRetryable(await failure(model().embedMany(['a'])))).toBe(false);
  });

  test('500 is retryable, and a failing batch stops the rest', async () => {
    server.push(list([[1, 1, 1]]), { status: 500, body: 'boom' });
    const error = await failure(model({ maxBatch: 1 }).embedMany(['a', 'b', 'c']));
    expect(error).toMatchObject({ status: 500, retryable: true });
    expect(server.requests).toHaveLength(2);
  });

  test('an abort while the request is in flight rejects with the cancellation', async () => {
    server.push({ hold: true, body: '' });
    const controller = new AbortController();
    const pending = model().embedMany(['a'], { signal: controller.signal });
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    const error = await failure(pending);
    expect(isCancellation(error)).toBe(true);
  });

  test('an aborted signal makes no request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      isCancellation(await failure(model().embedMany(['a'], { signal: controller.signal }))),
    ).toBe(true);
    expect(server.requests).toEqual([]);
  });
});

describe('network boundary', () => {
  test('a redirect to another origin is refused and nothing reaches it', async () => {
    server.push({ status: 307, headers: { location: `${other.url}/v1/embeddings` } });
    const error = await failure(model().embedMany(['a']));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect(other.requests).toEqual([]);
  });

  test('a body over maxResponseBytes is refused', async () => {
    server.push(list([[1, 2, 3]]));
    const error = await failure(model({ maxResponseBytes: 64 }).embedMany(['a']));
    expect(ResponseTooLargeError.is(error)).toBe(true);
  });

  test('a server that never answers fails with a retryable transport error at the adapter timeout', async () => {
    server.push({ hold: true, body: '' });
    const error = await failure(model({ timeout: 100 }).embedMany(['a']));
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toContain('adapter timeout of 100 ms');
  });

  test('a body that is not JSON is a protocol error', async () => {
    server.push({ body: '<html>proxy</html>' });
    expect(ModelProtocolError.is(await failure(model().embedMany(['a'])))).toBe(true);
  });
});

/** Resolves once `check` holds, polling on the event loop (no timers, no sleeps). */
async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !check(); i++) await new Promise((r) => setImmediate(r));
  if (!check()) throw new Error('condition never held');
}
