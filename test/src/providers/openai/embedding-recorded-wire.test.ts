/**
 * Recorded wire: our own golem-format fixture of two OpenAI `/embeddings` exchanges (written from
 * the documented wire format; the second item of the first answer comes first, by `index`),
 * replayed offline through `replayFetch` — request bodies must match the recording.
 */
import { join } from 'node:path';
import { openaiEmbedding } from 'golem/providers/openai';
import { replayFetch } from 'golem/testing';

test('replays into the decoded vectors, in input order, with summed usage', async () => {
  const replay = replayFetch(join(__dirname, 'fixtures', 'embeddings.replay.json'));
  const model = openaiEmbedding({
    model: 'text-embedding-3-small',
    apiKey: 'sk-replay-not-real',
    dimensions: 4,
    maxBatch: 2,
    fetch: replay,
  });
  const result = await model.embedMany([
    'Tides follow the moon.',
    'Bees dance to share directions.',
    'Why is the sea salty?',
  ]);
  replay.assertDone();
  expect(result).toEqual({
    embeddings: [
      [0.532108, -0.211437, 0.701256, 0.42019],
      [-0.412693, 0.180244, 0.66231, -0.597128],
      [0.611802, 0.09831, 0.522704, -0.585377],
    ],
    usage: { inputTokens: 18 },
    requests: 2,
  });
});
