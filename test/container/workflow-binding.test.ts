/**
 * Workflows in the container: `@Workflow` classes bound like agents (constructor injection, a
 * singleton instance) resolve into typed `WorkflowDefinition`s, and `WORKFLOW_RUNNER` runs every
 * bound workflow over the container's store.
 */
import { expectTypeOf } from 'expect-type';
import { ContainerModule } from 'inversify';
import { ConfigError } from 'golem';
import {
  bindWorkflow,
  createGolemContainer,
  resolveWorkflow,
  workflowOf,
  WORKFLOW_RUNNER,
  type GolemContainerOptions,
} from 'golem/container';
import { NoArgs, Step, Workflow } from 'golem/decorators';
import { memoryStore } from 'golem/stores/memory';
import type { WorkflowDefinition, WorkflowEvent, WorkflowRunner } from 'golem/workflows';
import { Inventory, RestockInput, RestockWorkflow, SUPPLIER } from './fixtures/workflow-restock';

const services = new ContainerModule(({ bind }) => {
  bind(Inventory).toSelf().inSingletonScope();
  bind(SUPPLIER).toConstantValue({ name: 'Acme' });
});

function container(options: GolemContainerOptions = {}) {
  return createGolemContainer({
    env: {},
    resolveModelStrings: false,
    workflows: [RestockWorkflow],
    modules: [services],
    ...options,
  });
}

function configError(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    if (ConfigError.is(error)) return error;
    throw error;
  }
  throw new Error('no error');
}

test('a bound workflow class resolves into its typed definition, built on the injected instance', () => {
  const built = container();
  const definition = resolveWorkflow(built, RestockWorkflow);
  expectTypeOf(definition).toEqualTypeOf<WorkflowDefinition<RestockInput, { order: string }>>();
  expect(definition.name).toBe('restock');
  expect(built.get(workflowOf(RestockWorkflow))).toBe(definition);
  const instance = built.get(RestockWorkflow);
  expect(instance.inventory).toBe(built.get(Inventory));
  expect(instance.supplier).toEqual({ name: 'Acme' });
});

test("WORKFLOW_RUNNER runs the container's workflows over its store; steps use the injected services", async () => {
  const store = memoryStore();
  const events: WorkflowEvent[] = [];
  const built = container({ store, workflowRunner: { onEvent: (e) => events.push(e) } });
  const runner = built.get<WorkflowRunner>(WORKFLOW_RUNNER);
  expect(built.get<WorkflowRunner>(WORKFLOW_RUNNER)).toBe(runner);
  const result = await runner.start('restock', { sku: 'B-7', quantity: 3 }, { runId: 'r' });
  expect(result).toEqual({ runId: 'r', status: 'completed', output: { order: 'B-7×3 from Acme' } });
  expect(built.get(Inventory).reserved).toEqual(['B-7×3']);
  expect((await store.getWorkflowRun('r'))?.workflow).toBe('restock');
  expect(events.map((e) => e.kind)).toContain('workflow_completed');
});

test('WORKFLOW_RUNNER includes workflows bound with bindWorkflow in a module', async () => {
  @Workflow({ name: 'ping', input: NoArgs })
  class PingWorkflow {
    async run(): Promise<string> {
      return this.ping();
    }
    @Step() async ping(): Promise<string> {
      return Promise.resolve('pong');
    }
  }
  const built = container({
    store: memoryStore(),
    modules: [
      services,
      new ContainerModule(({ bind }) => {
        bindWorkflow({ bind }, PingWorkflow);
      }),
    ],
  });
  const runner = built.get<WorkflowRunner>(WORKFLOW_RUNNER);
  await expect(runner.start('ping', {})).resolves.toMatchObject({ output: 'pong' });
  await expect(runner.start('restock', { sku: 'C', quantity: 1 })).resolves.toMatchObject({
    status: 'completed',
  });
});

test('WORKFLOW_RUNNER without a workflow store is a missing-store container ConfigError', () => {
  const error = configError(() => container().get(WORKFLOW_RUNNER));
  expect(error).toMatchObject({ component: 'container', reason: 'missing-store' });
  expect(error.message).toMatch(/golemModule\(\{ store: sqliteStore\(\{ path \}\) \}\)/);
});

test('a class without @Workflow, or one not bound, is refused naming the class and the fix', () => {
  class Plain {
    async run(): Promise<void> {}
  }
  const notWorkflow = configError(() => container({ workflows: [Plain] }));
  expect(notWorkflow).toMatchObject({ component: 'container', agent: 'Plain' });
  expect(notWorkflow.message).toMatch(
    /Plain is not a workflow class: it has no @Workflow decorator/,
  );

  const unbound = configError(() => resolveWorkflow(container({ workflows: [] }), RestockWorkflow));
  expect(unbound.message).toMatch(
    /RestockWorkflow is not bound in this container; add it to golemModule\(\{ workflows: \[RestockWorkflow\] \}\)/,
  );
  const invalid = configError(() => container({ workflows: 'RestockWorkflow' as never }));
  expect(invalid.message).toMatch(/workflows must be an array of @Workflow classes/);
});
