/**
 * Recorded wire: our own golem-format fixture of one Gemini `batchEmbedContents` exchange (two
 * queries, `outputDimensionality: 8`), replayed offline through `replayFetch`.
 */
import { join } from 'node:path';
import { geminiEmbedding } from 'golem/providers/gemini';
import { loadFixture, replayFetch } from 'golem/testing';

const FILE = join(__dirname, 'fixtures', 'embeddings.replay.json');

test('replays into the recorded vectors; Gemini reports no usage', async () => {
  const replay = replayFetch(FILE);
  const model = geminiEmbedding({
    model: 'gemini-embedding-001',
    apiKey: 'AIza-replay-not-real',
    outputDimensionality: 8,
    fetch: replay,
  });
  const result = await model.embedMany(['How do tides work?', 'What makes bees dance?'], {
    purpose: 'query',
  });
  replay.assertDone();
  const body = loadFixture(FILE).exchanges[0]?.response.body as {
    embeddings: { values: number[] }[];
  };
  expect(result).toEqual({
    embeddings: body.embeddings.map((e) => e.values),
    usage: { inputTokens: 0 },
    requests: 1,
  });
  expect(result.embeddings[0]).toHaveLength(8);
});
