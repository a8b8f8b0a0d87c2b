/**
 * Nothing is retained after a Gemini call (issue 12): with the default 5-minute timeout, a
 * completed or failed generate or stream leaves no timer running and no listener on the
 * caller's signal, however many calls share that signal.
 */
import { getEventListeners } from 'node:events';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { timersLeftBy } from '../../../support/timer-probe';
import { chunk, jsonReply, modelFor, request, sse, sseReply } from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const ask = request([userMessage('hi')]);
const answer = chunk([{ text: 'Hello.' }], {
  finishReason: 'STOP',
  usage: { promptTokenCount: 5, candidatesTokenCount: 3 },
});

const caller = new AbortController();
const options = { signal: caller.signal };

/** Runs `call`; no timer it started may be pending and no listener left on the caller's signal. */
async function leavesNothing(call: () => Promise<unknown>): Promise<void> {
  expect(await timersLeftBy(call)).toBe(0);
  expect(getEventListeners(caller.signal, 'abort')).toEqual([]);
}

test('a completed generate', async () => {
  server.push(jsonReply(answer));
  await leavesNothing(async () => {
    expect((await modelFor(server).generate(ask, options)).message.content).toBe('Hello.');
  });
});

test('a completed stream', async () => {
  server.push(sseReply(sse(answer)));
  await leavesNothing(async () => {
    const response = await modelFor(server).stream(ask, () => undefined, options);
    expect(response.message.content).toBe('Hello.');
  });
});

test('a stream completed while the server holds the connection', async () => {
  server.push({ ...sseReply(sse(answer)), hold: true });
  await leavesNothing(async () => {
    const response = await modelFor(server).stream(ask, () => undefined, options);
    expect(response.message.content).toBe('Hello.');
  });
});

test('a failed generate (HTTP 500, its error body read under a deadline)', async () => {
  server.push(jsonReply({ error: { code: 500, message: 'boom', status: 'INTERNAL' } }, 500));
  await leavesNothing(() =>
    expect(modelFor(server).generate(ask, options)).rejects.toThrow('boom'),
  );
});

test('an interrupted stream', async () => {
  server.push(sseReply(sse(chunk([{ text: 'Hel' }])), true));
  await leavesNothing(() =>
    expect(modelFor(server).stream(ask, () => undefined, options)).rejects.toThrow(
      'stream interrupted',
    ),
  );
});

test('a stream whose delta handler throws', async () => {
  server.push(sseReply(sse(answer)));
  const failing = (): never => {
    throw new Error('handler failed');
  };
  await leavesNothing(() =>
    expect(modelFor(server).stream(ask, failing, options)).rejects.toThrow('handler failed'),
  );
});
