/**
 * A segment's ending is in the run's feed before its job settles: the worker sends it on the
 * connection it gives BullMQ, just ahead of the job's completion, without waiting for its reply —
 * Redis applies the two in that order. Checked in the order Redis executed them (MONITOR, which
 * lists the commands scripts run): for completed, paused and failed runs alike, the feed's ending
 * entry comes before BullMQ's `completed` / `failed` event of the job.
 */
import { Agent, defineTool } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { testRedis } from '../redis';
import type { Harness } from './harness';
import { harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

/** `ok …` completes, `ask …` pauses on an approval, `bad …` fails in the model. */
function agent() {
  const approve = defineTool({
    name: 'approve',
    description: 'Needs approval',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => 'ok',
  });
  const model = new FunctionModel((request) => {
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    if (prompt.startsWith('bad')) throw new Error('the model broke');
    if (prompt.startsWith('ask'))
      return toolCallResponse([{ id: 'a1', name: 'approve', args: {} }]);
    return textResponse(`echo ${prompt}`);
  });
  return new Agent({ model, tools: [approve], name: 'mixed', deferredTools: true });
}

test('the ending reaches the feed before BullMQ settles the job', async () => {
  h = await harness();
  const redis = testRedis();
  const monitor = await redis.monitor();
  const log: string[][] = [];
  const settledJobs = new Set<string>();
  let allSettled: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (allSettled = resolve));
  const isSettling = (a: string[]): boolean =>
    a[0]?.toUpperCase() === 'XADD' &&
    a[1] === `${h.prefix}:golem:events` &&
    (a.includes('completed') || a.includes('failed'));
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (!args.some((a) => a.startsWith(h.prefix))) return;
    log.push(args);
    const jobId = args[args.indexOf('jobId') + 1];
    if (isSettling(args) && jobId !== undefined) settledJobs.add(jobId);
    if (settledJobs.size === 60) allSettled();
  });
  const kinds = ['ok', 'ask', 'bad'] as const;
  const endings = { ok: 'completed', ask: 'paused', bad: 'failed' } as const;
  await h.worker({ agents: [agent()], concurrency: 10 });
  const runs = await Promise.all(
    Array.from({ length: 60 }, (_, i) => h.queue.enqueue('mixed', `${kinds[i % 3]!} ${i}`)),
  );
  const results = await Promise.all(runs.map((r) => h.queue.result(r.runId)));
  expect(results.map((r) => r.status)).toEqual(runs.map((_, i) => endings[kinds[i % 3]!]));
  await settled; // every job settled in BullMQ too
  monitor.disconnect();
  redis.disconnect();

  const order = runs.map(({ runId, jobId }, i) => {
    const ending = endings[kinds[i % 3]!];
    const fed = log.findIndex(
      (a) =>
        a[0]?.toUpperCase() === 'XADD' &&
        a[1] === `${h.prefix}:golem:golem:feed:${runId}` &&
        a.some((v) => v.includes(`"type":"${ending}"`)),
    );
    const done = log.findIndex((a) => isSettling(a) && a.includes(jobId));
    return { runId, fed: fed >= 0, before: fed >= 0 && fed < done };
  });
  expect(order.filter((o) => !o.before)).toEqual([]);
});
