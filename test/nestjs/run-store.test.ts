/**
 * The run store configured once in the Nest module: `GolemModule.forRoot({ store })` (or what
 * `forRootAsync`'s factory returns) makes every agent `forFeature` builds durable — run, resume and
 * resumeRun use it without a per-call store — and `@InjectRunStore()` / `getRunStoreToken()` give
 * it to the app. A store from the factory is the module's (closed on shutdown); one given to
 * forRoot is the app's. A real SQLite file in a temp folder stands for another process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { listRuns, loadRun, StoreError, type RunStore, ConfigError } from 'golem';
import { Agent, NoArgs, PAUSABLE_TYPE, Tool } from 'golem/decorators';
import {
  GolemModule,
  GolemTestingModule,
  InjectAgent,
  InjectRunStore,
  getAgentToken,
  getRunStoreToken,
  type InjectedAgent,
} from 'golem/nestjs';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** Pays once a human approved; the ledger is how the test sees side effects. */
@Agent({ model: 'default', deferredTools: true })
class PaymentsAgent {
  declare readonly [PAUSABLE_TYPE]: true;
  static readonly paid: string[] = [];

  @Tool({ description: 'Pay the invoice', approval: true })
  pay(_args: NoArgs): string {
    PaymentsAgent.paid.push('invoice-1');
    return 'paid';
  }
}

const paymentsFeature = GolemModule.forFeature([PaymentsAgent]);

/** A service of the app: the agent and the store, both injected. */
@Injectable()
class Payments {
  constructor(
    @InjectAgent(PaymentsAgent) readonly agent: InjectedAgent<typeof PaymentsAgent>,
    @InjectRunStore() readonly store: RunStore,
  ) {}
}

@Module({ imports: [paymentsFeature], providers: [Payments], exports: [Payments] })
class PaymentsModule {}

const model = () =>
  new FunctionModel((request) =>
    request.messages.some((m) => m.role === 'tool')
      ? textResponse('Paid.')
      : toolCallResponse([{ id: 'pay-1', name: 'pay', args: {} }]),
  );

const dir = mkdtempSync(join(tmpdir(), 'golem-nest-store-'));
const apps: TestingModule[] = [];

afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(root: DynamicModule): Promise<TestingModule> {
  const app = await Test.createTestingModule({ imports: [root, PaymentsModule] }).compile();
  apps.push(app);
  await app.init();
  return app;
}

beforeEach(() => {
  PaymentsAgent.paid.length = 0;
});

test('forRoot({ store }): injected agents run, pause and resume durably; the store is injected and stays open', async () => {
  const store = memoryStore();
  const app = await start(GolemTestingModule.forRoot({ defaultModel: model(), store }));
  const payments = app.get(Payments);
  expect(payments.store).toBe(store);
  expect(app.get(getRunStoreToken())).toBe(store);

  const paused = await payments.agent.run('Pay invoice 1.', { conversation: 'customer-7' });
  expect(paused.pending?.approvals.map((a) => a.callId)).toEqual(['pay-1']);
  const [waiting] = await listRuns(payments.store, { status: ['paused'] });
  expect(waiting).toMatchObject({ id: paused.runId, agent: 'PaymentsAgent' });

  const done = await payments.agent.resume(paused.runId ?? '', {
    approvals: { 'pay-1': { approved: true } },
  });
  expect([done.output, PaymentsAgent.paid]).toEqual(['Paid.', ['invoice-1']]);
  expect((await loadRun(store, paused.runId ?? '')).status).toBe('completed');
  await expect(payments.agent.resumeRun(paused.runId ?? '')).rejects.toMatchObject({
    reason: 'invalid-state',
  });

  await app.close();
  expect(await store.getRun(paused.runId ?? '')).toBeDefined(); // the app's store: still open
});

test("forRootAsync: the factory's SQLite store is shared by agents, closed on shutdown, and another app resumes its run", async () => {
  const path = join(dir, 'runs.db');
  let built: RunStore | undefined;
  const first = await start(
    GolemModule.forRootAsync({
      useFactory: () => ({ defaultModel: model(), store: (built = sqliteStore({ path })) }),
    }),
  );
  const paused = await first.get(Payments).agent.run('Pay invoice 1.');
  expect(first.get(Payments).store).toBe(built);
  await first.close();
  await expect(built?.getRun(paused.runId ?? '')).rejects.toMatchObject({ reason: 'closed' });

  // A second application (a restart) on the same file approves and finishes the run.
  const second = await start(
    GolemModule.forRootAsync({
      useFactory: () => ({ defaultModel: model(), store: sqliteStore({ path }) }),
    }),
  );
  const agent = second.get(getAgentToken(PaymentsAgent), { strict: false });
  const done = await agent.resume(paused.runId ?? '', {
    approvals: { 'pay-1': { approved: true } },
  });
  expect([done.output, PaymentsAgent.paid]).toEqual(['Paid.', ['invoice-1']]);
  await second.close();
});

test('a store in both the factory result and closables is closed once', async () => {
  let closes = 0;
  const store = memoryStore();
  const close = store.close.bind(store);
  store.close = () => {
    closes++;
    return close();
  };
  const app = await start(
    GolemModule.forRootAsync({
      useFactory: () => ({ defaultModel: model(), store, closables: [store] }),
    }),
  );
  await app.close();
  expect(closes).toBe(1);
});

test('overrideProvider(getRunStoreToken()) switches every agent to the replacement', async () => {
  const configured = memoryStore();
  const replacement = memoryStore();
  const app = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({ defaultModel: model(), store: configured }),
      PaymentsModule,
    ],
  })
    .overrideProvider(getRunStoreToken())
    .useValue(replacement)
    .compile();
  apps.push(app);
  const paused = await app.get(Payments).agent.run('Pay invoice 1.');
  expect((await loadRun(replacement, paused.runId ?? '')).status).toBe('paused');
  expect(await listRuns(configured)).toEqual([]);
});

test('without a store, runs are not stored and using the injected store is a missing-store error', async () => {
  const app = await start(GolemTestingModule.forRoot({ defaultModel: model() }));
  const payments = app.get(Payments);
  expect((await payments.agent.run('Pay invoice 1.')).runId).toBeUndefined();
  const error: unknown = await listRuns(payments.store).catch((e: unknown) => e);
  expect(ConfigError.is(error, 'nestjs') && error.reason).toBe('missing-store');
  expect(StoreError.is(error)).toBe(false);
  expect((error as Error).message).toContain(
    'GolemModule.forRoot({ store: sqliteStore({ path }) })',
  );
  await expect(payments.agent.resumeRun('r-1')).rejects.toThrow(/store/);
});

test('a store that is not a run store is an invalid-options error, eagerly or at startup', async () => {
  expect(() => GolemModule.forRoot({ store: 'runs.db' as never })).toThrow(
    'GolemModule.forRoot: store must be a run store, e.g. sqliteStore({ path }) from golem/stores/sqlite',
  );
  const init = Test.createTestingModule({
    imports: [GolemModule.forRootAsync({ useFactory: () => ({ store: {} as never }) })],
  }).compile();
  await expect(init).rejects.toMatchObject({
    reason: 'invalid-options',
    message: expect.stringContaining(
      'GolemModule.forRootAsync: store must be a run store',
    ) as unknown,
  });
});
