import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type ModelResponse, type Model } from 'golem';
import { FunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import { defineDataset, llmJudge, runExperiment, type CassetteMode } from 'golem/evals';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-judgments-'));
  delete process.env.GOLEM_EVAL_CASSETTES;
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const dataset = defineDataset({
  name: 'greetings',
  cases: [
    { name: 'one', input: 'say hello' },
    { name: 'two', input: 'say hi' },
  ],
});

/** A judge model that counts its calls and passes every answer with the rubric's first word. */
function countingJudge(): FunctionModel {
  return new FunctionModel((request) => {
    const prompt = request.messages.at(-1)?.content ?? '';
    const rubric = /RUBRIC\n`{3,}\n(\w+)/.exec(prompt)?.[1] ?? '?';
    return {
      message: {
        role: 'assistant',
        content: JSON.stringify({ reasoning: `graded on ${rubric}`, pass: true, score: 0.8 }),
      },
      usage: { inputTokens: 50, outputTokens: 10 },
    };
  });
}

/** A model that fails the test when it is called. */
const forbidden: Model = {
  name: 'forbidden',
  generate: (): Promise<ModelResponse> => Promise.reject(new Error('called during replay')),
};

function experiment(judge: Model, rubric: string, mode: CassetteMode, model: Model) {
  const agent = new Agent({ model });
  return runExperiment({
    name: 'judged',
    dataset,
    task: agent,
    evaluators: [llmJudge({ model: judge, rubric })],
    cassettes: { dir, mode },
    concurrency: 1,
  });
}

function answers(): ScriptedModel {
  return new ScriptedModel([textResponse('Hello!'), textResponse('Hi!')]);
}

describe('LLM judges and cassettes', () => {
  test('a recording keeps each verdict in the case’s cassette; a replay re-scores without the judge’s model', async () => {
    const judge = countingJudge();
    const recorded = await experiment(judge, 'Politeness matters.', 'record', answers());
    expect(judge.requests).toHaveLength(2);
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'one.json'), 'utf8')) as {
      judgments?: Record<string, unknown>;
    };
    expect(Object.keys(file.judgments ?? {})).toHaveLength(1);

    const replayed = await experiment(forbidden, 'Politeness matters.', 'replay', forbidden);
    expect(replayed.summary.replayed).toBe(2);
    const scores = (r: typeof recorded) => r.cases.map((c) => c.runs[0]?.scores);
    expect(scores(replayed)).toEqual(scores(recorded));
    expect(replayed.cases[0]?.runs[0]?.scores[0]?.reason).toBe('graded on Politeness');
  });

  test('replay only: a changed rubric is a question never recorded, and that evaluator fails saying so', async () => {
    await experiment(countingJudge(), 'Politeness matters.', 'record', answers());
    const report = await experiment(forbidden, 'Brevity matters.', 'replay', forbidden);
    const score = report.cases[0]?.runs[0]?.scores[0];
    expect(score?.pass).toBe(false);
    expect(score?.error).toMatch(/not recorded in .*one\.json.*record the case again/);
  });

  test('auto: a changed rubric asks the judge live once, records the verdict, then replays it', async () => {
    await experiment(countingJudge(), 'Politeness matters.', 'record', answers());
    const judge = countingJudge();
    const first = await experiment(judge, 'Brevity matters.', 'auto', forbidden);
    expect(judge.requests).toHaveLength(2);
    expect(first.cases[0]?.runs[0]?.scores[0]?.reason).toBe('graded on Brevity');
    const again = await experiment(judge, 'Brevity matters.', 'auto', forbidden);
    expect(judge.requests).toHaveLength(2);
    expect(again.cases[1]?.runs[0]?.scores[0]?.reason).toBe('graded on Brevity');
  });

  test('outside an experiment with cassettes the judge calls its model every time', async () => {
    const judge = countingJudge();
    const agent = new Agent({ model: answers() });
    await runExperiment({
      name: 'plain',
      dataset,
      task: agent,
      evaluators: [llmJudge({ model: judge, rubric: 'Politeness matters.' })],
    });
    expect(judge.requests).toHaveLength(2);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('what a cassette keeps of a failing tool', () => {
  test('a tool’s correction text is scrubbed of credential shapes before it is written', async () => {
    const { defineTool, ModelRetry } = await import('golem');
    const { toolCallResponse } = await import('golem/testing');
    const leaky = defineTool({
      name: 'leaky',
      description: 'fails with its key in the message',
      schema: { type: 'object', properties: {} },
      execute: () => {
        throw new ModelRetry('upstream refused key sk-live1234567890abcdefXYZ (401)');
      },
    });
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([{ id: 'c1', name: 'leaky' }]),
        textResponse('The tool failed.'),
      ]),
      tools: [leaky],
      toolRetries: 1,
    });
    const report = await runExperiment({
      name: 'leak',
      dataset: defineDataset({ name: 'one', cases: [{ name: 'one', input: 'go' }] }),
      task: agent,
      cassettes: { dir, mode: 'record' },
    });
    expect(report.cases[0]?.runs[0]?.error).toBeUndefined();
    const text = fs.readFileSync(path.join(dir, 'one.json'), 'utf8');
    expect(text).toContain('upstream refused key [redacted] (401)');
    expect(text).not.toContain('sk-live1234567890');
  });
});
