/**
 * Bad input: refused at enqueue with a typed error (nothing written), or — for payloads that
 * reach Redis some other way — failed visibly by the worker with the reason, while the queue keeps
 * working.
 */
import { Agent, loadRun } from 'golem';
import { QueueError } from 'golem/queue';
import { FunctionModel, textResponse } from 'golem/testing';
import { countPrefix, testRedis } from '../redis';
import type { Harness } from './harness';
import { harness } from './harness';
import { jobReport, rawQueue } from './raw';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

const echo = new Agent({
  model: new FunctionModel((r) => textResponse(`echo ${r.messages.at(-1)?.content ?? ''}`)),
  name: 'echo',
});

async function refusal(promise: Promise<unknown>): Promise<QueueError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!QueueError.is(error)) throw new Error(`expected a QueueError, got ${String(error)}`);
  return error;
}

class User {
  constructor(readonly name: string) {}
}

test('deps that are not plain JSON are refused at enqueue, naming the path; nothing is written', async () => {
  h = await harness();
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const cases: [unknown, string][] = [
    [{ at: new Date(0) }, 'deps.at is a Date (send value.toISOString())'],
    [{ user: new User('ada') }, 'deps.user is an instance of User'],
    [{ fn: () => 1 }, 'deps.fn is a function'],
    [{ n: 10n }, 'deps.n is a BigInt (send it as a string)'],
    [{ list: [1, Number.NaN] }, 'deps.list[1] is NaN (not a finite number)'],
    [cyclic, 'deps.self refers back to itself (a cycle)'],
    [{ m: new Map() }, 'deps.m is a Map (send Object.fromEntries(map))'],
  ];
  for (const [deps, problem] of cases) {
    const error = await refusal(h.queue.enqueue('echo', 'hi', { deps: deps as never }));
    expect([error.reason, error.message.split(':')[0]]).toEqual(['invalid-deps', problem]);
    expect(error.message).toContain('give workers their clients and services through');
  }
  const redis = testRedis();
  expect(await countPrefix(redis, h.prefix)).toBe(0);
  redis.disconnect();
});

test('an oversized prompt or deps is refused at enqueue', async () => {
  h = await harness({ limits: { promptBytes: 100, depsBytes: 50 } });
  const prompt = await refusal(h.queue.enqueue('echo', 'x'.repeat(101)));
  expect(prompt.reason).toBe('too-large');
  expect(prompt.message).toBe(
    'prompt is 101 bytes, over the limit of 100: send a reference (an id, a URL) instead of the content, or raise `limits.promptBytes`',
  );
  const deps = await refusal(h.queue.enqueue('echo', 'x', { deps: { blob: 'y'.repeat(60) } }));
  expect(deps).toMatchObject({
    reason: 'too-large',
    message: expect.stringMatching(/^deps is 71 bytes/) as unknown,
  });
  expect((await refusal(h.queue.enqueue('', 'x'))).reason).toBe('invalid-input');
  expect((await refusal(h.queue.enqueue('echo', 'x', { runId: 'has space' }))).reason).toBe(
    'invalid-input',
  );
});

test('an unknown agent fails its job visibly and the queue keeps working', async () => {
  h = await harness();
  await h.worker({ agents: { echo } });
  const { runId, jobId } = await h.queue.enqueue('nobody', 'hi');
  const outcome = await h.queue.result(runId);
  const reason =
    'no agent named "nobody" is registered with this worker (it runs "echo"): register it in runWorker({ agents }) or enqueue one of these';
  expect(outcome).toMatchObject({ status: 'failed', error: { stage: 'queue', message: reason } });
  expect(await jobReport(h.prefix, jobId)).toEqual({
    state: 'failed',
    failedReason: reason,
    attemptsMade: 1,
  });
  const feed: string[] = [];
  for await (const { event } of h.queue.events(runId))
    if (event.type === 'failed') feed.push(`${event.error.kind}/${event.error.reason ?? ''}`);
  expect(feed).toEqual(['QueueError/unknown-agent']);
  const next = await h.queue.enqueue('echo', 'still here?');
  expect(await h.queue.result(next.runId)).toMatchObject({ output: 'echo still here?' });
});

test('payloads from an older or newer version, damaged or oversized ones fail with their reason', async () => {
  h = await harness();
  // One at a time: jobs finish in the order they were added.
  await h.worker({ agents: { echo }, limits: { jobBytes: 2_000 }, concurrency: 1 });
  const raw = rawQueue(h.prefix);
  const base = { kind: 'start', agent: 'echo', prompt: 'hi', options: {}, enqueuedAt: 0 };
  const cases: [string, unknown, string][] = [
    [
      'legacy-1',
      { ...base, runId: 'legacy-1' },
      'job payload is invalid: it has no version (v is missing): it was not written by golem/queue',
    ],
    [
      'legacy-2',
      { ...base, v: 0, runId: 'legacy-2' },
      'job payload version 0 is not supported by this worker, which reads version 1: it was written by an older golem/queue; enqueue the run again (queue.recover(runId) continues a run that had started)',
    ],
    [
      'future-1',
      { ...base, v: 2, runId: 'future-1' },
      'job payload version 2 is not supported by this worker, which reads version 1: it was written by a newer golem/queue; upgrade this worker (upgrade workers before producers)',
    ],
    [
      'broken-1',
      { ...base, v: 1, runId: 'broken-1', kind: 'explode' },
      'job payload is invalid: kind must be start, resume or continue',
    ],
    ['garbage', 'not an object', 'job payload is invalid: not an object'],
    [
      'huge-1',
      { ...base, v: 1, runId: 'huge-1', prompt: 'z'.repeat(3_000) },
      'job for run "huge-1" is ',
    ],
  ];
  try {
    for (const [id, data] of cases) await raw.queue.add('run', data, { jobId: id });
    const next = await h.queue.enqueue('echo', 'after the bad ones');
    expect(await h.queue.result(next.runId)).toMatchObject({ status: 'completed' });
    for (const [id, , reason] of cases) {
      const report = await jobReport(h.prefix, id);
      expect([id, report.state, report.failedReason?.slice(0, reason.length)]).toEqual([
        id,
        'failed',
        reason,
      ]);
    }
    // Payloads that name a run leave it stored as failed at the queue stage (not an oversized prompt).
    expect(await loadRun(h.store, 'legacy-2')).toMatchObject({
      status: 'failed',
      agent: 'echo',
      error: { stage: 'queue' },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect((await loadRun(h.store, 'huge-1')).messages).toEqual([]);
  } finally {
    await raw.close();
  }
});
