/**
 * Nothing is retained after an Anthropic call (issue 12): with the default 5-minute timeout, a
 * completed or failed generate or stream leaves no timer running and no listener on the
 * caller's signal, however many calls share that signal.
 */
import { getEventListeners } from 'node:events';
import type { ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { timersLeftBy } from '../../../support/timer-probe';
import { jsonReply, modelFor, sse, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const answer = JSON.stringify({
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content: [{ type: 'text', text: 'Hello.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 5, output_tokens: 3 },
});
const streamed = sse(
  { type: 'message_start', message: { model: 'claude-test', usage: { input_tokens: 5 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hello.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
);

const caller = new AbortController();
const options = { signal: caller.signal };

/** Runs `call`; no timer it started may be pending and no listener left on the caller's signal. */
async function leavesNothing(call: () => Promise<unknown>): Promise<void> {
  expect(await timersLeftBy(call)).toBe(0);
  expect(getEventListeners(caller.signal, 'abort')).toEqual([]);
}

test('the probe sees a timer a call leaves behind', async () => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const left = await timersLeftBy(() => {
    timer = setTimeout(() => undefined, 300_000);
    return Promise.resolve();
  });
  clearTimeout(timer);
  expect(left).toBe(1);
});

test('a completed generate', async () => {
  server.push(jsonReply(answer));
  await leavesNothing(async () => {
    expect((await modelFor(server).generate(request, options)).message.content).toBe('Hello.');
  });
});

test('a completed stream', async () => {
  server.push(sseReply(streamed));
  await leavesNothing(async () => {
    const response = await modelFor(server).stream(request, () => undefined, options);
    expect(response.message.content).toBe('Hello.');
  });
});

test('a stream completed while the server holds the connection', async () => {
  server.push({ ...sseReply([streamed]), hold: true });
  await leavesNothing(async () => {
    const response = await modelFor(server).stream(request, () => undefined, options);
    expect(response.message.content).toBe('Hello.');
  });
});

test('a failed generate (HTTP 500, its error body read under a deadline)', async () => {
  server.push(jsonReply('{"type":"error","error":{"type":"api_error","message":"boom"}}', 500));
  await leavesNothing(() =>
    expect(modelFor(server).generate(request, options)).rejects.toThrow('boom'),
  );
});

test('an interrupted stream', async () => {
  server.push({ ...sseReply([streamed.slice(0, 120)]), reset: true });
  await leavesNothing(() =>
    expect(modelFor(server).stream(request, () => undefined, options)).rejects.toThrow(
      'stream interrupted',
    ),
  );
});

test('a stream whose delta handler throws', async () => {
  server.push(sseReply(streamed));
  const failing = (): never => {
    throw new Error('handler failed');
  };
  await leavesNothing(() =>
    expect(modelFor(server).stream(request, failing, options)).rejects.toThrow('handler failed'),
  );
});
