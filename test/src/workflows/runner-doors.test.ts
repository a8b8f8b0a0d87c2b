/**
 * The runner's other doors and edges: input validation at start, startAsync + execute, step
 * timeouts, the event stream, a failing run function, corrupt rows, and runner configuration.
 */
import { ConfigError } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { defineWorkflow, WorkflowError, WorkflowRunner } from 'golem/workflows';
import { clockedStore, flush, gate, objectSchema, runnerOn } from './support';

test('start validates the input with the workflow schema: invalid-input, nothing stored', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'typed',
    input: objectSchema<{ sku: string }>({ sku: 'string' }),
    run: (input, wf) => wf.step('echo', () => input.sku),
  });
  const { runner } = runnerOn(store, [wf]);
  const error: unknown = await runner
    .start(wf, { sku: 1 } as never, { runId: 'x' })
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'invalid-input')).toBe(true);
  expect((error as Error).message).toMatch(/sku: expected string/);
  await expect(runner.get('x')).rejects.toMatchObject({ kind: 'not-found' });
  await expect(runner.start(wf, { sku: 'a-1' })).resolves.toMatchObject({ output: 'a-1' });
});

test('startAsync stores the run without executing it; execute runs it; a reused id conflicts', async () => {
  const { store } = clockedStore();
  let ran = 0;
  const wf = defineWorkflow({ name: 'later', run: (_: null, wf) => wf.step('go', () => ++ran) });
  const { runner } = runnerOn(store, [wf]);
  await expect(runner.startAsync(wf, null, { runId: 'q' })).resolves.toEqual({ runId: 'q' });
  expect(ran).toBe(0);
  expect((await runner.get('q')).status).toBe('running');
  await expect(runner.execute('q')).resolves.toEqual({
    runId: 'q',
    status: 'completed',
    output: 1,
  });
  await expect(runner.execute('q')).resolves.toMatchObject({ status: 'completed' }); // idempotent
  expect(ran).toBe(1);
  const dup: unknown = await runner.startAsync(wf, null, { runId: 'q' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(dup, 'conflict')).toBe(true);
});

test('a step attempt past its timeout is aborted and fails (then retried)', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    const { store } = clockedStore();
    const signals: AbortSignal[] = [];
    const hanging = gate();
    const wf = defineWorkflow({
      name: 'timed',
      run: (_: null, wf) =>
        wf.step(
          'slow',
          (ctx) => {
            signals.push(ctx.signal);
            if (ctx.attempt > 1) return 'fast';
            hanging.open();
            return new Promise<string>(() => undefined); // never settles
          },
          { timeout: 5_000, retries: 1 },
        ),
    });
    const { runner, events } = runnerOn(store, [wf]);
    const running = runner.start(wf, null);
    await hanging.promise;
    jest.advanceTimersByTime(4_999);
    await flush();
    expect(signals[0]?.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await expect(running).resolves.toMatchObject({ output: 'fast' });
    expect(signals[0]?.aborted).toBe(true);
    const failed = events.find((e) => e.kind === 'step_failed');
    expect(failed && 'error' in failed && failed.error.message).toMatch(/timed out after 5000 ms/);
  } finally {
    jest.useRealTimers();
  }
});

test('the event stream: started, steps, completed; a continued run replays its steps', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'evented',
    async run(_: null, wf) {
      await wf.step('a', () => 1);
      return wf.step('b', (ctx) => ctx.suspend<number>());
    },
  });
  const { runner, events } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'ev' });
  expect(
    events.map((e) => `${e.kind}${'step' in e && e.step !== undefined ? `:${e.step}` : ''}`),
  ).toEqual([
    'workflow_started',
    'step_started:a',
    'step_completed:a',
    'step_started:b',
    'workflow_suspended',
  ]);
  events.length = 0;
  await runner.resume('ev', 2);
  expect(events.map((e) => e.kind)).toEqual([
    'workflow_resumed',
    'step_replayed',
    'step_started',
    'step_completed',
    'workflow_completed',
  ]);
  expect(events.every((e) => e.runId === 'ev' && e.workflow === 'evented')).toBe(true);
});

test('a run function that throws outside any step fails the run with step-failed', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'throws',
    async run(_: null, wf) {
      await wf.step('a', () => 1);
      throw new TypeError('bad branch');
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const error: unknown = await runner.start(wf, null, { runId: 't' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'step-failed')).toBe(true);
  expect(error).toMatchObject({ runId: 't', step: undefined });
  expect(((error as Error).cause as Error).message).toBe('bad branch');
  expect((await runner.get('t')).error?.message).toMatch(/bad branch/);
});

test('a stored run that does not decode is reported as corrupt', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({ name: 'w', run: () => Promise.resolve(1) });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'c' });
  const row = await store.getWorkflowRun('c');
  if (row === undefined) throw new Error('missing row');
  await store.replaceWorkflowRun(
    { ...row, steps: '[{"key":1}]', version: row.version + 1 },
    row.version,
  );
  await expect(runner.get('c')).rejects.toMatchObject({ kind: 'corrupt', runId: 'c' });
});

test('a runner needs a WorkflowStore and uniquely named workflows (ConfigError)', () => {
  const wf = defineWorkflow({ name: 'w', run: () => Promise.resolve(1) });
  expect(() => new WorkflowRunner({ store: {} as never, workflows: [wf] })).toThrow(ConfigError);
  expect(() => new WorkflowRunner({ store: memoryStore(), workflows: [wf, wf] })).toThrow(
    /two workflows are named "w"/,
  );
  expect(() => defineWorkflow({ name: 'bad name!', run: () => Promise.resolve(1) })).toThrow(
    ConfigError,
  );
});

test('aborting start stops the execution at the next step boundary; the run is recovered later', async () => {
  const { store } = clockedStore();
  const controller = new AbortController();
  let second = 0;
  const wf = defineWorkflow({
    name: 'abortable',
    async run(_: null, wf) {
      await wf.step('first', () => {
        controller.abort();
        return 1;
      });
      return wf.step('second', () => ++second);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const error: unknown = await runner
    .start(wf, null, { runId: 'ab', signal: controller.signal })
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'cancelled')).toBe(true);
  expect(second).toBe(0);
  const stopped = await runner.get('ab');
  expect(stopped).toMatchObject({ status: 'running', lease: undefined });
  expect(stopped.steps.map((s) => [s.key, s.status])).toEqual([['first', 'completed']]);
  expect(await runner.recover()).toEqual(['ab']);
  expect(await runner.get('ab')).toMatchObject({ status: 'completed', output: 1 });
  expect(second).toBe(1);
});
