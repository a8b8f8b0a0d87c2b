/**
 * Golem Studio with a real run queue (golem/queue on the machine's Redis, a SQLite store, an
 * in-process worker): run details show the queue state, a decision posted to the studio is
 * executed by the worker (the approved tool runs once; the studio has no agent), cancel ends a
 * running run `cancelled`, and another owner's runs are 404. A unique key prefix per test; every
 * key deleted after.
 */
import { Agent, defineTool, loadRun } from 'golem';
import type { RunFeedEvent } from 'golem/queue';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { RunDetail, StartedRun, StudioInfo } from '../../src/studio/api-types';
import { call, serve, type Served } from '../studio/studio-harness';
import { harness, type Harness } from './queue/harness';

jest.setTimeout(30_000);

let h: Harness | undefined;
let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  served = undefined;
  await h?.close();
  h = undefined;
});

/** `pay` needs an approval for `transfer`; `wait` blocks until its run is aborted. */
function agents(effects: string[]) {
  const transfer = defineTool({
    name: 'transfer',
    description: 'Move money',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => {
      effects.push('transferred');
      return 'moved';
    },
  });
  const wait = defineTool({
    name: 'wait',
    description: 'Wait',
    schema: { type: 'object', properties: {} },
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        effects.push('wait started');
        ctx.signal.addEventListener('abort', () => {
          reject(ctx.signal.reason as Error);
        });
      }),
  });
  const model = new FunctionModel((request) => {
    if (request.messages.some((m) => m.role === 'tool')) return textResponse('paid');
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    return prompt === 'block'
      ? toolCallResponse([{ id: 'w1', name: 'wait', args: {} }])
      : toolCallResponse([{ id: 't1', name: 'transfer', args: {} }]);
  });
  return [new Agent({ name: 'pay', model, tools: [transfer, wait], deferredTools: true })];
}

async function until(
  events: AsyncIterable<{ event: RunFeedEvent }>,
  match: (e: RunFeedEvent) => boolean,
): Promise<void> {
  for await (const { event } of events) if (match(event)) return;
  throw new Error('the feed settled first');
}

test('a decision through the studio is executed by a worker: the run completes, the tool ran once', async () => {
  h = await harness();
  const effects: string[] = [];
  await h.worker({ agents: agents(effects) });
  const { runId, lane } = await h.queue.enqueue('pay', 'pay Bob', { owner: 'ann' });
  const theirs = await h.queue.enqueue('pay', 'pay Ann', { owner: 'bob' });
  expect(await h.queue.result(runId)).toMatchObject({ status: 'paused' });
  expect(await h.queue.result(theirs.runId)).toMatchObject({ status: 'paused' });

  served = await serve({ store: h.store, queue: h.queue, owner: 'ann' }); // no agents: workers run
  expect((await call(served, '/api/info')).json<StudioInfo>().features.queue).toBe(true);
  const paused = (await call(served, `/api/runs/${runId}`)).json<RunDetail>();
  expect(paused.summary.status).toBe('paused');
  expect(paused.queue).toMatchObject({ state: 'paused', job: { lane } });
  expect(paused.actions).toEqual({ decide: true, resume: false, replay: false, cancel: false });

  // another owner's run: invisible, and nothing happens to it
  expect((await call(served, `/api/runs/${theirs.runId}`)).status).toBe(404);
  const refused = await call(served, `/api/runs/${theirs.runId}/decisions`, {
    method: 'POST',
    body: { approvals: { t1: { approved: true } } },
  });
  expect(refused.status).toBe(404);
  const notCancelled = await call(served, `/api/runs/${theirs.runId}/cancel`, {
    method: 'POST',
    body: {},
  });
  expect(notCancelled.status).toBe(404);

  const wrong = await call(served, `/api/runs/${runId}/decisions`, {
    method: 'POST',
    body: { approvals: { nope: { approved: true } } },
  });
  expect(wrong.status).toBe(400); // the queue checks decisions against the pending calls
  const answer = await call(served, `/api/runs/${runId}/decisions`, {
    method: 'POST',
    body: { approvals: { t1: { approved: true } } },
  });
  expect(answer.status).toBe(202);
  expect(answer.json<StartedRun>()).toEqual({ runId });
  expect(await h.queue.result(runId)).toMatchObject({ status: 'completed', output: 'paid' });
  expect(effects).toEqual(['transferred']);

  const done = (await call(served, `/api/runs/${runId}`)).json<RunDetail>();
  expect(done.summary.status).toBe('completed');
  expect(done.queue?.state).toBe('completed');
  expect(done.actions.cancel).toBe(false);
  expect((await loadRun(h.store, theirs.runId)).status).toBe('paused');
  expect(await h.queue.status(theirs.runId)).toMatchObject({ state: 'paused' });
  expect(served.errors).toEqual([]);
  expect(h.errors).toEqual([]);
});

test('cancel through the studio ends a running run cancelled; its evidence is kept', async () => {
  h = await harness();
  const effects: string[] = [];
  await h.worker({ agents: agents(effects) });
  const { runId } = await h.queue.enqueue('pay', 'block');
  await until(h.queue.events(runId), (e) => e.type === 'event' && e.event.kind === 'tool_start');

  served = await serve({ store: h.store, queue: h.queue });
  const running = (await call(served, `/api/runs/${runId}`)).json<RunDetail>();
  expect(running.queue).toMatchObject({ state: 'running', job: { state: 'active' } });
  expect(running.actions.cancel).toBe(true);

  const answer = await call(served, `/api/runs/${runId}/cancel`, {
    method: 'POST',
    body: { reason: 'too slow' },
  });
  expect(answer.status).toBe(202);
  expect(await h.queue.result(runId)).toMatchObject({ status: 'cancelled', reason: 'too slow' });
  expect(effects).toEqual(['wait started']);

  const cancelled = (await call(served, `/api/runs/${runId}`)).json<RunDetail>();
  expect(cancelled.summary.status).toBe('failed');
  expect(cancelled.summary.error?.message).toContain('too slow');
  expect(cancelled.queue).toMatchObject({ state: 'cancelled', cancelReason: 'too slow' });
  expect(cancelled.actions).toMatchObject({ cancel: false, decide: false, resume: false });
  expect(cancelled.timeline[0]?.toolCalls[0]?.name).toBe('wait');

  const again = await call(served, `/api/runs/${runId}/cancel`, { method: 'POST', body: {} });
  expect(again.status).toBe(409);
  const resumed = await call(served, `/api/runs/${runId}/resume`, { method: 'POST' });
  expect(resumed.status).toBe(409);
  expect(resumed.json()).toEqual({ error: 'the run was cancelled: it cannot be resumed' });
  expect(served.errors).toEqual([]);
});
