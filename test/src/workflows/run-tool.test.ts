/**
 * `wf.runTool` runs a golem Tool as a step with the agent loop's guarantees: a completed call
 * replays; an interrupted non-idempotent call suspends for a decision instead of running twice;
 * an idempotent one runs again; an approval-gated tool asks first. `ctx.interrupted` tells a
 * step's body that its last attempt was cut short.
 */
import { defineTool, type Tool } from 'golem';
import { defineWorkflow, WorkflowError } from 'golem/workflows';
import { clockedStore, gate, LEASE_MS, runnerOn } from './support';

function charger(options: { idempotent?: boolean; approval?: boolean; hang?: Promise<void> }) {
  const calls: { args: unknown; approved: boolean }[] = [];
  const tool: Tool = defineTool({
    name: 'charge',
    description: 'Charges the card.',
    schema: { type: 'object', properties: { cents: { type: 'number' } }, required: ['cents'] },
    ...(options.idempotent !== undefined && { idempotent: options.idempotent }),
    ...(options.approval === true && { approval: true }),
    execute: async (args, ctx) => {
      calls.push({ args, approved: ctx.approved });
      if (options.hang !== undefined && calls.length === 1) await options.hang;
      return `charged ${String((args as { cents: number }).cents)}`;
    },
  });
  return { tool, calls };
}

function flowOf(tool: Tool, started?: () => void) {
  return defineWorkflow({
    name: 'pay',
    async run(input: { cents: number }, wf) {
      await wf.step('before', () => {
        started?.();
        return 1;
      });
      return wf.runTool('charge', tool, { cents: input.cents });
    },
  });
}

/** Starts a run whose tool hangs, then recovers it in a second runner (the first "died"). */
async function crashMidTool(idempotent: boolean) {
  const { store, clock } = clockedStore();
  const hang = gate();
  const { tool, calls } = charger({ idempotent, hang: hang.promise });
  const flow = flowOf(tool);
  const first = runnerOn(store, [flow]).runner;
  const crashed = first.start(flow, { cents: 500 }, { runId: 'p' }).catch((e: unknown) => e);
  while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
  clock.advance(LEASE_MS + 1);
  const second = runnerOn(store, [flow]).runner;
  const recovered = await second.recover();
  return { second, calls, recovered, finish: () => (hang.open(), crashed) };
}

test('a completed tool step replays its result after a crash: the tool never runs twice', async () => {
  const { store, clock } = clockedStore();
  const { tool, calls } = charger({});
  const hang = gate();
  let waits = 0;
  const flow = defineWorkflow({
    name: 'pay',
    async run(input: { cents: number }, wf) {
      const charged = await wf.runTool('charge', tool, { cents: input.cents });
      await wf.step('notify', async () => {
        if (++waits === 1) await hang.promise; // the first process dies here
      });
      return charged;
    },
  });
  const first = runnerOn(store, [flow]).runner;
  const crashed = first.start(flow, { cents: 250 }, { runId: 'a' }).catch((e: unknown) => e);
  while (waits === 0) await new Promise((resolve) => setImmediate(resolve));
  clock.advance(LEASE_MS + 1);
  const second = runnerOn(store, [flow]).runner;
  expect(await second.recover()).toEqual(['a']);
  expect((await second.get('a')).output).toBe('charged 250');
  expect(calls).toEqual([{ args: { cents: 250 }, approved: false }]);
  hang.open();
  await crashed;
});

test('an interrupted non-idempotent tool suspends for a decision instead of running again', async () => {
  const { second, calls, recovered, finish } = await crashMidTool(false);
  expect(recovered).toEqual(['p']);
  const info = await second.get('p');
  expect(info.status).toBe('suspended');
  expect(info.waiting[0]?.reason).toMatch(/may have run: resume with \{ rerun: true \}/);
  expect(calls).toHaveLength(1);
  const done = await second.resume('p', { result: 'charged 500 (checked by hand)' });
  expect(done).toMatchObject({ status: 'completed', output: 'charged 500 (checked by hand)' });
  expect(calls).toHaveLength(1);
  expect(await finish()).toMatchObject({ kind: 'lease-lost' });
});

test('an interrupted tool runs again when the decision says rerun', async () => {
  const { second, calls, finish } = await crashMidTool(false);
  const done = await second.resume('p', { rerun: true });
  expect(done).toMatchObject({ status: 'completed', output: 'charged 500' });
  expect(calls).toHaveLength(2);
  await finish();
});

test('an interrupted idempotent tool runs again by itself', async () => {
  const { second, calls, recovered, finish } = await crashMidTool(true);
  expect(recovered).toEqual(['p']);
  expect((await second.get('p')).output).toBe('charged 500');
  expect(calls).toHaveLength(2);
  await finish();
});

test('an approval-gated tool asks first; approved it runs with ctx.approved, denied the step fails', async () => {
  const { store } = clockedStore();
  const { tool, calls } = charger({ approval: true });
  const flow = flowOf(tool);
  const { runner } = runnerOn(store, [flow]);
  const paused = await runner.start(flow, { cents: 900 }, { runId: 'g' });
  expect(paused.status).toBe('suspended');
  expect(calls).toHaveLength(0);
  expect(await runner.resume('g', { approved: true })).toMatchObject({ output: 'charged 900' });
  expect(calls).toEqual([{ args: { cents: 900 }, approved: true }]);

  await runner.start(flow, { cents: 1 }, { runId: 'd' });
  const denied: unknown = await runner.resume('d', { approved: false }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(denied, 'step-failed')).toBe(true);
  expect(calls).toHaveLength(1);
});

test('ctx.interrupted is true only for the first attempt after a cut-short one', async () => {
  const { store, clock } = clockedStore();
  const seen: boolean[] = [];
  const hang = gate();
  let attempts = 0;
  const flow = defineWorkflow({
    name: 'flag',
    async run(_input: null, wf) {
      return wf.step(
        'work',
        async (ctx) => {
          seen.push(ctx.interrupted);
          attempts++;
          if (attempts === 1) await hang.promise; // the first process dies here
          if (attempts === 2) throw new Error('flaky');
          return 'ok';
        },
        { retries: 1, backoff: () => 0 },
      );
    },
  });
  const first = runnerOn(store, [flow]).runner;
  const crashed = first.start(flow, null, { runId: 'i' }).catch((e: unknown) => e);
  while (attempts === 0) await new Promise((resolve) => setImmediate(resolve));
  clock.advance(LEASE_MS + 1);
  const second = runnerOn(store, [flow]).runner;
  await second.recover();
  expect((await second.get('i')).output).toBe('ok');
  expect(seen).toEqual([false, true, false]);
  hang.open();
  await crashed;
});
