/**
 * Opt-in live test of the record/replay kit: records a real exchange with each provider whose key
 * is set (generate and stream), checks that the key never reached the file, and replays the file
 * offline through the same adapter into the identical response. The default jest run never picks
 * this file up (its testMatch is `*.test.ts`). Run it with one or more keys:
 *
 *   OPENAI_API_KEY=… ANTHROPIC_API_KEY=… GEMINI_API_KEY=… npm run test:live -- test/live/record-replay
 *
 * Bedrock joins with `AWS_REGION` and credentials the AWS SDK can resolve (`AWS_PROFILE` or
 * `AWS_ACCESS_KEY_ID`); `BEDROCK_MODEL_ID` picks the model (default `us.amazon.nova-micro-v1:0`).
 * `GOLEM_FIXTURE_DIR` keeps the recordings there (default: a temporary folder). Without any
 * credentials the file registers one test that states so, and sends nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Delta, FetchLike, ModelRequest, ModelResponse, StreamingModel } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { bedrock } from 'golem/providers/bedrock';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import { recordingFetch, recordingHandler, replayFetch, replayHandler } from 'golem/testing';

const dir = process.env.GOLEM_FIXTURE_DIR ?? mkdtempSync(join(tmpdir(), 'golem-live-fixtures-'));
const request: ModelRequest = {
  messages: [{ role: 'user', content: 'Count from 1 to 5, comma separated.' }],
  tools: [],
};

interface Provider {
  name: string;
  key: string;
  build(fetch: FetchLike, key: string): StreamingModel;
}

const all: Provider[] = [
  {
    name: 'openai',
    key: process.env.OPENAI_API_KEY ?? '',
    build: (fetch, apiKey) =>
      openai({ model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini', apiKey, fetch }),
  },
  {
    name: 'anthropic',
    key: process.env.ANTHROPIC_API_KEY ?? '',
    build: (fetch, apiKey) =>
      anthropic({ model: process.env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5', apiKey, fetch }),
  },
  {
    name: 'gemini',
    key: process.env.GEMINI_API_KEY ?? '',
    build: (fetch, apiKey) =>
      gemini({ model: process.env.GEMINI_MODEL ?? 'gemini-2.5-flash', apiKey, fetch }),
  },
];
const providers = all.filter((p) => p.key !== '');

const region = process.env.AWS_REGION ?? '';
const awsCredentials =
  (process.env.AWS_ACCESS_KEY_ID ?? '') !== '' || (process.env.AWS_PROFILE ?? '') !== '';

async function call(
  model: StreamingModel,
  mode: 'generate' | 'stream',
): Promise<{ response: ModelResponse; deltas: Delta[] }> {
  const deltas: Delta[] = [];
  const response =
    mode === 'generate'
      ? await model.generate(request)
      : await model.stream(request, (delta) => {
          deltas.push(delta);
        });
  return { response, deltas };
}

if (providers.length === 0 && (region === '' || !awsCredentials)) {
  test('no provider credentials are set: the record/replay live test sends nothing', () => {
    expect(providers).toEqual([]);
  });
}

for (const provider of providers) {
  describe(`live record/replay: ${provider.name}`, () => {
    jest.setTimeout(120_000);

    test.each(['generate', 'stream'] as const)(
      '%s: recorded live without the key, replayed offline into the same response',
      async (mode) => {
        const file = join(dir, `${provider.name}-${mode}.json`);
        const recorder = recordingFetch({ file });
        const live = await call(provider.build(recorder, provider.key), mode);
        await recorder.settled();
        expect(readFileSync(file, 'utf8')).not.toContain(provider.key);

        const replay = replayFetch(file);
        const replayed = await call(provider.build(replay, 'replay-only'), mode);
        expect(replayed).toEqual(live);
        replay.assertDone();
      },
    );
  });
}

if (region !== '' && awsCredentials) {
  describe('live record/replay: bedrock', () => {
    jest.setTimeout(120_000);
    const model = process.env.BEDROCK_MODEL_ID ?? 'us.amazon.nova-micro-v1:0';

    test.each(['generate', 'stream'] as const)(
      '%s: recorded live without credentials, replayed offline into the same response',
      async (mode) => {
        const file = join(dir, `bedrock-${mode}.json`);
        const recorder = recordingHandler({ handler: new NodeHttpHandler(), file });
        const liveModel = bedrock({ model, region, client: { requestHandler: recorder } });
        const offline = bedrock({
          model,
          region,
          credentials: { accessKeyId: 'replay', secretAccessKey: 'replay' },
          client: { requestHandler: replayHandler(file) },
        });
        try {
          const live = await call(liveModel, mode);
          await recorder.settled();
          expect(readFileSync(file, 'utf8')).not.toMatch(/AWS4-HMAC-SHA256|x-amz-security-token/i);
          expect(await call(offline, mode)).toEqual(live);
        } finally {
          liveModel.destroy();
          offline.destroy();
        }
      },
    );
  });
}
