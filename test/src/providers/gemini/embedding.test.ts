/**
 * `geminiEmbedding` against a loopback server replaying the documented
 * `models/{model}:batchEmbedContents` wire format (`{requests: [{model, content, taskType,
 * outputDimensionality}]}` → `{embeddings: [{values}]}`).
 */
import { ConfigError, ModelHTTPError, isCancellation, isRetryable } from 'golem';
import { geminiEmbedding, type GeminiEmbeddingOptions } from 'golem/providers/gemini';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { ModelProtocolError, ResponseTooLargeError } from '../../../support/internal-errors';
import { failure, visibleText } from '../openai/boundary-support';

const KEY = 'AIzaGolemEmbeddingKey0123456789';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: Partial<GeminiEmbeddingOptions> = {}) {
  return geminiEmbedding({
    model: 'gemini-embedding-001',
    apiKey: KEY,
    baseURL: `${server.url}/v1beta`,
    outputDimensionality: 3,
    ...options,
  });
}

function answer(vectors: unknown[]) {
  return { body: JSON.stringify({ embeddings: vectors.map((values) => ({ values })) }) };
}

test('posts one request per value with the taskType of the purpose and outputDimensionality', async () => {
  server.push(
    answer([
      [0.1, 0.2, 0.3],
      [0.4, 0.5, 0.6],
    ]),
  );
  const result = await model().embedMany(['first', 'second'], { purpose: 'query' });
  expect(result).toEqual({
    embeddings: [
      [0.1, 0.2, 0.3],
      [0.4, 0.5, 0.6],
    ],
    usage: { inputTokens: 0 },
    requests: 1,
  });
  const [request] = server.requests;
  expect(request?.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
  expect(request?.headers['x-goog-api-key']).toBe(KEY);
  expect(request?.json).toEqual({
    requests: ['first', 'second'].map((text) => ({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text }] },
      taskType: 'RETRIEVAL_QUERY',
      outputDimensionality: 3,
    })),
  });
});

test('documents default to RETRIEVAL_DOCUMENT; batches are capped at 100', async () => {
  const values = Array.from({ length: 150 }, (_, i) => `v${i}`);
  server.push(answer(values.slice(0, 100).map(() => [1, 2, 3])));
  server.push(answer(values.slice(100).map(() => [1, 2, 3])));
  const embedding = model();
  expect([embedding.name, embedding.maxBatch, embedding.dimensions]).toEqual([
    'gemini:gemini-embedding-001',
    100,
    3,
  ]);
  const result = await embedding.embedMany(values);
  expect(result.requests).toBe(2);
  expect(result.embeddings).toHaveLength(150);
  const sizes = server.requests.map((r) => (r.json as { requests: unknown[] }).requests.length);
  expect(sizes).toEqual([100, 50]);
  const first = (server.requests[0]?.json as { requests: { taskType: string }[] }).requests[0];
  expect(first?.taskType).toBe('RETRIEVAL_DOCUMENT');
});

test('the documented length is checked when outputDimensionality is not set', async () => {
  server.push(answer([[1, 2, 3]]));
  const embedding = model({ outputDimensionality: undefined });
  expect(embedding.dimensions).toBe(3072);
  const error = await failure(embedding.embedMany(['x']));
  expect(ModelProtocolError.is(error)).toBe(true);
  expect((error as Error).message).toMatch(/^gemini: .*expected 3072/);
});

test('configuration mistakes are ConfigErrors', () => {
  expect(() => model({ maxBatch: 101 })).toThrow(ConfigError);
  expect(() => model({ outputDimensionality: 0 })).toThrow(/outputDimensionality/);
  expect(() => model({ apiKey: undefined })).toThrow(/apiKey is required/);
});

test('a missing embeddings array, a NaN value or a wrong count is a protocol error', async () => {
  server.push({ body: '{}' }, answer([[1, null, 3]]), answer([]));
  for (let i = 0; i < 3; i++)
    expect(ModelProtocolError.is(await failure(model().embedMany(['x'])))).toBe(true);
});

test('a 429 with RetryInfo is retryable with its delay; 403 is not, and hides the key', async () => {
  server.push(
    {
      status: 429,
      body: JSON.stringify({
        error: {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'quota',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }],
        },
      }),
    },
    {
      status: 403,
      body: JSON.stringify({
        error: { code: 403, status: 'PERMISSION_DENIED', message: `key ${KEY} denied` },
      }),
    },
  );
  expect(await failure(model().embedMany(['x']))).toMatchObject({
    status: 429,
    retryable: true,
    retryAfter: 3000,
  });
  const denied = await failure(model().embedMany(['x']));
  expect(ModelHTTPError.is(denied)).toBe(true);
  expect(isRetryable(denied)).toBe(false);
  expect(visibleText(denied)).not.toContain(KEY);
});

test('the response cap and the caller abort apply', async () => {
  server.push(answer([[1, 2, 3]]));
  expect(
    ResponseTooLargeError.is(await failure(model({ maxResponseBytes: 10 }).embedMany(['x']))),
  ).toBe(true);
  const controller = new AbortController();
  controller.abort();
  expect(isCancellation(await failure(model().embed('x', { signal: controller.signal })))).toBe(
    true,
  );
});
