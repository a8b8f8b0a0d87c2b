/**
 * Recorded wire: our own golem-format fixture of one Azure OpenAI embeddings exchange
 * (deployment URL with `api-version`), replayed offline through `replayFetch`.
 */
import { join } from 'node:path';
import { azureEmbedding } from 'golem/providers/azure';
import { replayFetch } from 'golem/testing';

test('replays into the decoded vector and usage', async () => {
  const replay = replayFetch(join(__dirname, 'fixtures', 'embeddings.replay.json'));
  const model = azureEmbedding({
    resourceName: 'golem-test',
    deployment: 'embed-small',
    apiVersion: '2024-10-21',
    apiKey: 'azure-replay-not-real',
    fetch: replay,
  });
  const result = await model.embed('Tides follow the moon.');
  replay.assertDone();
  expect(result).toEqual({
    embedding: [0.012871, -0.043509, 0.027731, 0.008214, -0.019655],
    usage: { inputTokens: 6 },
  });
});
