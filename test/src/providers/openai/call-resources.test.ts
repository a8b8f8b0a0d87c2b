/**
 * Nothing is retained after a call (issue 12): with the default 5-minute timeout, a completed or
 * failed `generate` or `stream` leaves no timer keeping the process alive and no listener on the
 * caller's long-lived signal. Timers are counted with `timersLeftBy` (the timers the call created
 * that are still pending), not `process.getActiveResourcesInfo()`, which Jest's own reporter
 * timers make fluctuate when a file runs in band.
 */
import { type ModelRequest } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import { SSE, abortListeners, failure, timersLeftBy } from './boundary-support';
import { chunk, completion, sse, usageChunk } from './support';

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const model = () =>
  openai({ model: 'm', preset: 'openai', apiKey: 'sk-test', baseURL: server.url });
const json: Reply = { body: JSON.stringify(completion({ content: 'ok' })) };
const stream: Reply = {
  headers: SSE,
  body: sse([chunk({ content: 'ok' }, 'stop'), usageChunk(1, 1)]),
};

test.each([
  ['a completed generate', json, (signal: AbortSignal) => model().generate(hi, { signal })],
  [
    'a completed stream',
    stream,
    (signal: AbortSignal) => model().stream(hi, () => undefined, { signal }),
  ],
  [
    'a failed generate',
    { status: 500, body: '{"error":{"message":"boom"}}' },
    (signal: AbortSignal) => failure(model().generate(hi, { signal })),
  ],
  [
    'a failed stream',
    { headers: SSE, chunks: [sse([chunk({ content: 'o' })], false)], reset: true },
    (signal: AbortSignal) => failure(model().stream(hi, () => undefined, { signal })),
  ],
  [
    'a stream whose handler throws',
    stream,
    (signal: AbortSignal) =>
      failure(
        model().stream(
          hi,
          () => {
            throw new Error('handler');
          },
          { signal },
        ),
      ),
  ],
])('%s leaves no timer and no listener on the caller signal', async (_, reply, call) => {
  server.push(json, reply);
  await model().generate(hi); // warm the connection pool first
  const caller = new AbortController();
  expect(await timersLeftBy(() => call(caller.signal))).toBe(0);
  expect(abortListeners(caller.signal)).toBe(0);
});

test('many calls on one long-lived signal do not pile up listeners or timers', async () => {
  const caller = new AbortController();
  for (let i = 0; i < 5; i++) server.push(json, stream);
  const left = await timersLeftBy(async () => {
    for (let i = 0; i < 5; i++) {
      await model().generate(hi, { signal: caller.signal });
      await model().stream(hi, () => undefined, { signal: caller.signal });
    }
  });
  expect(left).toBe(0);
  expect(abortListeners(caller.signal)).toBe(0);
});

test('while a call runs, its timer and listener exist (the measure sees them)', async () => {
  server.push({ headers: SSE, chunks: [sse([chunk({ content: 'a' })], false)], hold: true });
  const caller = new AbortController();
  let during: number[] = [];
  const left = await timersLeftBy((timers) =>
    failure(
      model().stream(
        hi,
        () => {
          during = [timers(), abortListeners(caller.signal)];
          caller.abort();
        },
        { signal: caller.signal },
      ),
    ),
  );
  expect(during).toEqual([1, 1]);
  expect([left, abortListeners(caller.signal)]).toEqual([0, 0]);
});
