/**
 * Recorded wire: our own golem-format fixture of Bedrock InvokeModel exchanges (two Titan Text
 * Embeddings V2 calls, one Cohere Rerank 3.5 call), served by `replayHandler` to the real SDK
 * client (SigV4 signing with fake credentials, request bodies matched against the recording).
 */
import { join } from 'node:path';
import { bedrockEmbedding, bedrockRerank } from 'golem/providers/bedrock';
import { loadFixture, replayHandler } from 'golem/testing';
import { CREDENTIALS } from './support';

const FILE = join(__dirname, 'fixtures', 'embeddings.replay.json');
const COMMON = {
  region: 'us-east-1',
  endpoint: 'https://bedrock-runtime.us-east-1.amazonaws.com',
  credentials: CREDENTIALS,
};

test('replays Titan embeddings (one call per value) and a Cohere rerank', async () => {
  const replay = replayHandler(FILE);
  const embedding = bedrockEmbedding({
    ...COMMON,
    model: 'amazon.titan-embed-text-v2:0',
    dimensions: 256,
    normalize: true,
    client: { requestHandler: replay },
  });
  const reranker = bedrockRerank({
    ...COMMON,
    model: 'cohere.rerank-v3-5:0',
    client: { requestHandler: replay },
  });
  try {
    const result = await embedding.embedMany(['Tides follow the moon.', 'Bees dance.']);
    const ranked = await reranker.rerank(
      'what pulls the tides?',
      ['Bees dance.', 'The moon pulls the oceans.', 'Bread needs yeast.'],
      { topK: 2 },
    );
    replay.assertDone();
    const recorded = loadFixture(FILE).exchanges.map((e) => e.response.body);
    expect(result).toEqual({
      embeddings: recorded.slice(0, 2).map((body) => (body as { embedding: number[] }).embedding),
      usage: { inputTokens: 11 },
      requests: 2,
    });
    expect(ranked).toEqual({
      results: [
        { index: 1, score: 0.871245 },
        { index: 0, score: 0.031877 },
      ],
      usage: { inputTokens: 0 },
    });
  } finally {
    embedding.destroy();
    reranker.destroy();
  }
});
