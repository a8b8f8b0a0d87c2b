/** The queue's main flows on a real Redis and SQLite: enqueue → worker → store, feed, approvals. */
import { Agent, defineTool, loadRun } from 'golem';
import type { FeedEntry } from 'golem/queue';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { testRedis } from '../redis';
import type { Harness } from './harness';
import { harness } from './harness';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

function echoAgent(effects: string[]): Agent<{ user: string }, string, true> {
  const lookup = defineTool<{ user: string }>({
    name: 'lookup',
    description: 'Look up an order',
    schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    execute: (args, ctx) => {
      effects.push(`${ctx.deps.user}:${(args as { order: string }).order}`);
      return 'shipped';
    },
  });
  const model = new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool'))
      return toolCallResponse([{ id: 'c1', name: 'lookup', args: { order: 'A-1' } }]);
    await emit({ content: 'Your order ' });
    await emit({ content: 'has shipped.' });
    return textResponse('Your order has shipped.');
  });
  return new Agent({ model, tools: [lookup], name: 'support', deferredTools: true });
}

async function collect(it: AsyncIterable<FeedEntry>): Promise<FeedEntry[]> {
  const out: FeedEntry[] = [];
  for await (const entry of it) out.push(entry);
  return out;
}

test('an enqueued run is executed by a worker: result in the store, feed in order', async () => {
  h = await harness();
  const effects: string[] = [];
  await h.worker({ agents: [echoAgent(effects)] });
  const { runId } = await h.queue.enqueue('support', 'Where is A-1?', { deps: { user: 'ada' } });
  const entries = await collect(h.queue.events(runId));
  const types = entries.map((e) => e.event.type);
  expect(types[0]).toBe('queued');
  expect(types[1]).toBe('started');
  expect(types.at(-1)).toBe('completed');
  const text = entries
    .map((e) => (e.event.type === 'delta' ? (e.event.delta.content ?? '') : ''))
    .join('');
  expect(text).toBe('Your order has shipped.');
  expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
  expect(effects).toEqual(['ada:A-1']);
  const record = await loadRun(h.store, runId);
  expect(record).toMatchObject({
    status: 'completed',
    output: 'Your order has shipped.',
    agent: 'support',
  });
  const outcome = await h.queue.result(runId);
  expect(outcome).toMatchObject({ status: 'completed', output: 'Your order has shipped.' });
  expect(h.errors).toEqual([]);
});

test('a late subscriber reads the backlog; one resuming after a cursor gets only the rest', async () => {
  h = await harness();
  await h.worker({ agents: [echoAgent([])] });
  const { runId } = await h.queue.enqueue('support', 'Where is A-1?', { deps: { user: 'ada' } });
  await h.queue.result(runId);
  const all = await collect(h.queue.events(runId));
  expect(all[0]?.event.type).toBe('queued');
  expect(all.at(-1)?.event.type).toBe('completed');
  const middle = all[2];
  const rest = await collect(h.queue.events(runId, { after: middle?.cursor }));
  expect(rest).toEqual(all.slice(3));
});

test('when the feed has expired, a subscriber gets the ending from the store', async () => {
  h = await harness({ feed: { ttlMs: 60_000 } });
  await h.worker({ agents: [echoAgent([])] });
  const { runId } = await h.queue.enqueue('support', 'Where is A-1?', { deps: { user: 'ada' } });
  await h.queue.result(runId);
  const redis = testRedis();
  const keys = await redis.keys(`${h.prefix}:*:feed:${runId}`);
  expect(keys).toHaveLength(1);
  await redis.del(...keys);
  redis.disconnect();
  const entries = await collect(h.queue.events(runId));
  expect(entries).toEqual([
    {
      cursor: '0-0/0',
      seq: 0,
      event: expect.objectContaining({
        type: 'completed',
        output: 'Your order has shipped.',
      }) as unknown,
    },
  ]);
});

test('a paused run ends its job with the pending calls; the decision is resumed by any worker', async () => {
  h = await harness();
  const paid: string[] = [];
  const transfer = defineTool({
    name: 'transfer',
    description: 'Pay',
    schema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    approval: true,
    execute: (args) => {
      paid.push((args as { to: string }).to);
      return 'sent';
    },
  });
  const model = new StreamFunctionModel(async (request, emit) => {
    if (request.messages.some((m) => m.role === 'tool')) {
      await emit({ content: 'Paid.' });
      return textResponse('Paid.');
    }
    return toolCallResponse([{ id: 'pay-1', name: 'transfer', args: { to: 'ACME' } }]);
  });
  const payments = new Agent({ model, tools: [transfer], name: 'payments', deferredTools: true });
  const first = await h.worker({ agents: [payments] });
  const { runId } = await h.queue.enqueue('payments', 'Pay ACME.');
  const paused = await h.queue.result(runId);
  expect(paused).toMatchObject({
    status: 'paused',
    pending: { approvals: [expect.objectContaining({ callId: 'pay-1', toolName: 'transfer' })] },
  });
  expect(paid).toEqual([]);
  // The worker that paused it goes away; the decision is taken by one started later.
  await first.close();
  const decided = await h.queue.decide(runId, { approvals: { 'pay-1': { approved: true } } });
  // The same decision again is a no-op; a different one for the same pause is a conflict.
  await expect(
    h.queue.decide(runId, { approvals: { 'pay-1': { approved: true } } }),
  ).resolves.toEqual(decided);
  await expect(
    h.queue.decide(runId, { approvals: { 'pay-1': { approved: false } } }),
  ).rejects.toMatchObject({ kind: 'QueueError', reason: 'conflict' });
  await h.worker({ agents: [payments] });
  const done = await h.queue.result(runId, { until: 'finished' });
  expect(done).toMatchObject({ status: 'completed', output: 'Paid.' });
  expect(paid).toEqual(['ACME']);
  const types = (await collect(h.queue.events(runId, { until: 'finished' }))).map(
    (e) => e.event.type,
  );
  expect(types.filter((t) => t !== 'delta' && t !== 'event')).toEqual([
    'queued',
    'started',
    'paused',
    'queued',
    'started',
    'completed',
  ]);
});

test('decisions are checked against the pending calls before anything is queued', async () => {
  h = await harness();
  const tool = defineTool({
    name: 'transfer',
    description: 'Pay',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => 'sent',
  });
  const model = new StreamFunctionModel(() =>
    toolCallResponse([{ id: 'pay-1', name: 'transfer', args: {} }]),
  );
  await h.worker({ agents: [new Agent({ model, tools: [tool], name: 'p', deferredTools: true })] });
  const { runId } = await h.queue.enqueue('p', 'Pay.');
  await h.queue.result(runId);
  await expect(h.queue.decide(runId, { approvals: {} })).rejects.toMatchObject({
    reason: 'invalid-decision',
    message: `decisions for run "${runId}": every pending call needs a decision; missing pay-1`,
  });
  await expect(
    h.queue.decide(runId, {
      approvals: { 'pay-1': { approved: true }, other: { approved: true } },
    }),
  ).rejects.toMatchObject({ reason: 'invalid-decision' });
  await expect(h.queue.decide(runId, { external: { 'pay-1': 'done' } })).rejects.toMatchObject({
    message: `decisions for run "${runId}": call "pay-1" waits for an approval`,
  });
  await expect(h.queue.decide('nope', { approvals: {} })).rejects.toMatchObject({
    reason: 'not-found',
  });
});

test('a subscriber may start before the run it waits for (waitForStart); otherwise an unknown run is not-found', async () => {
  h = await harness();
  await h.worker({ agents: [echoAgent([])] });
  await expect(collect(h.queue.events('never-queued'))).rejects.toMatchObject({
    reason: 'not-found',
  });
  const reading = collect(h.queue.events('chosen-id', { waitForStart: true }));
  await h.queue.enqueue('support', 'Where is A-1?', { runId: 'chosen-id', deps: { user: 'ada' } });
  const entries = await reading;
  expect(entries.map((e) => e.event.type).at(-1)).toBe('completed');
  expect(entries[0]?.event.type).toBe('queued');
});
