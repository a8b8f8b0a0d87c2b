/**
 * A job whose stored payload is not even JSON (written by something else, or damaged in Redis)
 * reaches golem's decoder instead of failing inside BullMQ's fetch: it fails at once, for good,
 * as `invalid-job`, and is findable by the run its job id names. A payload without a version is
 * `invalid-job` too, not `unsupported-version`.
 */
import { loadRun } from 'golem';
import { Agent } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';
import { testRedis } from '../redis';
import type { Harness } from './harness';
import { harness } from './harness';
import { rawQueue } from './raw';

jest.setTimeout(20_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

const echo = new Agent({
  model: new FunctionModel((r) => textResponse(`echo ${r.messages.at(-1)?.content ?? ''}`)),
  name: 'echo',
});

const payload = (runId: string) => ({
  v: 1,
  kind: 'start',
  runId,
  agent: 'echo',
  prompt: 'hi',
  options: {},
  enqueuedAt: 0,
});

test('a job whose data is not JSON fails fast as invalid-job, findable by its run id', async () => {
  h = await harness();
  const raw = rawQueue(h.prefix);
  const redis = testRedis();
  try {
    // Queued by BullMQ, then its stored data overwritten with text that is not JSON.
    await raw.queue.add('run', payload('broken-1'), { jobId: 'start.broken-1' });
    await raw.queue.add('run', payload('no-version-1'), { jobId: 'start.no-version-1' });
    const text = '{"v":1,"kind":"start","runId":"broken-1",';
    await redis.hset(`${h.prefix}:golem:start.broken-1`, 'data', text);
    const { v: _v, ...unversioned } = payload('no-version-1');
    await redis.hset(`${h.prefix}:golem:start.no-version-1`, 'data', JSON.stringify(unversioned));
    await h.worker({ agents: { echo }, concurrency: 1 });

    const broken = `job payload is invalid: its stored data is not JSON (${text.length} bytes)`;
    const noVersion =
      'job payload is invalid: it has no version (v is missing): it was not written by golem/queue';
    for (const [runId, reason] of [
      ['broken-1', broken],
      ['no-version-1', noVersion],
    ] as const) {
      // Waited for without a clock: the run's feed ends with the failure (before the fix it never
      // did — the job stayed active), and the store keeps it: findable by its run id.
      const ending: unknown[] = [];
      for await (const { event } of h.queue.events(runId, { waitForStart: true }))
        if (event.type === 'failed') ending.push(event.error);
      expect(ending).toEqual([
        { stage: 'queue', kind: 'QueueError', reason: 'invalid-job', message: reason },
      ]);
      expect(await h.queue.result(runId)).toMatchObject({
        status: 'failed',
        error: { stage: 'queue', message: reason },
      });
      expect(await loadRun(h.store, runId)).toMatchObject({ status: 'failed' });
      // BullMQ failed the job for good, on its first delivery, with that reason.
      const jobId = `start.${runId}`;
      expect(await raw.queue.getJobState(jobId)).toBe('failed');
      expect(await redis.hmget(`${h.prefix}:golem:${jobId}`, 'failedReason', 'atm')).toEqual([
        reason,
        '1',
      ]);
    }
    // The worker goes on, and logged no parse error.
    const next = await h.queue.enqueue('echo', 'still here?');
    expect(await h.queue.result(next.runId)).toMatchObject({ output: 'echo still here?' });
    expect(h.errors).toEqual([]);
  } finally {
    redis.disconnect();
    await raw.close();
  }
});
