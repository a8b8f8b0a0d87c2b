/**
 * Declaration mistakes in `@Workflow` classes are `ConfigError`s (component `decorators`) naming
 * the class and member and saying how to fix them, raised when the class is compiled.
 */
import { ConfigError } from 'golem';
import { compileWorkflowClass, NoArgs, Step, Workflow, workflowFromClass } from 'golem/decorators';
import type { StepDecoratorOptions, WorkflowDecoratorOptions } from 'golem/decorators';
import type { WorkflowContext } from 'golem/workflows';
import { OrderInput, OrderWorkflow, Reservation } from './fixtures/workflow-classes';

function failure(target: unknown): ConfigError {
  try {
    compileWorkflowClass(target);
  } catch (error) {
    if (ConfigError.is(error, 'decorators')) return error;
    throw error;
  }
  throw new Error('compiled without error');
}

test('a class without @Workflow is refused, naming the class and the decorator', () => {
  class Plain {
    async run(): Promise<void> {}
  }
  const error = failure(Plain);
  expect(error.className).toBe('Plain');
  expect(error.message).toMatch(
    /^Plain: the class has no @Workflow decorator; decorate it with @Workflow\(\)/,
  );
  expect(failure(undefined).message).toMatch(/expected a workflow class, got undefined/);
});

test('a workflow without a run method names the entry method to declare', () => {
  @Workflow()
  class NoRun {}
  const error = failure(NoRun);
  expect(error).toMatchObject({ reason: 'not-a-method', className: 'NoRun', member: 'run' });
  expect(error.message).toMatch(/async run\(input: InputDto, wf: WorkflowContext\)/);
});

test('run taking an input without @Workflow({ input }) says to name the input class', () => {
  @Workflow()
  class Untyped {
    async run(order: OrderInput, _wf: WorkflowContext): Promise<string> {
      return Promise.resolve(order.sku);
    }
  }
  const error = failure(Untyped);
  expect(error).toMatchObject({ reason: 'missing-metadata', member: 'run' });
  expect(error.message).toMatch(/@Workflow\(\{ input: OrderInput \}\)/);
});

test('invalid @Workflow options are refused one by one', () => {
  const options: unknown[] = [
    { input: NoArgs, name: 'has space' },
    { input: NoArgs, maxSteps: 0 },
    { input: NoArgs, retries: 1 },
    { input: 'OrderInput' },
    { input: NoArgs, steps: [{ name: 'x#2' }] },
    { input: NoArgs, steps: [{ name: 'wait', kind: 'nap' }] },
  ];
  const messages = options.map((option) => {
    @Workflow(option as WorkflowDecoratorOptions)
    class Bad {
      async run(): Promise<void> {}
    }
    return failure(Bad).message;
  });
  expect(messages).toEqual([
    expect.stringMatching(/name "has space" is not 1–128 letters/),
    expect.stringMatching(/maxSteps must be a positive integer/),
    expect.stringMatching(/unknown option "retries"; the options are name, maxSteps, input, steps/),
    expect.stringMatching(/^Bad\.run: @Workflow\(\{ input \}\) is string, not a DTO class/),
    expect.stringMatching(/"x#2" is not a usable name/),
    expect.stringMatching(/step "wait" has the unknown kind "nap"/),
  ]);
});

test('@Step on a static method, on run, or twice for one name is refused with the member', () => {
  @Workflow({ input: NoArgs })
  class StaticStep {
    async run(): Promise<void> {}
    @Step() static async go(): Promise<void> {}
  }
  expect(failure(StaticStep)).toMatchObject({ reason: 'not-a-method', member: 'go' });

  @Workflow({ input: NoArgs })
  class StepOnRun {
    @Step() async run(): Promise<void> {}
  }
  expect(failure(StepOnRun).message).toMatch(
    /StepOnRun\.run: @Step\(\) is on the entry method run/,
  );

  @Workflow({ input: NoArgs })
  class SameName {
    async run(): Promise<void> {}
    @Step({ name: 'go' }) async a(): Promise<void> {}
    @Step({ name: 'go' }) async b(): Promise<void> {}
  }
  expect(failure(SameName).message).toMatch(
    /step "go" is declared twice: by SameName\.a and by SameName\.b; give one of them another name/,
  );
});

test('@Step options are checked: retries, next, output, unknown options', () => {
  const cases: [unknown, RegExp][] = [
    [{ retries: -1 }, /retries must be a non-negative integer/],
    [{ next: 'b' }, /next must be an array of step names/],
    [{ next: ['nowhere'] }, /names "nowhere" as next, which is not a declared step/],
    [{ output: Date }, /@Step\(\{ output \}\) is .*not a DTO class/],
    [{ timeout: 5 }, /@Step has an unknown option "timeout"/],
  ];
  for (const [options, pattern] of cases) {
    @Workflow({ input: NoArgs })
    class Bad {
      async run(): Promise<void> {}
      @Step(options as StepDecoratorOptions) async go(): Promise<void> {}
    }
    const error = failure(Bad);
    expect(error.message).toMatch(pattern);
    expect(error.member).toBe('go');
  }
});

test("a step whose input is not a DTO class names the parameter's reflected type", () => {
  @Workflow({ input: NoArgs })
  class Primitive {
    async run(): Promise<void> {}
    @Step() async go(id: string): Promise<string> {
      return Promise.resolve(id);
    }
  }
  const error = failure(Primitive);
  expect(error).toMatchObject({ reason: 'unreflectable-args', member: 'go' });
  expect(error.message).toMatch(/reflected as String, not a DTO class/);
});

test('a subclass inherits its base steps and may redeclare one', () => {
  @Workflow({ name: 'derived' })
  class Derived extends OrderWorkflow {
    @Step({ name: 'reserve', output: Reservation, next: ['charge-card'] })
    override async reserve(order: OrderInput): Promise<Reservation> {
      return Object.assign(new Reservation(), { id: 'derived', quantity: order.quantity });
    }
  }
  const definition = compileWorkflowClass(Derived);
  expect(definition.name).toBe('derived');
  expect(definition.input).toBe(OrderInput);
  expect(definition.steps.map((s) => [s.name, s.declaredBy])).toEqual([
    ['reserve', 'Derived'],
    ['charge-card', 'OrderWorkflow'],
    ['notify', 'OrderWorkflow'],
  ]);
  expect(compileWorkflowClass(Derived)).toBe(definition);
});

test('workflowFromClass refuses something that is not an instance of the class', () => {
  const notAnInstance: unknown = {};
  expect(() => workflowFromClass(OrderWorkflow, notAnInstance as OrderWorkflow)).toThrow(
    /OrderWorkflow: workflowFromClass got object instead of an instance of the class; pass an instance/,
  );
});
