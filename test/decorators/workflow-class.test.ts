/**
 * `@Workflow` classes compiled by `workflowFromClass`: `run` calls `@Step` methods through `this`,
 * and each call is a durable step (input validated against its DTO, output checkpointed, replayed
 * as a DTO instance after a crash) running on the instance, so injected services work.
 */
import { WorkflowError, WorkflowRunner, workflowGraph } from 'golem/workflows';
import { workflowFromClass } from 'golem/decorators';
import { memoryStore } from 'golem/stores/memory';
import {
  NoInputWorkflow,
  OrderInput,
  OrderWorkflow,
  Reservation,
  StockService,
} from './fixtures/workflow-classes';

const LEASE_MS = 600_000;

function setup() {
  let time = 1_000_000;
  const store = memoryStore({ clock: () => time, leaseMs: LEASE_MS });
  const stock = new StockService();
  const instance = new OrderWorkflow(stock);
  const workflow = workflowFromClass(OrderWorkflow, instance);
  const runner = new WorkflowRunner({ store, workflows: [workflow], owner: 'p1' });
  return { store, stock, instance, workflow, runner, advance: (ms: number) => (time += ms) };
}

test('a decorated class runs as a workflow: its steps are checkpointed under their names', async () => {
  const { stock, workflow, runner } = setup();
  expect(workflow.name).toBe('order');
  expect(workflow.maxSteps).toBe(20);
  const result = await runner.start(workflow, { sku: 'A-1', quantity: 2 }, { runId: 'r1' });
  expect(result).toEqual({
    runId: 'r1',
    status: 'completed',
    output: { receipt: 'paid res-A-1×2' },
  });
  expect(stock.calls).toEqual(['attempt:1', 'reserve:A-1', 'charge:res-A-1×2', 'notify']);
  const info = await runner.get('r1');
  expect(info.steps.map((s) => [s.key, s.status, s.output])).toEqual([
    ['reserve', 'completed', { id: 'res-A-1', quantity: 2 }],
    ['charge-card', 'completed', 'paid res-A-1×2'],
    ['notify', 'completed', undefined],
  ]);
});

test('run gets its input as a validated DTO instance, and a fresh step output as a DTO instance', async () => {
  const { instance, workflow, runner } = setup();
  await runner.start(workflow, { sku: 'A-1', quantity: 2 });
  expect(instance.seen[0]).toBeInstanceOf(OrderInput);
  expect(instance.seen[1]).toBeInstanceOf(Reservation);
});

test('invalid workflow input is refused at start (invalid-input), nothing runs', async () => {
  const { stock, workflow, runner } = setup();
  const low: unknown = await runner
    .start(workflow, { sku: 'A-1', quantity: 0 })
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(low, 'invalid-input')).toBe(true);
  expect((low as Error).message).toMatch(/quantity/);
  const extra: unknown = await runner
    .start(workflow, Object.assign(new OrderInput(), { sku: 'A-1', quantity: 1, admin: true }))
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(extra, 'invalid-input')).toBe(true);
  expect((extra as Error).message).toMatch(/admin/);
  expect(stock.calls).toEqual([]);
  expect(await runner.list()).toEqual([]);
});

test('invalid step input fails the run with invalid-input naming Class.method, before the step runs', async () => {
  const { stock, instance, store } = setup();
  const broken = Object.create(instance) as OrderWorkflow;
  broken.run = async function (this: OrderWorkflow, order) {
    await this.charge({ reservation: 42 } as never);
    return { receipt: order.sku };
  };
  const workflow = workflowFromClass(OrderWorkflow, broken);
  const other = new WorkflowRunner({ store, workflows: [workflow] });
  const error: unknown = await other
    .start(workflow, { sku: 'A', quantity: 1 })
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'invalid-input')).toBe(true);
  expect((error as WorkflowError).message).toMatch(
    /^OrderWorkflow\.charge: invalid input: reservation/,
  );
  expect((error as WorkflowError).step).toBe('charge-card');
  expect(stock.calls).toEqual([]);
  expect((await other.get((error as WorkflowError).runId ?? '')).status).toBe('failed');
});

test('a step method called on the plain instance, outside a workflow, is an ordinary method call', async () => {
  const { stock, instance } = setup();
  const reservation = await instance.reserve(
    Object.assign(new OrderInput(), { sku: 'B', quantity: 1 }),
  );
  expect(reservation).toBeInstanceOf(Reservation);
  expect(stock.calls).toEqual(['attempt:undefined', 'reserve:B']);
  expect(instance.helper()).toBe('plain');
});

test('after a crash, a completed step is replayed from its checkpoint as a DTO instance, never re-run', async () => {
  const first = setup();
  let reached!: () => void;
  const charging = new Promise<void>((resolve) => (reached = resolve));
  const crashing = new OrderWorkflow(first.stock);
  crashing.charge = () => {
    reached(); // the first process dies inside charge: it never returns
    return new Promise<string>(() => undefined);
  };
  const dead = new WorkflowRunner({
    store: first.store,
    workflows: [workflowFromClass(OrderWorkflow, crashing)],
    owner: 'dead',
  });
  void dead.start('order', { sku: 'C', quantity: 3 }, { runId: 'crash' });
  await charging;
  first.advance(LEASE_MS + 1);

  const stock = new StockService();
  const fresh = new OrderWorkflow(stock);
  const runner = new WorkflowRunner({
    store: first.store,
    workflows: [workflowFromClass(OrderWorkflow, fresh)],
    owner: 'alive',
  });
  expect(await runner.recover()).toEqual(['crash']);
  expect(stock.calls).toEqual(['charge:res-C×3', 'notify']); // reserve replayed, not re-run
  expect(fresh.seen[1]).toBeInstanceOf(Reservation);
  expect((await runner.get('crash')).output).toEqual({ receipt: 'paid res-C×3' });
});

test('a step retries as @Step({ retries }) declares', async () => {
  const { stock, workflow, store } = setup();
  let failures = 1;
  const reserve = stock.reserve.bind(stock);
  stock.reserve = (sku, quantity) =>
    failures-- > 0 ? Promise.reject(new Error('stock service down')) : reserve(sku, quantity);
  const runner = new WorkflowRunner({
    store,
    workflows: [workflow],
    sleep: () => Promise.resolve(),
  });
  await expect(runner.start(workflow, { sku: 'D', quantity: 1 })).resolves.toMatchObject({
    status: 'completed',
  });
  expect(stock.calls.slice(0, 3)).toEqual(['attempt:1', 'attempt:2', 'reserve:D']);
});

test('a workflow whose run takes NoArgs has no input schema and runs on nothing', async () => {
  const store = memoryStore();
  const workflow = workflowFromClass(NoInputWorkflow, new NoInputWorkflow());
  expect(workflow.name).toBe('NoInputWorkflow');
  expect(workflow.input).toBeUndefined();
  const runner = new WorkflowRunner({ store, workflows: [workflow] });
  await expect(runner.start(workflow, {})).resolves.toMatchObject({
    status: 'completed',
    output: 'pong',
  });
});

test('@Step({ next }) declares the graph', () => {
  const { workflow } = setup();
  expect(workflowGraph(workflow)).toEqual({
    workflow: 'order',
    steps: [
      { name: 'reserve', kind: 'step', next: ['charge-card'] },
      { name: 'charge-card', kind: 'step', next: ['notify'] },
      { name: 'notify', kind: 'step', next: [] },
    ],
  });
  expect(workflowGraph(workflowFromClass(NoInputWorkflow, new NoInputWorkflow())).steps).toEqual(
    [],
  );
});

test('the definition is built once per instance and is frozen', () => {
  const { instance, workflow } = setup();
  expect(workflowFromClass(OrderWorkflow, instance)).toBe(workflow);
  expect(Object.isFrozen(workflow)).toBe(true);
});
