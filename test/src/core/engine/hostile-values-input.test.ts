/**
 * Hostile values (see test/support/hostile-values.ts) thrown from the run's other hooks:
 * instructions functions and history processors reject the run with `RunInputError` (their
 * documented stage: before any model call) caused by the value; observers stay advisory; an
 * approved re-run on resume and a delegation renderer fail at the `tool` stage with the value kept.
 */
import { Agent, RunError, RunInputError, ToolError, defineTool, requireApproval } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { HOSTILE_KINDS, containsHostileRead } from '../../../support/hostile-values';
import { DelegationError } from '../../../support/internal-errors';

const kinds = HOSTILE_KINDS.map((kind) => [kind.name, kind] as const);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the run to fail');
    },
    (error: unknown) => error,
  );
}

function inputError(error: unknown, mentions: string): RunInputError {
  expect(containsHostileRead(error)).toBe(false);
  expect(RunInputError.is(error)).toBe(true);
  const input = error as RunInputError;
  expect(input.message).toContain(mentions);
  return input;
}

function runError(error: unknown, stage: RunError['stage']): RunError {
  expect(containsHostileRead(error)).toBe(false);
  expect(RunError.is(error)).toBe(true);
  expect((error as RunError).stage).toBe(stage);
  return error as RunError;
}

const callProbe = () => toolCallResponse([{ id: 'call-1', name: 'probe', args: {} }]);

describe('run-start hooks', () => {
  test.each(kinds)(
    '%s from an instructions function → RunInputError, no model call',
    async (_n, kind) => {
      const value = kind.make();
      const model = new ScriptedModel([textResponse('never')]);
      const agent = new Agent({
        model,
        instructions: [
          'Be brief.',
          () => {
            throw value;
          },
        ],
      });
      const error = inputError(await failure(agent.run('go')), 'instructions function 1 failed');
      expect(error.cause === value).toBe(true);
      expect(model.calls).toBe(0);
    },
  );

  test.each(kinds)(
    '%s from a history processor → RunInputError, no model call',
    async (_n, kind) => {
      const value = kind.make();
      const model = new ScriptedModel([textResponse('never')]);
      const agent = new Agent({
        model,
        historyProcessor: () => {
          throw value;
        },
      });
      const error = inputError(await failure(agent.run('go')), 'history processor failed');
      expect(error.cause === value).toBe(true);
      expect(model.calls).toBe(0);
    },
  );

  test.each(kinds)(
    "%s from a streaming run's instructions → the result rejects the same way",
    async (_n, kind) => {
      const value = kind.make();
      const agent = new Agent({
        model: new ScriptedModel([textResponse('never')]),
        instructions: () => {
          throw value;
        },
      });
      const stream = agent.runStream('go');
      for await (const delta of stream) expect(delta).toBeDefined();
      const error = inputError(await failure(stream.result), 'instructions function 0 failed');
      expect(error.cause === value).toBe(true);
    },
  );
});

describe('observers', () => {
  test.each(kinds)(
    '%s thrown by both observers on every event → the run completes',
    async (_n, kind) => {
      const thrown: unknown[] = [];
      const observer = () => {
        const value = kind.make();
        thrown.push(value);
        throw value;
      };
      const tool = defineTool({ name: 'probe', schema: { type: 'object' }, execute: () => 'ok' });
      const agent = new Agent({
        model: new ScriptedModel([callProbe(), textResponse('done')]),
        tools: [tool],
        onEvent: observer,
      });
      const result = await agent.run('go', { observer });
      expect(result.output).toBe('done');
      expect(thrown.length).toBe(12); // 6 events (2 model turns, 1 tool call), 2 observers
    },
  );
});

describe('resume and delegation', () => {
  test.each(kinds)('%s from an approved re-run → tool stage, history kept', async (_n, kind) => {
    const value = kind.make();
    const tool = defineTool({
      name: 'probe',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        if (!ctx.approved) throw requireApproval('sign-off');
        throw value;
      },
    });
    const agent = new Agent({
      model: new ScriptedModel([callProbe()]),
      tools: [tool],
      deferredTools: true,
    });
    const paused = await agent.run('go');
    expect(paused.pending?.approvals).toHaveLength(1);
    const resumed = agent.resume(paused.messages, { approvals: { 'call-1': { approved: true } } });
    const run = runError(await failure(resumed), 'tool');
    expect((run.cause as ToolError).cause === value).toBe(true);
    expect(run.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  test.each(kinds)(
    '%s from a delegation renderer → tool stage, DelegationError keeps it',
    async (_n, kind) => {
      const value = kind.make();
      const helper = new Agent({ model: new ScriptedModel([textResponse('inner')]) });
      const tool = helper.asTool('probe', 'Helps', {
        render: () => {
          throw value;
        },
      });
      const call = toolCallResponse([{ id: 'call-1', name: 'probe', args: { prompt: 'help' } }]);
      const agent = new Agent({ model: new ScriptedModel([call]), tools: [tool] });
      const run = runError(await failure(agent.run('go')), 'tool');
      const delegation = (run.cause as ToolError).cause;
      expect(DelegationError.is(delegation)).toBe(true);
      expect((delegation as DelegationError).cause === value).toBe(true);
      expect((delegation as DelegationError).message).toMatch(/^render result: /);
    },
  );
});
