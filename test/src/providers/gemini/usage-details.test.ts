/**
 * Detailed usage on the generateContent wire (documented `usageMetadata`): `promptTokenCount`
 * already includes `cachedContentTokenCount`; `thoughtsTokenCount` is counted apart from
 * `candidatesTokenCount` (and billed as output), so output is their sum with thoughts also
 * reported as reasoning; `toolUsePromptTokenCount` is input too. The `responseId` is kept.
 */
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, jsonReply, modelFor, request, sse, sseReply } from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const ask = request([userMessage('Summarise the handbook.')]);

test('generate: cached content, thoughts and tool-use prompt tokens in their places', async () => {
  server.push(
    jsonReply(
      chunk([{ text: 'Safety first.' }], {
        finishReason: 'STOP',
        usage: {
          promptTokenCount: 2100,
          cachedContentTokenCount: 2048,
          toolUsePromptTokenCount: 40,
          candidatesTokenCount: 12,
          thoughtsTokenCount: 300,
          totalTokenCount: 2452,
        },
      }),
    ),
  );
  const response = await modelFor(server).generate(ask);
  expect(response.usage).toEqual({
    inputTokens: 2140,
    outputTokens: 312,
    cacheReadTokens: 2048,
    reasoningTokens: 300,
  });
  // Input + output is the provider's own total.
  expect(response.usage.inputTokens + response.usage.outputTokens).toBe(2452);
  expect(response.responseId).toBe('resp-1');
});

test('stream: each field is its last reported value; the latest chunk names the response id', async () => {
  const first = chunk([{ text: 'Safety ' }], {
    usage: { promptTokenCount: 2100, cachedContentTokenCount: 2048 },
  });
  const last = chunk([{ text: 'first.' }], {
    finishReason: 'STOP',
    usage: {
      promptTokenCount: 2100,
      cachedContentTokenCount: 2048,
      candidatesTokenCount: 4,
      thoughtsTokenCount: 96,
    },
  });
  server.push(sseReply(sse({ ...first, responseId: 'resp-stream-9' }, last)));
  const response = await modelFor(server).stream(ask, () => undefined);
  expect(response.usage).toEqual({
    inputTokens: 2100,
    outputTokens: 100,
    cacheReadTokens: 2048,
    reasoningTokens: 96,
  });
  expect(response.responseId).toBe('resp-1');
});

test('no thoughts and no cache: the usage carries no details', async () => {
  server.push(
    jsonReply(
      chunk([{ text: 'ok' }], {
        finishReason: 'STOP',
        usage: { promptTokenCount: 5, candidatesTokenCount: 1, cachedContentTokenCount: 0 },
      }),
    ),
  );
  expect((await modelFor(server).generate(ask)).usage).toEqual({ inputTokens: 5, outputTokens: 1 });
});
