/**
 * golem/nestjs on a real queue: an HTTP-side Nest application (GolemQueueModule.forRoot only)
 * injects the RunQueue and enqueues a decorated agent class by name; a worker-side application
 * (forRoot + registerWorker) runs it with the class resolved by Nest — its injected service from
 * the worker's module, only JSON deps from the job — including an approval decided from the
 * other application. Closing the applications closes the worker and the queue.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import type { RunContext } from 'golem';
import { Agent, DEPS_TYPE, NoArgs, PAUSABLE_TYPE, Tool } from 'golem/decorators';
import { GolemModule } from 'golem/nestjs';
import {
  GolemQueueModule,
  GolemQueueWorker,
  getRunQueueToken,
  InjectRunQueue,
} from 'golem/nestjs/queue';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { configErrorOf } from '../../support/config-error';

jest.setTimeout(30_000);

/** A collaborator the worker's container provides: never part of a job. */
@Injectable()
class Ledger {
  readonly refunds: string[] = [];
  refund(customer: string): string {
    this.refunds.push(customer);
    return `refunded ${customer}`;
  }
}

@Agent({ model: 'default', deferredTools: true })
class RefundAgent {
  declare readonly [DEPS_TYPE]: { customer: string };
  declare readonly [PAUSABLE_TYPE]: true;

  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Refund the customer', approval: true })
  refund(_args: NoArgs, ctx: RunContext<{ customer: string }>): string {
    return this.ledger.refund(ctx.deps.customer);
  }
}

@Agent({ model: 'default' })
class NotRegisteredAgent {}

@Module({ imports: [GolemModule.forFeature([RefundAgent])], providers: [Ledger] })
class RefundModule {}

/** The HTTP side's service: what a controller would call. */
@Injectable()
class Refunds {
  constructor(@InjectRunQueue() readonly runs: RunQueue) {}
}

const model = new FunctionModel((request) =>
  request.messages.some((m) => m.role === 'tool')
    ? textResponse('Refund done.')
    : toolCallResponse([{ id: 'r1', name: 'refund', args: {} }]),
);

const prefix = uniquePrefix();
const dir = mkdtempSync(join(tmpdir(), 'golem-nest-queue-'));
const store = sqliteStore({ path: join(dir, 'runs.db') });
const apps: TestingModule[] = [];

afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await store.close();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

async function start(...imports: unknown[]): Promise<TestingModule> {
  const app = await Test.createTestingModule({ imports: imports as [] }).compile();
  apps.push(app);
  await app.init();
  return app;
}

test('a Nest worker runs the enqueued class with its injected service; the decision comes from the HTTP side', async () => {
  // The worker's queue module shares GolemModule's store; the HTTP side names it itself.
  const queueRoot = GolemQueueModule.forRoot({ connection: REDIS_URL, prefix });
  const worker = await start(
    GolemModule.forRoot({ defaultModel: model, store }),
    RefundModule,
    queueRoot,
    GolemQueueModule.registerWorker({ agents: [RefundAgent], concurrency: 2 }),
  );
  const http = await start(
    GolemQueueModule.forRootAsync({ useFactory: () => ({ connection: REDIS_URL, prefix, store }) }),
    { module: class HttpModule {}, providers: [Refunds] },
  );
  expect(worker.get(GolemQueueWorker).worker?.id).toEqual(expect.any(String));
  expect(worker.get<RunQueue>(getRunQueueToken()).store).toBe(store);
  const { runs } = http.get(Refunds);

  const { runId } = await runs.enqueue(RefundAgent, 'Refund me', { deps: { customer: 'Ada' } });
  expect(await runs.result(runId)).toMatchObject({
    status: 'paused',
    pending: { approvals: [{ callId: 'r1', toolName: 'refund' }] },
  });
  expect(worker.get(Ledger).refunds).toEqual([]);

  await runs.decide(runId, { approvals: { r1: { approved: true } } });
  expect(await runs.result(runId, { until: 'finished' })).toMatchObject({
    status: 'completed',
    output: 'Refund done.',
  });
  expect(worker.get(Ledger).refunds).toEqual(['Ada']);

  // Closing the applications stops the worker and closes both queues.
  await worker.close();
  await http.close();
  expect(worker.get(GolemQueueWorker).worker?.activeRuns).toBe(0);
  await expect(runs.enqueue(RefundAgent, 'again')).rejects.toMatchObject({ reason: 'closed' });
});

test('a worker naming an agent class no module registers fails at startup with a typed error', async () => {
  const init = start(
    GolemModule.forRoot({ defaultModel: model }),
    GolemQueueModule.forRoot({ connection: REDIS_URL, prefix, store }),
    GolemQueueModule.registerWorker({ agents: [NotRegisteredAgent] }),
  );
  await expect(init).rejects.toThrow(configErrorOf('nestjs'));
  await expect(init).rejects.toMatchObject({
    reason: 'unregistered-agent',
    message: expect.stringContaining('GolemModule.forFeature([NotRegisteredAgent])') as unknown,
  });
});
