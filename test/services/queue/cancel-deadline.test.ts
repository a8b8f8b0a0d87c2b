/** Cancelling queued, running and paused runs; run, queue and per-run deadlines. */
import { Agent, defineTool, loadRun } from 'golem';
import type { RunFeedEvent } from 'golem/queue';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { Harness } from './harness';
import { harness } from './harness';
import { jobReport } from './raw';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

/** An agent whose `wait` tool runs until its run is aborted; `quick` answers at once. */
function agents(effects: string[]) {
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
  const approve = defineTool({
    name: 'approve',
    description: 'Needs approval',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => 'ok',
  });
  const model = new FunctionModel((request) => {
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    if (request.messages.some((m) => m.role === 'tool')) return textResponse('done');
    if (prompt === 'block') return toolCallResponse([{ id: 'w1', name: 'wait', args: {} }]);
    if (prompt === 'approve') return toolCallResponse([{ id: 'a1', name: 'approve', args: {} }]);
    effects.push(`answered ${prompt}`);
    return textResponse(`echo ${prompt}`);
  });
  const hang = new FunctionModel(
    (_request, options) =>
      new Promise((_resolve, reject) => {
        options.signal?.addEventListener('abort', () => {
          reject(options.signal?.reason as Error);
        });
      }),
  );
  return [
    new Agent({ model, tools: [wait, approve], name: 'worker', deferredTools: true }),
    new Agent({ model: hang, name: 'hang' }),
  ];
}

async function until(
  events: AsyncIterable<{ event: RunFeedEvent }>,
  match: (e: RunFeedEvent) => boolean,
): Promise<void> {
  for await (const { event } of events) if (match(event)) return;
  throw new Error('the feed settled first');
}

test('a queued run is withdrawn: it never runs, its cancellation is stored', async () => {
  h = await harness();
  const effects: string[] = [];
  const { runId, jobId } = await h.queue.enqueue('worker', 'first');
  expect(await h.queue.cancel(runId, 'user left')).toBe('withdrawn');
  expect(await jobReport(h.prefix, jobId)).toMatchObject({ state: 'missing' });
  await h.worker({ agents: agents(effects) });
  const second = await h.queue.enqueue('worker', 'second');
  expect(await h.queue.result(second.runId)).toMatchObject({ status: 'completed' });
  expect(effects).toEqual(['answered second']);
  expect(await h.queue.result(runId)).toMatchObject({ status: 'cancelled', reason: 'user left' });
  expect(await loadRun(h.store, runId)).toMatchObject({
    status: 'failed',
    error: { stage: 'queue', message: 'cancelled: user left' },
  });
});

test('a running run is aborted by its worker, its evidence kept, its job failed as cancelled', async () => {
  h = await harness();
  const effects: string[] = [];
  await h.worker({ agents: agents(effects) });
  const { runId, jobId } = await h.queue.enqueue('worker', 'block');
  await until(h.queue.events(runId), (e) => e.type === 'event' && e.event.kind === 'tool_start');
  expect(await h.queue.cancel(runId, 'too slow')).toBe('signalled');
  expect(await h.queue.result(runId)).toMatchObject({ status: 'cancelled', reason: 'too slow' });
  const record = await loadRun(h.store, runId);
  expect(record.status).toBe('failed');
  expect(record.error?.message).toContain('too slow');
  expect(record.messages.some((m) => m.toolCalls?.[0]?.id === 'w1')).toBe(true);
  expect(await jobReport(h.prefix, jobId)).toEqual({
    state: 'failed',
    failedReason: `run "${runId}" was cancelled: too slow`,
    attemptsMade: 1,
  });
  expect(effects).toEqual(['wait started']);
});

test('a paused run is ended by cancel and takes no decision after', async () => {
  h = await harness();
  await h.worker({ agents: agents([]) });
  const { runId } = await h.queue.enqueue('worker', 'approve');
  expect(await h.queue.result(runId)).toMatchObject({ status: 'paused' });
  expect(await h.queue.cancel(runId)).toBe('ended');
  expect(await h.queue.status(runId)).toMatchObject({ state: 'cancelled' });
  await expect(
    h.queue.decide(runId, { approvals: { a1: { approved: true } } }),
  ).rejects.toMatchObject({ reason: 'invalid-state' });
  expect(await h.queue.cancel(runId)).toBe('finished');
});

test('a run still queued at its deadline fails without running', async () => {
  h = await harness();
  const effects: string[] = [];
  const { runId, jobId } = await h.queue.enqueue('worker', 'late', {
    deadline: Date.now() + 60_000,
  });
  // The worker's clock says an hour has passed.
  await h.worker({ agents: agents(effects), clock: () => Date.now() + 3_600_000 });
  expect(await h.queue.result(runId)).toMatchObject({
    status: 'failed',
    error: { stage: 'queue', message: expect.stringContaining('reached its deadline') as unknown },
  });
  expect(effects).toEqual([]);
  expect((await jobReport(h.prefix, jobId)).failedReason).toContain('reached its deadline');
  await expect(h.queue.enqueue('worker', 'x', { deadline: Date.now() - 1 })).rejects.toMatchObject({
    reason: 'deadline-exceeded',
  });
});

test.each([
  ['the run', { timeout: 50 }, {}],
  ['the worker (per-queue)', {}, { timeout: 50 }],
])('a deadline set by %s ends the run at its own stage', async (_by, run, worker) => {
  h = await harness();
  await h.worker({ agents: agents([]), ...worker });
  const { runId } = await h.queue.enqueue('hang', 'x', run);
  const outcome = await h.queue.result(runId);
  expect(outcome).toMatchObject({
    status: 'failed',
    error: { stage: 'model', message: expect.stringContaining('timeout of 50 ms') as unknown },
  });
});
