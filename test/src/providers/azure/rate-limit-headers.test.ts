/**
 * Azure OpenAI reports the `x-ratelimit-*` headers of the response as `ModelResponse.rateLimit`
 * (issue 30), generating and streaming, against a loopback server.
 */
import type { ModelRequest } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { azure } from 'golem/providers/azure';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, completion, sse, usageChunk } from '../openai/support';

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const LIMITS = {
  'x-ratelimit-limit-requests': '1000',
  'x-ratelimit-remaining-requests': '998',
  'x-ratelimit-reset-requests': '6s',
  'x-ratelimit-limit-tokens': '120000',
  'x-ratelimit-remaining-tokens': '118000',
  'x-ratelimit-reset-tokens': '1h0m0s',
};
const EXPECTED = {
  limitRequests: 1000,
  remainingRequests: 998,
  resetRequestsMs: 6000,
  limitTokens: 120000,
  remainingTokens: 118000,
  resetTokensMs: 3_600_000,
};

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model() {
  return azure({
    deployment: 'gpt-4o',
    apiVersion: '2024-10-21',
    apiKey: 'key-123456',
    endpoint: server.url,
  });
}

test('generate: the headers become response.rateLimit', async () => {
  server.push({
    headers: { 'content-type': 'application/json', ...LIMITS },
    body: JSON.stringify(completion({ content: 'ok' })),
  });
  expect((await model().generate(hi)).rateLimit).toEqual(EXPECTED);
});

test('stream: the headers of the initial response become response.rateLimit', async () => {
  server.push(
    {
      headers: { 'content-type': 'text/event-stream', ...LIMITS },
      body: sse([chunk({ content: 'ok' }), chunk({}, 'stop'), usageChunk(1, 1)]),
    },
    {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(completion({ content: 'ok' })),
    },
  );
  const response = await model().stream(hi, () => undefined);
  expect(response.message.content).toBe('ok');
  expect(response.rateLimit).toEqual(EXPECTED);
  expect(await model().generate(hi)).not.toHaveProperty('rateLimit');
});
