/** ADV-1 (adversarial-cases.md) on recorded OpenAI and Azure streams: any byte split, same result. */
import fc from 'fast-check';
import { type ModelRequest, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { azure } from 'golem/providers/azure';
import { openai } from 'golem/providers/openai';
import { chunkedFetch, collector, splitAt } from '../../../src/providers/openai/support';
import { fixtureBytes } from './recorded';

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

type Streamer = (parts: Uint8Array[]) => Promise<{ response: ModelResponse; text: string }>;

const viaOpenAI: Streamer = async (parts) => {
  const c = collector();
  const model = openai({
    model: 'm',
    preset: 'openai',
    apiKey: 'sk-test',
    fetch: chunkedFetch(parts),
  });
  const response = await model.stream(hi, c.onDelta);
  return { response, text: c.text() };
};

const viaAzure: Streamer = async (parts) => {
  const c = collector();
  const model = azure({
    endpoint: 'https://contoso.openai.azure.com',
    deployment: 'gpt-5-mini',
    apiVersion: 'v1',
    apiKey: 'key-123456',
    fetch: chunkedFetch(parts),
  });
  const response = await model.stream(hi, c.onDelta);
  return { response, text: c.text() };
};

async function sameForAnySplit(recorded: Uint8Array, run: Streamer): Promise<ModelResponse> {
  const reference = await run([recorded]);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: recorded.length - 1 }), { maxLength: 60 }),
      async (offsets) => {
        expect(await run(splitAt(recorded, offsets))).toEqual(reference);
      },
    ),
    { numRuns: 100 },
  );
  return reference.response;
}

test('fast-check on the recorded o05 fixture: same tool calls for any split', async () => {
  const recorded = new Uint8Array(fixtureBytes('openai', 'o05-parallel-tool-calls.stream.sse'));
  await sameForAnySplit(recorded, viaOpenAI);
});

test('ADV-1 fast-check splits of the recorded z05 Azure tool-call stream', async () => {
  const recorded = new Uint8Array(fixtureBytes('azure', 'z05-parallel-tool-calls.stream.sse'));
  const response = await sameForAnySplit(recorded, viaAzure);
  expect(response.message.toolCalls).toHaveLength(2);
});
