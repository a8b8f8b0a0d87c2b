/**
 * `bedrockEmbedding` and `bedrockRerank`: the real BedrockRuntimeClient (SigV4 with fake
 * credentials, Node HTTP handler) against a loopback server replaying the documented InvokeModel
 * bodies of Titan Text Embeddings V2, Cohere Embed v3 and Cohere Rerank 3.5.
 */
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ConfigError, ModelHTTPError, isCancellation, isRetryable } from 'golem';
import {
  bedrockEmbedding,
  bedrockRerank,
  type BedrockEmbeddingModel,
  type BedrockEmbeddingOptions,
  type BedrockRerankModel,
} from 'golem/providers/bedrock';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import {
  ModelProtocolError,
  ModelRedirectError,
  ResponseTooLargeError,
} from '../../../support/internal-errors';
import { failure, visibleText } from '../openai/boundary-support';
import { CREDENTIALS, jsonReply } from './support';

const ERRORTYPE_SUFFIX = ':http://internal.amazon.com/coral/com.amazon.bedrock/';
let server: ReplayServer;
let other: ReplayServer;
const built: { destroy(): void }[] = [];
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  for (const model of built.splice(0)) model.destroy();
  await Promise.all([server.close(), other.close()]);
});

function embedding(options: Partial<BedrockEmbeddingOptions> = {}): BedrockEmbeddingModel {
  const model = bedrockEmbedding({
    model: 'amazon.titan-embed-text-v2:0',
    region: 'us-east-1',
    endpoint: server.url,
    credentials: CREDENTIALS,
    client: { requestHandler: new NodeHttpHandler() },
    ...options,
  });
  built.push(model);
  return model;
}

function reranker(model = 'cohere.rerank-v3-5:0'): BedrockRerankModel {
  const built_ = bedrockRerank({
    model,
    region: 'us-east-1',
    endpoint: server.url,
    credentials: CREDENTIALS,
    client: { requestHandler: new NodeHttpHandler() },
  });
  built.push(built_);
  return built_;
}

const titan = (embedding: unknown, tokens = 3) =>
  jsonReply(JSON.stringify({ embedding, inputTextTokenCount: tokens }));

describe('Titan Text Embeddings V2', () => {
  test('one InvokeModel call per value with {inputText, dimensions, normalize}; tokens summed', async () => {
    server.push(titan([0.1, 0.2], 2), titan([0.3, 0.4], 5));
    const model = embedding({ dimensions: 256, normalize: true });
    expect([model.name, model.maxBatch, model.dimensions]).toEqual([
      'bedrock:amazon.titan-embed-text-v2:0',
      1,
      256,
    ]);
    const error = await failure(model.embedMany(['a', 'b']));
    // 2 dimensions answered where 256 were asked for
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/^bedrock: .*expected 256/);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/model/amazon.titan-embed-text-v2%3A0/invoke');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(request?.json).toEqual({ inputText: 'a', dimensions: 256, normalize: true });
  });

  test('vectors come back in order with usage from inputTextTokenCount', async () => {
    const vector = (x: number) => Array.from({ length: 256 }, () => x);
    server.push(titan(vector(1), 2), titan(vector(2), 5), titan(vector(3), 1));
    const result = await embedding({ dimensions: 256 }).embedMany(['a', 'b', 'c']);
    expect(result.embeddings.map((v) => v[0])).toEqual([1, 2, 3]);
    expect(result.usage).toEqual({ inputTokens: 8 });
    expect(result.requests).toBe(3);
    expect(server.requests.map((r) => (r.json as { inputText: string }).inputText)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  test('configuration mistakes are ConfigErrors', () => {
    expect(() => embedding({ dimensions: 300 })).toThrow(/256, 512 or 1024/);
    expect(() => embedding({ maxBatch: 2 })).toThrow(ConfigError);
    expect(() => embedding({ model: 'meta.llama3-8b-instruct-v1:0' })).toThrow(
      /no embedding wire format/,
    );
    expect(() => embedding({ model: 'cohere.embed-english-v3', dimensions: 512 })).toThrow(
      /does not take `dimensions`/,
    );
  });
});

describe('Cohere Embed v3', () => {
  test('batches of up to 96 with input_type from the purpose; usage from the token header', async () => {
    const vector = (x: number) => Array.from({ length: 1024 }, () => x);
    server.push(
      jsonReply(
        JSON.stringify({
          id: 'emb-1',
          response_type: 'embeddings_by_type',
          texts: ['q1', 'q2'],
          embeddings: { float: [vector(1), vector(2)] },
        }),
        200,
        { 'x-amzn-bedrock-input-token-count': '6' },
      ),
    );
    const model = embedding({ model: 'cohere.embed-english-v3' });
    expect([model.maxBatch, model.dimensions]).toEqual([96, 1024]);
    const result = await model.embedMany(['q1', 'q2'], { purpose: 'query' });
    expect(result.embeddings.map((v) => v[0])).toEqual([1, 2]);
    expect(result.usage).toEqual({ inputTokens: 6 });
    expect(server.requests[0]?.json).toEqual({
      texts: ['q1', 'q2'],
      input_type: 'search_query',
      embedding_types: ['float'],
    });
  });

  test('a wrong count is a protocol error', async () => {
    server.push(jsonReply(JSON.stringify({ embeddings: { float: [] } })));
    const error = await failure(embedding({ model: 'cohere.embed-english-v3' }).embedMany(['a']));
    expect(ModelProtocolError.is(error)).toBe(true);
  });
});

describe('errors and the network boundary', () => {
  test('403 is a non-retryable ModelHTTPError; the secret key never shows', async () => {
    server.push(
      jsonReply(JSON.stringify({ message: `denied ${CREDENTIALS.secretAccessKey}` }), 403, {
        'x-amzn-errortype': `AccessDeniedException${ERRORTYPE_SUFFIX}`,
      }),
    );
    const error = await failure(embedding().embedMany(['a']));
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 403, retryable: false, code: 'AccessDeniedException' });
    expect(visibleText(error)).not.toContain(CREDENTIALS.secretAccessKey);
  });

  test('429 throttling is retryable with Retry-After; 500 is retryable', async () => {
    server.push(
      jsonReply('{"message":"slow down"}', 429, {
        'x-amzn-errortype': `ThrottlingException${ERRORTYPE_SUFFIX}`,
        'retry-after': '4',
      }),
      jsonReply('{"message":"oops"}', 500, {
        'x-amzn-errortype': `InternalServerException${ERRORTYPE_SUFFIX}`,
      }),
    );
    expect(await failure(embedding().embedMany(['a']))).toMatchObject({
      status: 429,
      retryable: true,
      retryAfter: 4000,
    });
    expect(isRetryable(await failure(embedding().embedMany(['a'])))).toBe(true);
  });

  test('a redirect is never followed; an oversized body is refused', async () => {
    server.push(
      { status: 307, headers: { location: `${other.url}/model/x/invoke` } },
      titan(Array.from({ length: 1024 }, () => 0.5)),
    );
    expect(ModelRedirectError.is(await failure(embedding().embedMany(['a'])))).toBe(true);
    expect(other.requests).toEqual([]);
    const error = await failure(embedding({ maxResponseBytes: 100 }).embedMany(['a']));
    expect(ResponseTooLargeError.is(error)).toBe(true);
  });

  test('an abort mid-request rejects with the cancellation', async () => {
    server.push({ hold: true, headers: { 'content-type': 'application/json' } });
    const controller = new AbortController();
    const pending = embedding().embedMany(['a'], { signal: controller.signal });
    for (let i = 0; i < 10_000 && server.requests.length === 0; i++)
      await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(isCancellation(await failure(pending))).toBe(true);
  });
});

describe('bedrockRerank', () => {
  test('Cohere Rerank 3.5: {query, documents, top_n, api_version: 2}; most relevant first', async () => {
    server.push(
      jsonReply(
        JSON.stringify({
          id: 'rr-1',
          results: [
            { index: 2, relevance_score: 0.91 },
            { index: 0, relevance_score: 0.12 },
          ],
        }),
      ),
    );
    const model = reranker();
    expect(model.name).toBe('bedrock:cohere.rerank-v3-5:0');
    const result = await model.rerank('tides', ['sun', 'wind', 'moon'], { topK: 2 });
    expect(result.results).toEqual([
      { index: 2, score: 0.91 },
      { index: 0, score: 0.12 },
    ]);
    expect(server.requests[0]?.url).toBe('/model/cohere.rerank-v3-5%3A0/invoke');
    expect(server.requests[0]?.json).toEqual({
      query: 'tides',
      documents: ['sun', 'wind', 'moon'],
      top_n: 2,
      api_version: 2,
    });
  });

  test('Amazon Rerank sends no api_version; no documents, no call', async () => {
    server.push(jsonReply(JSON.stringify({ results: [{ index: 0, relevance_score: 0.5 }] })));
    const model = reranker('amazon.rerank-v1:0');
    await expect(model.rerank('q', [])).resolves.toEqual({
      results: [],
      usage: { inputTokens: 0 },
    });
    expect(server.requests).toEqual([]);
    await model.rerank('q', ['only']);
    expect(server.requests[0]?.json).toEqual({ query: 'q', documents: ['only'], top_n: 1 });
  });

  test('an index out of range, a duplicate or a missing score is a protocol error', async () => {
    const bodies = [
      [{ index: 5, relevance_score: 0.1 }],
      [
        { index: 0, relevance_score: 0.1 },
        { index: 0, relevance_score: 0.2 },
      ],
      [{ index: 1 }],
    ];
    for (const results of bodies) server.push(jsonReply(JSON.stringify({ results })));
    for (let i = 0; i < bodies.length; i++)
      expect(ModelProtocolError.is(await failure(reranker().rerank('q', ['a', 'b'])))).toBe(true);
  });

  test('an unknown rerank model is a ConfigError', () => {
    expect(() => reranker('cohere.command-r-v1:0')).toThrow(ConfigError);
  });
});
