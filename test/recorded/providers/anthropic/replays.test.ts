/**
 * Recorded Anthropic streams and turns outside the per-fixture suites: a05 replayed byte-exact,
 * the a09 thinking stream split at random offsets, and a08's signed thinking replayed by an Agent.
 */
import fc from 'fast-check';
import { Agent, type ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { encoder, splitAt, streamChunks } from '../../../src/providers/anthropic/chunked-fetch';
import { jsonReply, modelFor, sseReply } from '../../../src/providers/anthropic/support';
import { fixtureJson, fixtureText } from './recorded';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

test('a05 byte-exact (its message_stop frame lacks the closing blank line) completes: the stop reason and final usage arrived', async () => {
  server.push(sseReply(fixtureText('a05-tool-call-truncated-max-tokens.stream.sse')));
  const response = await modelFor(server).stream(request, () => undefined);
  expect(response.finishReason).toBe('length');
  expect(response.usage.outputTokens).toBe(124);
});

test('ADV-1 the recorded a09 thinking stream split at random offsets (fast-check) is unchanged', async () => {
  const a09 = encoder.encode(fixtureText('a09-thinking.stream.sse'));
  const whole = JSON.stringify(await streamChunks([a09]));
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: a09.length - 1 }), { minLength: 1, maxLength: 40 }),
      async (offsets) => {
        const split = await streamChunks(splitAt(a09, offsets));
        expect(JSON.stringify(split)).toBe(whole);
      },
    ),
    { numRuns: 150 },
  );
}, 30_000);

test('a continued conversation replays the signed thinking block of the earlier answer first', async () => {
  server.push(jsonReply(fixtureText('a08-thinking.json')), jsonReply(fixtureText('a01-text.json')));
  const agent = new Agent({
    model: modelFor(server),
    modelSettings: { thinking: { mode: 'enabled', budgetTokens: 1024 }, maxTokens: 4096 },
  });
  const first = await agent.run('How do I cross the street?');
  await agent.run('Thanks!', { history: first.messages });
  const recorded = fixtureJson('a08-thinking.json') as { content: unknown[] };
  const second = server.requests[1]?.json as { messages: unknown[]; thinking: unknown };
  expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  expect(second.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'How do I cross the street?' }] },
    { role: 'assistant', content: recorded.content },
    { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
  ]);
});
