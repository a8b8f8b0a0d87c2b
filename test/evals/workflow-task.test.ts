import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type Model, type ModelResponse } from 'golem';
import { contains, defineDataset, evalCassette, runExperiment } from 'golem/evals';
import { memoryStore } from 'golem/stores/memory';
import { FunctionModel, textResponse } from 'golem/testing';
import { defineWorkflow, WorkflowRunner } from 'golem/workflows';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-eval-workflow-'));
  delete process.env.GOLEM_EVAL_CASSETTES;
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const forbidden: Model = {
  name: 'forbidden',
  generate: (): Promise<ModelResponse> => Promise.reject(new Error('called during replay')),
};

/** A one-step workflow whose step runs an agent carrying `evalCassette()`. */
function summaryWorkflow(model: Model) {
  const summariser = new Agent({ name: 'summariser', model, middleware: [evalCassette()] });
  return defineWorkflow({
    name: 'summary',
    async run(input: { order: string }, wf) {
      const result = await wf.runAgent('summarise', summariser, `Summarise order ${input.order}`);
      return result.output;
    },
  });
}

function experiment(model: Model, mode: 'record' | 'replay') {
  const workflow = summaryWorkflow(model);
  return runExperiment({
    name: 'summary-workflow',
    dataset: defineDataset({
      name: 'orders',
      cases: [{ name: 'A-17', input: { order: 'A-17' }, expected: 'lamps' }],
    }),
    task: async (input: { order: string }) => {
      const runner = new WorkflowRunner({ store: memoryStore(), workflows: [workflow] });
      const done = await runner.start(workflow, input);
      if (done.status !== 'completed') throw new Error(`the workflow ended ${done.status}`);
      return done.output;
    },
    evaluators: [contains()],
    cassettes: { dir, mode },
  });
}

test('a workflow task: its agent step is recorded through evalCassette() and replayed without the model', async () => {
  const model = new FunctionModel(() => textResponse('Two lamps, approved by Dana.'));
  const recorded = await experiment(model, 'record');
  expect(model.requests).toHaveLength(1);
  expect(recorded.summary.passed).toBe(1);
  const replayed = await experiment(forbidden, 'replay');
  expect(replayed.summary.replayed).toBe(1);
  expect(replayed.summary.passed).toBe(1);
  expect(replayed.cases[0]?.runs[0]?.output).toBe('Two lamps, approved by Dana.');
});
