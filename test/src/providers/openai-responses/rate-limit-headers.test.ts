/**
 * The OpenAI Responses adapter reports the `x-ratelimit-*` headers of the response as
 * `ModelResponse.rateLimit` (issue 30), generating and streaming, against a loopback server.
 */
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { ask, fixture, jsonReply, modelFor, sseReply } from './support';

const LIMITS = {
  'x-ratelimit-limit-requests': '30000',
  'x-ratelimit-remaining-requests': '29999',
  'x-ratelimit-reset-requests': '2ms',
  'x-ratelimit-limit-tokens': '150000000',
  'x-ratelimit-remaining-tokens': '149999000',
  'x-ratelimit-reset-tokens': '0s',
};
const EXPECTED = {
  limitRequests: 30000,
  remainingRequests: 29999,
  resetRequestsMs: 2,
  limitTokens: 150000000,
  remainingTokens: 149999000,
  resetTokensMs: 0,
};

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

test('generate: the headers become response.rateLimit', async () => {
  server.push({
    headers: { 'content-type': 'application/json', ...LIMITS },
    body: fixture('response-text.json'),
  });
  expect((await modelFor(server).generate(ask('hi'))).rateLimit).toEqual(EXPECTED);
});

test('stream: the headers of the initial response become response.rateLimit', async () => {
  server.push({
    headers: { 'content-type': 'text/event-stream; charset=utf-8', ...LIMITS },
    body: fixture('text.stream.sse'),
  });
  const response = await modelFor(server).stream(ask('hi'), () => undefined);
  expect(response.message.content).toBeTruthy();
  expect(response.rateLimit).toEqual(EXPECTED);
});

test('no headers, no rateLimit', async () => {
  server.push(jsonReply('response-text.json'), sseReply('text.stream.sse'));
  expect(await modelFor(server).generate(ask('hi'))).not.toHaveProperty('rateLimit');
  expect(await modelFor(server).stream(ask('hi'), () => undefined)).not.toHaveProperty('rateLimit');
});
