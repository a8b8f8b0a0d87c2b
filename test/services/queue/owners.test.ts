/**
 * Run owners through the queue: `enqueue({ owner })` stores the owner with the job and the run (the
 * worker passes it to the agent), and every producer call given an owner — `status`, `result`,
 * `events`, `decide`, `recover`, `cancel` — sees only that owner's runs: any other run, queued or
 * stored, is the same `not-found` as an id nobody used, and nothing happens to it.
 */
import { Agent, defineTool, loadConversation, loadRun } from 'golem';
import { QueueError } from 'golem/queue';
import type { RunQueue } from 'golem/queue';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import type { Harness } from './harness';
import { harness } from './harness';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

let transfers = 0;
const transfer = defineTool({
  name: 'transfer',
  description: 'Move money',
  schema: { type: 'object', properties: {} },
  approval: true,
  execute: () => {
    transfers++;
    return 'moved';
  },
});
const pay = new Agent({
  name: 'pay',
  deferredTools: true,
  tools: [transfer],
  model: new FunctionModel((request) =>
    request.messages.some((m) => m.role === 'tool')
      ? textResponse('paid')
      : toolCallResponse([{ id: 't1', name: 'transfer', args: {} }]),
  ),
});

async function refusal(promise: Promise<unknown>): Promise<QueueError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!QueueError.is(error)) throw new Error(`expected a QueueError, got ${String(error)}`);
  return error;
}

async function drain(events: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of events) {
    // read to the end
  }
}

/** What each scoped call answers for `runId`, the id shown as `<id>`. */
async function answers(queue: RunQueue, runId: string, owner: string): Promise<string[]> {
  const calls: Promise<unknown>[] = [
    queue.status(runId, { owner }),
    queue.result(runId, { owner }),
    drain(queue.events(runId, { owner })),
    queue.decide(runId, { approvals: { t1: { approved: true } } }, { owner }),
    queue.recover(runId, { owner }),
    queue.cancel(runId, { owner, reason: 'not yours' }),
  ];
  const out: string[] = [];
  for (const call of calls) {
    const error = await refusal(call);
    out.push(`${error.reason}: ${error.message.split(runId).join('<id>')}`);
  }
  return out;
}

test('a run answers only to its owner through the queue; another owner gets the not-found of an unknown id', async () => {
  h = await harness();
  await h.worker({ agents: [pay] });
  const { runId } = await h.queue.enqueue('pay', 'pay the invoice', {
    owner: 'alice',
    conversation: 'alice-c1',
  });
  expect(await h.queue.result(runId, { owner: 'alice' })).toMatchObject({
    status: 'paused',
    pending: { approvals: [{ callId: 't1' }] },
  });
  // The worker passed the owner on: the run and the conversation it created are alice's.
  expect((await loadRun(h.store, runId)).owner).toBe('alice');
  expect((await loadConversation(h.store, 'alice-c1'))?.owner).toBe('alice');

  const unknown = await answers(h.queue, 'nobody-used-this-id', 'bob');
  expect(unknown[0]).toBe('not-found: no run has the id "<id>" in the store or the queue');
  expect(await answers(h.queue, runId, 'bob')).toEqual(unknown);
  // A run enqueued without an owner is hidden from an owner's calls too.
  const { runId: unowned } = await h.queue.enqueue('pay', 'no owner');
  await h.queue.result(unowned);
  expect(await answers(h.queue, unowned, 'alice')).toEqual(unknown);

  // Nothing happened to alice's run: still paused, its tool never ran.
  expect((await loadRun(h.store, runId)).status).toBe('paused');
  expect(transfers).toBe(0);
  const entries: string[] = [];
  for await (const { event } of h.queue.events(runId, { owner: 'alice' }))
    if (event.type !== 'event') entries.push(event.type);
  expect(entries).toEqual(['queued', 'started', 'paused']);

  // Alice decides; unscoped (operator) calls see every run.
  await h.queue.decide(runId, { approvals: { t1: { approved: true } } }, { owner: 'alice' });
  expect(await h.queue.result(runId, { owner: 'alice', until: 'finished' })).toMatchObject({
    status: 'completed',
    output: 'paid',
  });
  expect(transfers).toBe(1);
  expect((await h.queue.status(runId)).state).toBe('completed');

  // A start on another owner's conversation is refused, and stored failed for its own owner.
  const { runId: intruder } = await h.queue.enqueue('pay', 'hi', {
    owner: 'bob',
    conversation: 'alice-c1',
  });
  expect(await h.queue.result(intruder, { owner: 'bob' })).toMatchObject({
    status: 'failed',
    error: { stage: 'queue' },
  });
  expect((await loadRun(h.store, intruder)).owner).toBe('bob');
  expect((await loadConversation(h.store, 'alice-c1'))?.messages.at(-1)).toMatchObject({
    content: 'paid',
  });

  const bad = await refusal(h.queue.enqueue('pay', 'hi', { owner: 'a\nb' }));
  expect(bad.reason).toBe('invalid-input');
});

test('a queued run answers only to its owner: status and cancel', async () => {
  h = await harness();
  // No worker consumes the lane: the run stays queued.
  const { runId } = await h.queue.enqueue('pay', 'later', { owner: 'alice', lane: 'idle' });
  expect((await h.queue.status(runId, { owner: 'alice' })).state).toBe('queued');
  for (const call of [
    h.queue.status(runId, { owner: 'bob' }),
    h.queue.cancel(runId, { owner: 'bob' }),
  ])
    expect(await refusal(call)).toMatchObject({
      reason: 'not-found',
      message: `no run has the id "${runId}" in the store or the queue`,
    });
  expect((await h.queue.status(runId)).state).toBe('queued');
  expect(await h.queue.cancel(runId, { owner: 'alice', reason: 'changed my mind' })).toBe(
    'withdrawn',
  );
  expect(await loadRun(h.store, runId, { owner: 'alice' })).toMatchObject({
    status: 'failed',
    error: { stage: 'queue', message: 'cancelled: changed my mind' },
  });
});
