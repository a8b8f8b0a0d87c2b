/**
 * A decorated workflow declares its graph with `@Step({ next })` and `@Workflow({ steps })` (for
 * sleeps, events and agent steps `run` calls through `wf`); once declared, a step name `run`
 * calls without declaring it fails the run as `diverged`. Without declarations, nothing is checked.
 */
import { IsString } from 'class-validator';
import { NoArgs, Step, Workflow, workflowFromClass } from 'golem/decorators';
import { memoryStore } from 'golem/stores/memory';
import { WorkflowError, WorkflowRunner, workflowGraph } from 'golem/workflows';
import type { WorkflowContext } from 'golem/workflows';

class Ticket {
  @IsString() id!: string;
}

@Workflow({
  name: 'support',
  input: Ticket,
  steps: [{ name: 'cool-off', kind: 'sleep', next: ['close'] }],
})
class SupportWorkflow {
  constructor(readonly sneaky = false) {}

  async run(ticket: Ticket, wf: WorkflowContext): Promise<string> {
    const answer = await this.answer(ticket);
    if (this.sneaky) await wf.step('undeclared', () => 'x');
    await wf.sleep('cool-off', 60_000);
    return `${answer} ${await this.close()}`;
  }

  @Step({ next: ['cool-off'] })
  async answer(ticket: Ticket): Promise<string> {
    return Promise.resolve(`answered ${ticket.id}`);
  }

  @Step()
  async close(): Promise<string> {
    return Promise.resolve('closed');
  }
}

@Workflow({ input: NoArgs })
class FreeForm {
  async run(_: NoArgs, wf: WorkflowContext): Promise<number> {
    return wf.step('anything', () => 1);
  }
}

test('the graph lists the @Step methods then the @Workflow({ steps }) declarations', () => {
  const workflow = workflowFromClass(SupportWorkflow, new SupportWorkflow());
  expect(workflowGraph(workflow)).toEqual({
    workflow: 'support',
    steps: [
      { name: 'answer', kind: 'step', next: ['cool-off'] },
      { name: 'close', kind: 'step', next: ['cool-off'] },
      { name: 'cool-off', kind: 'sleep', next: ['close'] },
    ],
  });
});

test('a declared workflow runs its declared steps, sleeps included', async () => {
  let time = 1_000;
  const store = memoryStore({ clock: () => time });
  const workflow = workflowFromClass(SupportWorkflow, new SupportWorkflow());
  const runner = new WorkflowRunner({ store, workflows: [workflow] });
  const first = await runner.start(workflow, { id: 'T-1' }, { runId: 's1' });
  expect(first).toMatchObject({
    status: 'suspended',
    waiting: [{ step: 'cool-off', kind: 'timer' }],
  });
  time += 60_000;
  expect(await runner.wakeDue()).toEqual(['s1']);
  expect(await runner.get('s1')).toMatchObject({
    status: 'completed',
    output: 'answered T-1 closed',
  });
});

test('once declared, a step name run calls without declaring it fails the run as diverged', async () => {
  const store = memoryStore();
  const workflow = workflowFromClass(SupportWorkflow, new SupportWorkflow(true));
  const runner = new WorkflowRunner({ store, workflows: [workflow] });
  const error: unknown = await runner.start(workflow, { id: 'T-2' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'diverged')).toBe(true);
  expect((error as Error).message).toMatch(/undeclared/);
});

test('a class declaring no graph runs any step name and has an empty shape', async () => {
  const workflow = workflowFromClass(FreeForm, new FreeForm());
  expect(workflowGraph(workflow).steps).toEqual([]);
  const runner = new WorkflowRunner({ store: memoryStore(), workflows: [workflow] });
  await expect(runner.start(workflow, {})).resolves.toMatchObject({ output: 1 });
});
