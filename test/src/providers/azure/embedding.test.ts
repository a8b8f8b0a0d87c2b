/**
 * `azureEmbedding` against a loopback server replaying Azure OpenAI's embeddings wire format
 * (OpenAI's body and answer, Azure's addressing and authentication).
 */
import { ConfigError, ModelHTTPError, isRetryable } from 'golem';
import { azureEmbedding, type AzureEmbeddingOptions } from 'golem/providers/azure';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { ModelProtocolError, ModelRedirectError } from '../../../support/internal-errors';
import { failure, visibleText } from '../openai/boundary-support';

const KEY = 'azure-key-0123456789abcdef';

let server: ReplayServer;
let other: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  await Promise.all([server.close(), other.close()]);
});

function model(options: Partial<AzureEmbeddingOptions> = {}) {
  return azureEmbedding({
    endpoint: server.url,
    deployment: 'embed-small',
    apiVersion: '2024-10-21',
    apiKey: KEY,
    ...options,
  });
}

function answer(vectors: number[][], tokens = 3) {
  return {
    body: JSON.stringify({
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }),
  };
}

test('a dated api-version posts to the deployment URL with api-key and no model in the body', async () => {
  server.push(answer([[0.1, 0.2]]));
  const embedding = model({ dimensions: 2 });
  expect(embedding.name).toBe('azure:embed-small');
  const result = await embedding.embedMany(['hi']);
  expect(result).toEqual({ embeddings: [[0.1, 0.2]], usage: { inputTokens: 3 }, requests: 1 });
  const [request] = server.requests;
  expect(request?.url).toBe('/openai/deployments/embed-small/embeddings?api-version=2024-10-21');
  expect(request?.headers['api-key']).toBe(KEY);
  expect(request?.json).toEqual({ input: ['hi'], dimensions: 2, encoding_format: 'float' });
});

test('the v1 API posts to /openai/v1/embeddings with the deployment as model and a bearer token', async () => {
  server.push(answer([[1, 2]]));
  await model({ apiVersion: 'v1', apiKey: undefined, azureADToken: 'entra-token' }).embedMany([
    'hi',
  ]);
  const [request] = server.requests;
  expect(request?.url).toBe('/openai/v1/embeddings');
  expect(request?.headers.authorization).toBe('Bearer entra-token');
  expect(request?.json).toEqual({ input: ['hi'], model: 'embed-small', encoding_format: 'float' });
});

test('getToken is called for every batch', async () => {
  server.push(answer([[1]]), answer([[2]]));
  let issued = 0;
  const result = await model({
    apiKey: undefined,
    getToken: () => `token-${++issued}`,
    maxBatch: 1,
  }).embedMany(['a', 'b']);
  expect(result.embeddings).toEqual([[1], [2]]);
  expect(server.requests.map((r) => r.headers.authorization)).toEqual([
    'Bearer token-1',
    'Bearer token-2',
  ]);
});

test('configuration mistakes are ConfigErrors', () => {
  expect(() => model({ apiVersion: '' })).toThrow(ConfigError);
  expect(() => model({ maxBatch: 4096 })).toThrow(/maxBatch/);
  expect(() => model({ azureADToken: 'x' })).toThrow(/exactly one of apiKey/);
});

test('401 is a non-retryable ModelHTTPError without the key; 503 is retryable', async () => {
  server.push(
    { status: 401, body: JSON.stringify({ error: { code: '401', message: `bad key ${KEY}` } }) },
    { status: 503, headers: { 'retry-after': '2' }, body: '{}' },
  );
  const unauthorised = await failure(model().embedMany(['a']));
  expect(ModelHTTPError.is(unauthorised)).toBe(true);
  expect(isRetryable(unauthorised)).toBe(false);
  expect(visibleText(unauthorised)).not.toContain(KEY);
  expect(await failure(model().embedMany(['a']))).toMatchObject({
    status: 503,
    retryable: true,
    retryAfter: 2000,
  });
});

test('a wrong count is a protocol error; a redirect elsewhere is refused', async () => {
  server.push(answer([[1], [2]]), { status: 308, headers: { location: `${other.url}/x` } });
  const error = await failure(model().embedMany(['a']));
  expect(ModelProtocolError.is(error)).toBe(true);
  expect((error as Error).message).toMatch(/^azure: /);
  expect(ModelRedirectError.is(await failure(model().embedMany(['a'])))).toBe(true);
  expect(other.requests).toEqual([]);
});
