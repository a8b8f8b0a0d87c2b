/**
 * The Anthropic adapter reports the `anthropic-ratelimit-*` headers of the response as
 * `ModelResponse.rateLimit` (issue 30), generating and streaming, against a loopback server.
 * Resets are RFC 3339 timestamps: one in the past reads 0 and one in 2100 saturates, whatever the
 * clock says; one an hour ahead reads as at most an hour.
 */
import type { ModelRequest } from 'golem';
import { MAX_TIMEOUT_MS } from '../../../../src/core/kit/timeouts';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, ownFixture, sseReply } from './support';

const hi: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const LIMITS = {
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '49',
  'anthropic-ratelimit-requests-reset': '2000-01-01T00:00:00Z',
  'anthropic-ratelimit-tokens-limit': '90000',
  'anthropic-ratelimit-tokens-remaining': '89000',
  'anthropic-ratelimit-tokens-reset': '2100-01-01T00:00:00Z',
  'anthropic-ratelimit-input-tokens-remaining': '1', // tokens-* wins
};
const EXPECTED = {
  limitRequests: 50,
  remainingRequests: 49,
  resetRequestsMs: 0,
  limitTokens: 90000,
  remainingTokens: 89000,
  resetTokensMs: MAX_TIMEOUT_MS,
};

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

test('generate: the headers become response.rateLimit', async () => {
  server.push(jsonReply(ownFixture('message-text.json'), 200, LIMITS));
  expect((await modelFor(server).generate(hi)).rateLimit).toEqual(EXPECTED);
});

test('stream: the headers of the initial response become response.rateLimit', async () => {
  const reply = sseReply(ownFixture('text.stream.sse'));
  server.push({ ...reply, headers: { ...reply.headers, ...LIMITS } });
  expect((await modelFor(server).stream(hi, () => undefined)).rateLimit).toEqual(EXPECTED);
});

test('a reset an hour ahead reads as at most an hour, from when the response arrived', async () => {
  const hour = 3_600_000;
  server.push(
    jsonReply(ownFixture('message-text.json'), 200, {
      'anthropic-ratelimit-requests-reset': new Date(Date.now() + hour).toISOString(),
    }),
  );
  const reset = (await modelFor(server).generate(hi)).rateLimit?.resetRequestsMs;
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(hour);
});

test('without tokens-*, the tighter of input/output; garbage dropped; no headers, no rateLimit', async () => {
  server.push(
    jsonReply(ownFixture('message-text.json'), 200, {
      'anthropic-ratelimit-requests-remaining': 'many',
      'anthropic-ratelimit-requests-reset': 'tomorrow',
      'anthropic-ratelimit-input-tokens-limit': '40000',
      'anthropic-ratelimit-input-tokens-remaining': '39000',
      'anthropic-ratelimit-output-tokens-limit': '8000',
      'anthropic-ratelimit-output-tokens-remaining': '100',
    }),
    jsonReply(ownFixture('message-text.json')),
    sseReply(ownFixture('text.stream.sse')),
  );
  expect((await modelFor(server).generate(hi)).rateLimit).toEqual({
    limitTokens: 8000,
    remainingTokens: 100,
  });
  expect(await modelFor(server).generate(hi)).not.toHaveProperty('rateLimit');
  expect(await modelFor(server).stream(hi, () => undefined)).not.toHaveProperty('rateLimit');
});
