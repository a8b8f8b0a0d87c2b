/**
 * What a delivery does from the stored run — the same table for a first delivery, a retry and a
 * redelivery after a worker died, which is what makes every delivery safe to repeat.
 */
import type { RunRecord } from 'golem';
import { JOB_VERSION, QueueError } from 'golem/queue';
import type { RunJob } from 'golem/queue';
import { planDelivery } from '../../../src/queue/plan';

const NOW = 1_000_000;
const start: RunJob = {
  v: JOB_VERSION,
  kind: 'start',
  runId: 'r',
  agent: 'a',
  prompt: 'hi',
  options: {},
  enqueuedAt: 0,
};
const resume: RunJob = { ...start, kind: 'resume', results: {}, pausedVersion: 5 };
const recover: RunJob = { ...start, kind: 'continue' };

function record(status: RunRecord['status'], extra: Partial<RunRecord> = {}): RunRecord {
  // A record as decodeRun makes it, without the lazy `state` the planner never reads.
  return {
    id: 'r',
    agent: 'a',
    conversationId: undefined,
    status,
    messages: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    requests: 0,
    toolCalls: 0,
    turns: 0,
    pending: undefined,
    inFlight: [],
    error: status === 'failed' ? { stage: 'tool', message: 'boom' } : undefined,
    createdAt: 0,
    updatedAt: 0,
    lease: undefined,
    version: 5,
    owner: undefined,
    output: undefined,
    ...extra,
  } as RunRecord;
}

test('no stored run: a start starts it; a resume or recovery of an unknown run fails', () => {
  expect(planDelivery(start, undefined, NOW)).toEqual({ type: 'execute', mode: 'start' });
  for (const job of [resume, recover]) {
    const plan = planDelivery(job, undefined, NOW);
    expect(plan.type === 'fail' && QueueError.isReason(plan.error, 'not-found')).toBe(true);
  }
});

test('a run held by a live lease is left to its holder until the lease expires', () => {
  const held = record('running', { lease: { owner: 'w1', expiresAt: NOW + 500 } });
  for (const job of [start, resume, recover])
    expect(planDelivery(job, held, NOW)).toEqual({ type: 'later', at: NOW + 501 });
});

test('a running run nobody holds (its worker died) is continued from its checkpoint', () => {
  const orphan = record('running', { lease: { owner: 'dead', expiresAt: NOW - 1 } });
  expect(planDelivery(start, orphan, NOW)).toEqual({ type: 'execute', mode: 'continue' });
  expect(planDelivery(start, record('running'), NOW)).toEqual({
    type: 'execute',
    mode: 'continue',
  });
});

test('a paused run is resumed only by the decision for that pause', () => {
  const paused = record('paused');
  expect(planDelivery(resume, paused, NOW)).toEqual({ type: 'execute', mode: 'resume' });
  expect(planDelivery({ ...resume, pausedVersion: 4 }, paused, NOW)).toEqual({
    type: 'settled',
    record: paused,
  });
  expect(planDelivery(start, paused, NOW)).toEqual({ type: 'settled', record: paused });
});

test('a completed run is settled: nothing runs again', () => {
  const done = record('completed');
  for (const job of [start, resume, recover])
    expect(planDelivery(job, done, NOW)).toEqual({ type: 'settled', record: done });
});

test('a failed run is continued only by a recovery or a handover; otherwise its failure stands', () => {
  const failed = record('failed');
  expect(planDelivery(recover, failed, NOW)).toEqual({ type: 'execute', mode: 'continue' });
  expect(planDelivery({ ...start, handover: true }, failed, NOW)).toEqual({
    type: 'execute',
    mode: 'continue',
  });
  const plan = planDelivery(start, failed, NOW);
  expect(plan.type === 'fail' && plan.error.message).toBe('run "r" failed at the tool stage: boom');
});
