/**
 * The studio with a run queue, against a fake structural queue (no Redis): the detail's `queue`
 * state and `actions`, decisions and resumes queued instead of run (no registered agent needed),
 * cancel (owner-scoped, refusals), queue refusals as HTTP answers, the live stream following the
 * queue state, `features.queue`, and that golem/queue's `RunQueue` fits the option's type.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, loadRun, type DeferredResults, type RunStore } from 'golem';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { QueueError, type QueueErrorReason } from '../../src/queue/queue-error';
import type { RunDetail, StartedRun, StudioInfo } from '../../src/studio/api-types';
import type {
  StudioQueue,
  StudioQueueScope,
  StudioQueueStatus,
} from '../../src/studio/studio-options';
import { call, openSse, serve, type Served } from './studio-harness';

// golem/queue's RunQueue is a StudioQueue (a type error here if it stops fitting).
const fits: (queue: RunQueue) => StudioQueue = (queue) => queue;

let dir: string;
let store: RunStore;
let served: Served | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-studio-queue-'));
  store = sqliteStore({ path: join(dir, 'runs.db') });
});

afterEach(async () => {
  await served?.stop();
  served = undefined;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

type Call =
  | ['status', string, StudioQueueScope | undefined]
  | ['decide', string, DeferredResults, StudioQueueScope | undefined]
  | ['recover', string, StudioQueueScope | undefined]
  | ['cancel', string, unknown];

/** A queue that answers from `states` (keyed by run id, each with its owner) and records calls. */
class FakeQueue implements StudioQueue {
  readonly calls: Call[] = [];
  readonly states = new Map<string, StudioQueueStatus & { owner?: string }>();
  /** What the next action call throws. */
  refuse: Error | undefined;
  cancelResult = 'signalled';

  private action(): void {
    const refusal = this.refuse;
    this.refuse = undefined;
    if (refusal !== undefined) throw refusal;
  }

  status(runId: string, options?: StudioQueueScope): Promise<StudioQueueStatus> {
    this.calls.push(['status', runId, options]);
    const state = this.states.get(runId);
    if (state === undefined || (options?.owner !== undefined && state.owner !== options.owner))
      return Promise.reject(refusal('not-found', `no run has the id "${runId}"`));
    const { owner: _owner, ...report } = state;
    return Promise.resolve(report);
  }

  decide(runId: string, results: DeferredResults, options?: StudioQueueScope): Promise<unknown> {
    this.calls.push(['decide', runId, results, options]);
    this.action();
    return Promise.resolve({ runId, jobId: `resume.${runId}.3`, lane: 'default' });
  }

  recover(runId: string, options?: StudioQueueScope): Promise<unknown> {
    this.calls.push(['recover', runId, options]);
    this.action();
    return Promise.resolve({ runId, jobId: `continue.${runId}.1`, lane: 'default' });
  }

  cancel(runId: string, reason?: unknown): Promise<unknown> {
    this.calls.push(['cancel', runId, reason]);
    this.action();
    return Promise.resolve(this.cancelResult);
  }

  actions(): string[] {
    return this.calls.filter((c) => c[0] !== 'status').map((c) => c[0]);
  }
}

function refusal(reason: QueueErrorReason, message: string): QueueError {
  return new QueueError(message, { reason });
}

/** A booking agent whose `book` tool needs approval; `booked` records what actually ran. */
function bookingAgent(booked: string[]) {
  const book = defineTool({
    name: 'book',
    schema: { type: 'object', properties: { night: { type: 'string' } }, required: ['night'] },
    approval: true,
    execute: (args) => {
      booked.push((args as { night: string }).night);
      return 'booked';
    },
  });
  return new Agent({
    name: 'booking',
    model: new FunctionModel((request) => {
      const last = request.messages[request.messages.length - 1];
      return last?.role === 'tool'
        ? textResponse(`done: ${last.content ?? ''}`)
        : toolCallResponse([{ id: 'b1', name: 'book', args: { night: 'Friday' } }]);
    }),
    tools: [book],
    deferredTools: true,
  });
}

async function pausedRun(runId: string, owner?: string): Promise<void> {
  const result = await bookingAgent([]).run('book Friday', {
    store,
    runId,
    ...(owner !== undefined && { owner }),
  });
  expect(result.pending).toBeDefined();
}

const JOB = { lane: 'default', id: 'start.r1', state: 'completed' };

test('RunQueue fits the queue option', () => {
  expect(typeof fits).toBe('function');
});

test('the detail shows the queue state; decide and resume need no agent, replay does', async () => {
  await pausedRun('r1');
  const queue = new FakeQueue();
  queue.states.set('r1', { state: 'paused', job: JOB, cancelReason: undefined });
  served = await serve({ store, queue });
  const detail = (await call(served, '/api/runs/r1')).json<RunDetail>();
  expect(detail.queue).toEqual({ state: 'paused', job: JOB });
  expect(detail.actions).toEqual({ decide: true, resume: false, replay: false, cancel: false });
  expect(queue.calls).toEqual([['status', 'r1', {}]]);
  expect((await call(served, '/api/info')).json<StudioInfo>().features.queue).toBe(true);
});

test('cancel is offered for running and queued runs that have a job, and a paused one whose decision is queued', async () => {
  await pausedRun('r1');
  const queue = new FakeQueue();
  served = await serve({ store, queue, agents: [bookingAgent([])] });
  const actionsWhen = async (state: StudioQueueStatus) => {
    queue.states.set('r1', state);
    return (await call(served as Served, '/api/runs/r1')).json<RunDetail>().actions.cancel;
  };
  expect(await actionsWhen({ state: 'running', job: { ...JOB, state: 'active' } })).toBe(true);
  expect(await actionsWhen({ state: 'queued', job: { ...JOB, state: 'waiting' } })).toBe(true);
  expect(await actionsWhen({ state: 'paused', job: { ...JOB, state: 'waiting' } })).toBe(true);
  expect(await actionsWhen({ state: 'paused', job: JOB })).toBe(false);
  expect(await actionsWhen({ state: 'completed', job: JOB })).toBe(false);
  expect(await actionsWhen({ state: 'cancelled', job: JOB, cancelReason: 'x' })).toBe(false);
});

test('a run the queue does not know has no queue field; a failing queue is reported, not fatal', async () => {
  await pausedRun('r1');
  await pausedRun('r2');
  const queue = new FakeQueue();
  // r2: stored, never queued (the queue has no job for it and never cancelled it)
  queue.states.set('r2', { state: 'paused', job: undefined, cancelReason: undefined });
  served = await serve({ store, queue });
  const unknown = await call(served, '/api/runs/r1');
  expect(unknown.status).toBe(200);
  expect(unknown.json<RunDetail>()).not.toHaveProperty('queue');
  expect((await call(served, '/api/runs/r2')).json<RunDetail>()).not.toHaveProperty('queue');
  expect(served.errors).toEqual([]);
  const down = new Error('redis is down');
  queue.status = () => Promise.reject(down);
  const detail = await call(served, '/api/runs/r1');
  expect(detail.status).toBe(200);
  expect(detail.json<RunDetail>()).not.toHaveProperty('queue');
  expect(detail.json<RunDetail>().actions.cancel).toBe(false);
  expect(served.errors).toEqual([down]);
});

test('decisions go to the queue with the studio owner; the studio runs nothing itself', async () => {
  await pausedRun('r1', 'ann');
  const queue = new FakeQueue();
  queue.states.set('r1', { state: 'paused', job: JOB, owner: 'ann' });
  served = await serve({ store, queue, owner: 'ann' });
  const answer = await call(served, '/api/runs/r1/decisions', {
    method: 'POST',
    body: { approvals: { b1: { approved: false, reason: 'too dear' } } },
  });
  expect(answer.status).toBe(202);
  expect(answer.json<StartedRun>()).toEqual({ runId: 'r1' });
  expect(queue.calls).toEqual([
    [
      'decide',
      'r1',
      { approvals: { b1: { approved: false, reason: 'too dear' } } },
      { owner: 'ann' },
    ],
  ]);
  await served.studio.close();
  expect((await loadRun(store, 'r1')).status).toBe('paused'); // a worker resumes it, not the studio
});

test('queue refusals answer 409 / 400 with the queue message; other failures are internal', async () => {
  await pausedRun('r1');
  const queue = new FakeQueue();
  served = await serve({ store, queue });
  const decide = () =>
    call(served as Served, '/api/runs/r1/decisions', {
      method: 'POST',
      body: { approvals: { b1: { approved: true } } },
    });
  queue.refuse = refusal('conflict', 'other decisions were already submitted for this pause');
  const conflict = await decide();
  expect(conflict.status).toBe(409);
  expect(conflict.json()).toEqual({
    error: 'other decisions were already submitted for this pause',
  });
  queue.refuse = refusal('invalid-decision', 'call "b1" needs an approval');
  expect((await decide()).status).toBe(400);
  queue.refuse = refusal('not-found', 'no run has the id "r1"');
  expect((await decide()).json()).toEqual({ error: 'run not found' });
  const broken = new Error('connection reset');
  queue.refuse = broken;
  const internal = await decide();
  expect(internal.status).toBe(500);
  expect(internal.json<{ error: string }>().error).toMatch(/^internal error \(ref [0-9a-f]{8}\)$/);
  expect(served.errors).toEqual([broken]);
  expect((await decide()).status).toBe(202);
  expect(queue.actions()).toEqual(['decide', 'decide', 'decide', 'decide', 'decide']);
});

test('decisions for a run that is not paused are 409 before the queue is asked', async () => {
  const agent = new Agent({ name: 'echo', model: new FunctionModel(() => textResponse('hi')) });
  await agent.run('hello', { store, runId: 'done' });
  const queue = new FakeQueue();
  served = await serve({ store, queue });
  const answer = await call(served, '/api/runs/done/decisions', { method: 'POST', body: {} });
  expect(answer.status).toBe(409);
  expect(answer.json()).toEqual({ error: 'the run is completed, not paused' });
  expect((await call(served, '/api/runs/done/resume', { method: 'POST' })).status).toBe(409);
  expect(queue.actions()).toEqual([]);
});

test('resume recovers a failed run on the queue (no agent registered)', async () => {
  const agent = new Agent({
    name: 'flaky',
    model: new FunctionModel(() => {
      throw new Error('provider down');
    }),
    retries: 0,
  } as never);
  await expect(agent.run('hi', { store, runId: 'f1', owner: 'ann' })).rejects.toThrow();
  const queue = new FakeQueue();
  queue.states.set('f1', { state: 'failed', job: { ...JOB, state: 'failed' }, owner: 'ann' });
  served = await serve({ store, queue, owner: 'ann' });
  expect((await call(served, '/api/runs/f1')).json<RunDetail>().actions.resume).toBe(true);
  const answer = await call(served, '/api/runs/f1/resume', { method: 'POST' });
  expect(answer.status).toBe(202);
  expect(queue.calls.filter((c) => c[0] === 'recover')).toEqual([
    ['recover', 'f1', { owner: 'ann' }],
  ]);
  // cancelled on the queue: it stays ended
  queue.states.set('f1', { state: 'cancelled', job: JOB, cancelReason: 'stop', owner: 'ann' });
  expect((await call(served, '/api/runs/f1')).json<RunDetail>().actions.resume).toBe(false);
  const refused = await call(served, '/api/runs/f1/resume', { method: 'POST' });
  expect(refused.status).toBe(409);
  expect(refused.json()).toEqual({ error: 'the run was cancelled: it cannot be resumed' });
  expect(queue.actions()).toEqual(['recover']);
});

test('cancel: through the queue with the reason and owner; another owner is 404; refusals', async () => {
  await pausedRun('mine', 'ann');
  await pausedRun('theirs', 'bob');
  await pausedRun('outside', 'ann');
  const queue = new FakeQueue();
  queue.states.set('mine', { state: 'running', job: { ...JOB, state: 'active' }, owner: 'ann' });
  queue.states.set('theirs', { state: 'running', job: { ...JOB, state: 'active' }, owner: 'bob' });
  served = await serve({ store, queue, owner: 'ann' });
  const cancel = (id: string, body: unknown = {}) =>
    call(served as Served, `/api/runs/${id}/cancel`, { method: 'POST', body });

  const theirs = await cancel('theirs');
  expect(theirs.status).toBe(404);
  expect(theirs.json()).toEqual({ error: 'run not found' });
  expect(await cancel('nope')).toMatchObject({ status: 404 });
  const outside = await cancel('outside');
  expect(outside.status).toBe(409);
  expect(outside.json()).toEqual({
    error: 'the run is not on the queue: only a queued run can be cancelled',
  });
  expect((await cancel('mine', { reason: 7 })).status).toBe(400);
  expect((await cancel('mine', { reason: 'x'.repeat(1001) })).status).toBe(400);
  expect(queue.actions()).toEqual([]);

  const answer = await cancel('mine', { reason: '  too slow ' });
  expect(answer.status).toBe(202);
  expect(answer.json<StartedRun>()).toEqual({ runId: 'mine' });
  expect(queue.calls.filter((c) => c[0] === 'cancel')).toEqual([
    ['cancel', 'mine', { reason: 'too slow', owner: 'ann' }],
  ]);

  queue.cancelResult = 'finished';
  const late = await cancel('mine');
  expect(late.status).toBe(409);
  expect(late.json()).toEqual({ error: 'the run finished before it could be cancelled' });
  expect(queue.calls.filter((c) => c[0] === 'cancel')[1]).toEqual([
    'cancel',
    'mine',
    { owner: 'ann' },
  ]);

  queue.states.set('mine', { state: 'completed', job: JOB, owner: 'ann' });
  const completed = await cancel('mine');
  expect(completed.status).toBe(409);
  expect(completed.json()).toEqual({
    error: 'the run is completed: only a queued or running run can be cancelled',
  });
  expect(queue.actions()).toEqual(['cancel', 'cancel']);
});

test('without a queue: cancel is 404, actions.cancel false, no queue field, features.queue false', async () => {
  await pausedRun('r1');
  served = await serve({ store });
  const answer = await call(served, '/api/runs/r1/cancel', { method: 'POST', body: {} });
  expect(answer.status).toBe(404);
  expect(answer.json<{ error: string }>().error).toMatch(/^no queue configured/);
  const detail = (await call(served, '/api/runs/r1')).json<RunDetail>();
  expect(detail).not.toHaveProperty('queue');
  expect(detail.actions).toEqual({ decide: false, resume: false, replay: false, cancel: false });
  expect((await call(served, '/api/info')).json<StudioInfo>().features.queue).toBe(false);
});

test('the run stream sends a new detail when the queue state moves, the store unchanged', async () => {
  await pausedRun('r1');
  const queue = new FakeQueue();
  queue.states.set('r1', { state: 'paused', job: JOB });
  served = await serve({ store, queue, pollMs: 10 });
  const sse = await openSse(served, `/api/runs/r1/stream?token=${served.studio.token}`);
  try {
    expect(sse.status).toBe(200);
    const first = (await sse.next((f) => f.event === 'run')).data as RunDetail;
    expect(first.queue).toEqual({ state: 'paused', job: JOB });
    queue.states.set('r1', {
      state: 'paused',
      job: { ...JOB, id: 'resume.r1.3', state: 'waiting' },
    });
    const second = (await sse.next((f) => f.event === 'run')).data as RunDetail;
    expect(second.queue?.job).toEqual({ lane: 'default', id: 'resume.r1.3', state: 'waiting' });
    expect(second.actions.cancel).toBe(true);
    expect(second.summary.version).toBe(first.summary.version);
  } finally {
    sse.close();
  }
});

test('a queue option without the queue methods is refused', async () => {
  await expect(serve({ store, queue: {} as StudioQueue })).rejects.toThrow(
    'createStudio: queue must be a golem/queue RunQueue (status, decide, recover, cancel)',
  );
});
