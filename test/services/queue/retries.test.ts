/**
 * Retries and waits: the run's own failures are never retried by the queue (its budget is the
 * agent's), a store that drops is retried from the checkpoint, a busy conversation queues the
 * next run behind the running one, lanes keep a pool under a rate limit, and a worker shutting
 * down hands its runs over.
 */
import { Agent, defineTool, loadConversation, ModelHTTPError, StoreError } from 'golem';
import type { RunStore } from 'golem';
import type { RunFeedEvent } from 'golem/queue';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { Harness } from './harness';
import { harness } from './harness';
import { jobReport, rawQueue } from './raw';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

async function feedTypes(
  runId: string,
  until: 'settled' | 'finished' = 'settled',
): Promise<string[]> {
  const types: string[] = [];
  for await (const { event } of h.queue.events(runId, { until }))
    if (event.type !== 'delta' && event.type !== 'event') types.push(event.type);
  return types;
}

async function waitFor(runId: string, match: (e: RunFeedEvent) => boolean): Promise<void> {
  for await (const { event } of h.queue.events(runId, { until: 'finished' }))
    if (match(event)) return;
  throw new Error('the run finished first');
}

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test("the run's own failure is final: its model attempts are the only retries", async () => {
  h = await harness();
  let calls = 0;
  const model = new FunctionModel(() => {
    calls++;
    throw new ModelHTTPError({ status: 503, provider: 'test', message: 'overloaded' });
  });
  const agent = new Agent({ model, name: 'flaky', maxAttempts: 2, retryBackoff: () => 0 });
  await h.worker({ agents: [agent] });
  const { runId, jobId } = await h.queue.enqueue('flaky', 'hi');
  expect(await h.queue.result(runId)).toMatchObject({
    status: 'failed',
    error: { stage: 'model' },
  });
  expect(calls).toBe(2);
  expect(await jobReport(h.prefix, jobId)).toMatchObject({ state: 'failed', attemptsMade: 1 });
});

/** A store whose `n`th conditional write fails once as if the database dropped the connection. */
function droppingStore(store: RunStore, n: number): RunStore {
  let writes = 0;
  return {
    leaseMs: store.leaseMs,
    now: () => store.now(),
    migrate: () => store.migrate(),
    close: () => store.close(),
    getRun: (id) => store.getRun(id),
    getConversation: (id) => store.getConversation(id),
    listRuns: (f) => store.listRuns(f),
    transaction: (body) => store.transaction(body),
    replaceRun: (run, expected) => {
      writes++;
      if (writes === n)
        return Promise.reject(new StoreError('connection lost', { reason: 'unavailable' }));
      return store.replaceRun(run, expected);
    },
  };
}

test('a store that drops mid-run is retried from the checkpoint: completed tools run once', async () => {
  h = await harness({ backoffMs: 10 });
  const effects: string[] = [];
  const step = defineTool({
    name: 'step',
    description: 'A step',
    schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    execute: (args) => {
      effects.push(`step ${(args as { n: number }).n}`);
      return 'ok';
    },
  });
  const model = new FunctionModel((request) => {
    const done = request.messages.filter((m) => m.role === 'tool').length;
    if (done < 3)
      return toolCallResponse([{ id: `s${done + 1}`, name: 'step', args: { n: done + 1 } }]);
    return textResponse('all done');
  });
  const agent = new Agent({ model, tools: [step], name: 'steps' });
  // Writes: write-ahead of step 1, its commit, then the write-ahead of step 2 — which drops.
  await h.worker({ agents: [agent], store: droppingStore(h.store, 3) });
  const { runId, jobId } = await h.queue.enqueue('steps', 'go');
  expect(await h.queue.result(runId)).toMatchObject({ status: 'completed', output: 'all done' });
  expect(effects).toEqual(['step 1', 'step 2', 'step 3']);
  expect(await feedTypes(runId)).toEqual([
    'queued',
    'started',
    'retrying',
    'recovered',
    'completed',
  ]);
  expect(await jobReport(h.prefix, jobId)).toMatchObject({ state: 'completed', attemptsMade: 2 });
});

test('a run on a conversation busy with a running run waits for it, then continues it', async () => {
  h = await harness({ leaseMs: 1_000 });
  const release = gate();
  const hold = defineTool({
    name: 'hold',
    description: 'Hold',
    schema: { type: 'object', properties: {} },
    execute: async () => {
      await release.promise;
      return 'released';
    },
  });
  const model = new FunctionModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'user' && last.content === 'first')
      return toolCallResponse([{ id: 'h1', name: 'hold', args: {} }]);
    return textResponse(
      `answer to ${request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''}`,
    );
  });
  await h.worker({ agents: [new Agent({ model, tools: [hold], name: 'chat' })], concurrency: 2 });
  const first = await h.queue.enqueue('chat', 'first', { conversation: 'c-1' });
  await waitFor(first.runId, (e) => e.type === 'event' && e.event.kind === 'tool_start');
  const second = await h.queue.enqueue('chat', 'second', { conversation: 'c-1' });
  await waitFor(second.runId, (e) => e.type === 'requeued');
  release.open();
  expect(await h.queue.result(second.runId)).toMatchObject({ output: 'answer to second' });
  const conversation = await loadConversation(h.store, 'c-1');
  expect(
    conversation?.messages.filter((m) => m.role !== 'tool').map((m) => m.content ?? ''),
  ).toEqual(['first', '', 'answer to first', 'second', 'answer to second']);
});

test('a lane with a limiter keeps the pool under its rate: runs start at most 2 per 400 ms', async () => {
  h = await harness({ route: (agent) => (agent === 'echo' ? 'llm' : undefined) });
  const echo = new Agent({ model: new FunctionModel(() => textResponse('ok')), name: 'echo' });
  const lanes = { llm: { limiter: { max: 2, duration: 400 } } };
  await h.worker({ agents: [echo], lanes });
  await h.worker({ agents: [echo], lanes });
  const runs = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((i) => h.queue.enqueue('echo', `run ${i}`)),
  );
  for (const run of runs) expect(run.lane).toBe('llm');
  await Promise.all(runs.map((r) => h.queue.result(r.runId)));
  const raw = rawQueue(h.prefix, 'llm');
  const started: number[] = [];
  for (const run of runs) started.push((await raw.queue.getJob(run.jobId))?.processedOn ?? 0);
  await raw.close();
  started.sort((a, b) => a - b);
  // Six runs at two per window need three windows: the last starts at least two windows after the first.
  expect(started[5]! - started[0]!).toBeGreaterThanOrEqual(800);
});

test('a worker shutting down hands its running runs to another worker', async () => {
  h = await harness({ leaseMs: 1_000 });
  const effects: string[] = [];
  let starts = 0;
  const entered = gate();
  const fetch = defineTool({
    name: 'fetch',
    description: 'An idempotent read',
    schema: { type: 'object', properties: {} },
    idempotent: true,
    execute: (_args, ctx) => {
      starts++;
      if (starts > 1) {
        effects.push('fetched');
        return 'data';
      }
      entered.open();
      return new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          reject(ctx.signal.reason as Error);
        });
      });
    },
  });
  const model = new FunctionModel((request) =>
    request.messages.some((m) => m.role === 'tool')
      ? textResponse('got it')
      : toolCallResponse([{ id: 'f1', name: 'fetch', args: {} }]),
  );
  const agent = new Agent({ model, tools: [fetch], name: 'reader' });
  const leaving = await h.worker({ agents: [agent] });
  const { runId } = await h.queue.enqueue('reader', 'read');
  await entered.promise;
  await h.worker({ agents: [agent] });
  await leaving.close({ handover: true });
  expect(await h.queue.result(runId, { until: 'finished' })).toMatchObject({
    status: 'completed',
    output: 'got it',
  });
  expect(effects).toEqual(['fetched']);
  expect(await feedTypes(runId)).toEqual([
    'queued',
    'started',
    'requeued',
    'recovered',
    'completed',
  ]);
});
