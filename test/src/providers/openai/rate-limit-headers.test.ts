/**
 * The OpenAI chat-completions adapter reports the `x-ratelimit-*` headers of the response as
 * `ModelResponse.rateLimit` (issue 30), generating and streaming, against a loopback server.
 */
import type { ModelRequest } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { SSE } from './boundary-support';
import { chunk, completion, sse, usageChunk } from './support';

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const JSON_TYPE = { 'content-type': 'application/json' };
const LIMITS = {
  'x-ratelimit-limit-requests': '5000',
  'x-ratelimit-remaining-requests': '4999',
  'x-ratelimit-reset-requests': '12ms',
  'x-ratelimit-limit-tokens': '160000',
  'x-ratelimit-remaining-tokens': '159976',
  'x-ratelimit-reset-tokens': '1m30s',
};
const EXPECTED = {
  limitRequests: 5000,
  remainingRequests: 4999,
  resetRequestsMs: 12,
  limitTokens: 160000,
  remainingTokens: 159976,
  resetTokensMs: 90_000,
};
const streamBody = sse([chunk({ content: 'ok' }), chunk({}, 'stop'), usageChunk(1, 1)]);

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model() {
  return openai({ model: 'gpt-4o', preset: 'openai', apiKey: 'sk-test', baseURL: server.url });
}

test('generate: the headers become response.rateLimit', async () => {
  server.push({
    headers: { ...JSON_TYPE, ...LIMITS },
    body: JSON.stringify(completion({ content: 'ok' })),
  });
  const response = await model().generate(hi);
  expect(response.message.content).toBe('ok');
  expect(response.rateLimit).toEqual(EXPECTED);
});

test('stream: the headers of the initial response become response.rateLimit', async () => {
  server.push({ headers: { ...SSE, ...LIMITS }, body: streamBody });
  const response = await model().stream(hi, () => undefined);
  expect(response.message.content).toBe('ok');
  expect(response.rateLimit).toEqual(EXPECTED);
});

test('malformed values are dropped one by one; no headers, no rateLimit', async () => {
  server.push(
    {
      headers: {
        ...JSON_TYPE,
        'x-ratelimit-remaining-requests': 'lots',
        'x-ratelimit-reset-requests': 'soon',
        'x-ratelimit-remaining-tokens': '7',
      },
      body: JSON.stringify(completion({ content: 'ok' })),
    },
    { headers: JSON_TYPE, body: JSON.stringify(completion({ content: 'ok' })) },
    { headers: SSE, body: streamBody },
  );
  expect((await model().generate(hi)).rateLimit).toEqual({ remainingTokens: 7 });
  expect(await model().generate(hi)).not.toHaveProperty('rateLimit');
  expect(await model().stream(hi, () => undefined)).not.toHaveProperty('rateLimit');
});
