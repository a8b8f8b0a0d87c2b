/**
 * `queue.result(runId)` waits for the run's latest segment: called right after `decide` (or
 * `recover`), it answers with the resumed run's outcome, never with the pause just decided — while
 * the resume waits for a worker, and while a worker runs it. Real Redis, real workers.
 */
import { Agent, defineTool } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { Harness } from './harness';
import { harness } from './harness';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

/** Resolves the next time `open()` is called; a fresh one for each wait. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function payAgent(transfer: () => Promise<string>): Agent<unknown, string, true> {
  return new Agent({
    name: 'pay',
    deferredTools: true,
    tools: [
      defineTool({
        name: 'transfer',
        description: 'Move money',
        schema: { type: 'object', properties: {} },
        approval: true,
        execute: transfer,
      }),
    ],
    model: new FunctionModel((request) =>
      request.messages.some((m) => m.role === 'tool')
        ? textResponse('paid')
        : toolCallResponse([{ id: 't1', name: 'transfer', args: {} }]),
    ),
  });
}

test('while the resume waits for a worker, result waits for it instead of answering with the old pause', async () => {
  h = await harness();
  const pay = payAgent(() => Promise.resolve('moved'));
  const first = await h.worker({ agents: [pay] });
  const { runId } = await h.queue.enqueue('pay', 'pay the invoice');
  expect((await h.queue.result(runId)).status).toBe('paused');
  await first.close(); // no worker now: the resume waits in the queue, the store still says paused
  await h.queue.decide(runId, { approvals: { t1: { approved: true } } });
  const outcome = h.queue.result(runId);
  await h.worker({ agents: [pay] });
  const settled = await outcome;
  expect(settled.status).toBe('completed');
  expect(settled.status === 'completed' ? settled.output : undefined).toBe('paid');
});

test('while a worker runs the resume, result waits for it instead of failing with invalid-state', async () => {
  h = await harness();
  const started = gate();
  const release = gate();
  let calls = 0;
  const pay = payAgent(async () => {
    calls++;
    started.open();
    await release.promise;
    return 'moved';
  });
  await h.worker({ agents: [pay] });
  const { runId } = await h.queue.enqueue('pay', 'pay the invoice');
  expect((await h.queue.result(runId)).status).toBe('paused');
  await h.queue.decide(runId, { approvals: { t1: { approved: true } } });
  await started.promise; // the approved call runs in the worker: the store says running
  // The tool finishes only once `result` has read the run's status (running) at least once.
  const status = h.queue.status.bind(h.queue);
  const read = jest.spyOn(h.queue, 'status').mockImplementation(async (...args) => {
    const report = await status(...args);
    release.open();
    return report;
  });
  const settled = await h.queue.result(runId);
  expect(read.mock.calls.length).toBeGreaterThanOrEqual(2); // read running, then settled
  expect(settled.status).toBe('completed');
  expect(calls).toBe(1);
});
