/**
 * Introspection: `workflowGraph` gives a declared workflow's static shape; `toMermaid` draws a
 * shape or a run (per-step state classes, parallel fan-out/fan-in, pending declared steps) with
 * sanitised node ids and escaped labels.
 */
import { defineWorkflow, toMermaid, workflowGraph } from 'golem/workflows';
import { clockedStore, runnerOn } from './support';

test('the static shape of declared steps, drawn with their edges', () => {
  const wf = defineWorkflow({
    name: 'order',
    steps: [
      { name: 'validate', next: ['reserve', 'price'] },
      { name: 'reserve', next: ['pay'] },
      { name: 'price', next: ['pay'] },
      { name: 'pay' },
    ],
    run: () => Promise.resolve(null),
  });
  const shape = workflowGraph(wf);
  expect(shape.steps.map((s) => [s.name, s.next])).toEqual([
    ['validate', ['reserve', 'price']],
    ['reserve', ['pay']],
    ['price', ['pay']],
    ['pay', []],
  ]);
  const lines = toMermaid(shape).split('\n');
  expect(lines[0]).toBe('flowchart TD');
  expect(lines).toContain('  s_validate["validate"]');
  expect(lines).toContain('  s_validate --> s_reserve');
  expect(lines).toContain('  s_validate --> s_price');
  expect(lines).toContain('  s_price --> s_pay');
});

test('an undeclared workflow has an empty shape', () => {
  const wf = defineWorkflow({ name: 'free', run: () => Promise.resolve(1) });
  expect(workflowGraph(wf)).toEqual({ workflow: 'free', steps: [] });
});

test('a run is drawn with state classes, a fan-out/fan-in and pending declared steps', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'drawn',
    steps: [
      { name: 'start' },
      { name: 'left' },
      { name: 'right' },
      { name: 'ask' },
      { name: 'never' },
    ],
    async run(_: null, wf) {
      await wf.step('start', () => 1);
      await Promise.all([wf.step('left', () => 'l'), wf.step('right', () => 'r')]);
      await wf.step('ask', (ctx) => ctx.suspend());
      return wf.step('never', () => 0);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'm' });
  const lines = toMermaid(await runner.get('m')).split('\n');
  expect(lines[0]).toBe('flowchart TD');
  expect(lines).toContain('  s_start["start"]:::completed');
  expect(lines).toContain('  s_ask["ask"]:::suspended');
  expect(lines).toContain('  s_pending_never["never"]:::pending');
  expect(lines).toContain('  s_start --> s_left');
  expect(lines).toContain('  s_start --> s_right');
  expect(lines).toContain('  s_left --> s_ask');
  expect(lines).toContain('  s_right --> s_ask');
  expect(lines).not.toContain('  s_left --> s_right');
  expect(lines).toContain('  s_ask -.-> s_pending_never');
  expect(lines.some((l) => l.includes('classDef suspended'))).toBe(true);
});

test('step names cannot inject Mermaid syntax: labels are escaped, ids sanitised', async () => {
  const { store } = clockedStore();
  const evil = 'x"]; click s_a "javascript:alert(1)" %%\n<b>';
  const wf = defineWorkflow({
    name: 'evil',
    async run(_: null, wf) {
      await wf.step(evil, () => 1);
      return wf.step('a b', () => 2);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'e' });
  const chart = toMermaid(await runner.get('e'));
  const lines = chart.split('\n');
  const node = lines.find((l) => l.includes(':::completed') && l.includes('alert'));
  expect(node).toBe(
    '  s_x____click_s_a__javascript_alert_1_______b_["x#34;#93;#59; click s_a #34;javascript:alert#40;1#41;#34; #37;#37; #60;b#62;"]:::completed',
  );
  expect(lines).toContain('  s_a_b["a b"]:::completed');
  expect(chart).not.toContain('"]; click');
});

test('steps not reached yet follow the declared edges, not the declaration order', async () => {
  const wf = defineWorkflow({
    name: 'approval',
    steps: [
      { name: 'approve', next: ['cool-off'] },
      { name: 'charge', next: [] },
      { name: 'cool-off', next: ['charge'] },
    ],
    run: async (_input: unknown, w) => {
      await w.step('approve', (ctx) => ctx.suspend({ reason: 'a manager decides' }));
      await w.step('cool-off', () => 1);
      return w.step('charge', () => 2);
    },
  });
  const { runner } = runnerOn(clockedStore().store, [wf]);
  const started = await runner.start(wf, {});
  const lines = toMermaid(await runner.get(started.runId)).split('\n');
  expect(lines).toContain('  s_approve -.-> s_pending_cool_off');
  expect(lines).toContain('  s_pending_cool_off -.-> s_pending_charge');
  expect(lines.filter((l) => l.includes('-.->'))).toHaveLength(2);
});
