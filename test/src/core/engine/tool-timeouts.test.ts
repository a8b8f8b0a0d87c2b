import {
  Agent,
  ConfigError,
  DeadlineExceededError,
  RunError,
  RunInputError,
  ToolError,
  defineTool,
  errorChain,
  findError,
  isCancellation,
  isDeadlineExceeded,
  type Tool,
  type ToolContext,
} from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { configErrorOf } from '../../../support/config-error';

// Spec §12 (tool timeouts) and the whole-run deadline (run option `timeout`, agent `runTimeout`).
// The only real timers are the 1–5 ms deadlines of tools and runs that wait on their own signal.

const HOUR = 3_600_000;

async function runFailure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

/** A tool that waits until its signal aborts and then rethrows the signal's reason. */
function waitingTool(seen: AbortSignal[], timeout?: number): Tool {
  return defineTool({
    name: 'wait_for_it',
    description: 'waits for cancellation',
    schema: { type: 'object' },
    ...(timeout !== undefined && { timeout }),
    execute: async (_args, ctx: ToolContext) => {
      seen.push(ctx.signal);
      await untilAborted(ctx.signal);
      ctx.signal.throwIfAborted();
      return 'unreachable';
    },
  });
}

function oneCallModel(name: string): ScriptedModel {
  return new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name }], { inputTokens: 2, outputTokens: 1 }),
    textResponse('never reached'),
  ]);
}

function expectToolDeadline(error: RunError, toolName: string): void {
  expect(error.stage).toBe('tool');
  const toolError = findError(error, ToolError.is);
  expect(toolError).toBeDefined();
  expect(toolError?.toolName).toBe(toolName);
  expect(toolError?.callId).toBe('call-1');
  expect(findError(error, DeadlineExceededError.is)).toBeDefined();
  expect(isDeadlineExceeded(error)).toBe(true);
  expect(isCancellation(error)).toBe(true);
}

/**
 * Watches the timers the run schedules with the given delay and reports which of them were
 * cleared, so the check does not depend on other tests' timers.
 */
function watchTimers(delay: number): {
  scheduled: unknown[];
  cleared: () => unknown[];
  restore: () => void;
} {
  const scheduled: unknown[] = [];
  const clearedIds: unknown[] = [];
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const setSpy = jest
    .spyOn(globalThis, 'setTimeout')
    .mockImplementation((handler: () => void, ms?: number) => {
      const id = realSet(handler, ms);
      if (ms === delay) scheduled.push(id);
      return id;
    });
  const clearSpy = jest
    .spyOn(globalThis, 'clearTimeout')
    .mockImplementation((id?: Parameters<typeof clearTimeout>[0]) => {
      clearedIds.push(id);
      realClear(id);
    });
  return {
    scheduled,
    cleared: () => scheduled.filter((id) => clearedIds.includes(id)),
    restore: () => {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    },
  };
}

describe('tool timeouts (spec §12)', () => {
  test('TT-1 a per-tool timeout of 1 ms wins over the agent default of 1 h: deadline at the tool stage', async () => {
    const seen: AbortSignal[] = [];
    const model = oneCallModel('wait_for_it');
    const agent = new Agent({ model, tools: [waitingTool(seen, 1)], toolTimeout: HOUR });
    const runSignal = new AbortController().signal;

    const error = await runFailure(agent.run('go', { signal: runSignal }));

    expectToolDeadline(error, 'wait_for_it');
    expect(error.message).toMatch(/^golem: tool stage: tool "wait_for_it" \(call "call-1"\): /);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.aborted).toBe(true);
    expect(DeadlineExceededError.is(seen[0]?.reason)).toBe(true);
    expect(seen[0]).not.toBe(runSignal);
    expect(runSignal.aborted).toBe(false);
    expect(model.calls).toBe(1);
  });

  test('TT-1 a tool deadline leaves partial evidence ending at the assistant message that requested the call', async () => {
    const model = oneCallModel('wait_for_it');
    const agent = new Agent({ model, tools: [waitingTool([], 1)] });

    const error = await runFailure(agent.run('go'));

    expect(error.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(error.partial?.messages[1]?.toolCalls).toEqual([
      { id: 'call-1', name: 'wait_for_it', args: '{}' },
    ]);
    expect(error.partial?.toolCalls).toBe(1);
    expect(error.partial?.requests).toBe(1);
    expect(error.partial?.usage).toEqual({ inputTokens: 2, outputTokens: 1 });
  });

  test('TT-2 the agent toolTimeout applies when the tool timeout is 0', async () => {
    const seen: AbortSignal[] = [];
    const agent = new Agent({
      model: oneCallModel('wait_for_it'),
      tools: [waitingTool(seen, 0)],
      toolTimeout: 1,
    });

    const error = await runFailure(agent.run('go'));

    expectToolDeadline(error, 'wait_for_it');
    expect(DeadlineExceededError.is(seen[0]?.reason)).toBe(true);
  });

  test('TT-2 the agent toolTimeout applies when the tool sets no timeout', async () => {
    const agent = new Agent({
      model: oneCallModel('wait_for_it'),
      tools: [waitingTool([])],
      toolTimeout: 2,
    });

    expectToolDeadline(await runFailure(agent.run('go')), 'wait_for_it');
  });

  test('TT-3 a tool that ignores its signal and returns "done" after its deadline is still a deadline', async () => {
    const finished: string[] = [];
    const stubborn = defineTool({
      name: 'stubborn',
      schema: { type: 'object' },
      timeout: 1,
      execute: async (_args, ctx) => {
        await untilAborted(ctx.signal);
        finished.push('returned done');
        return 'done';
      },
    });
    const model = oneCallModel('stubborn');
    const agent = new Agent({ model, tools: [stubborn] });

    const error = await runFailure(agent.run('go'));

    expectToolDeadline(error, 'stubborn');
    expect(finished).toEqual(['returned done']);
    expect(error.partial?.messages.some((m) => m.content === 'done')).toBe(false);
    expect(model.calls).toBe(1);
  });

  test('TT-3 the tool deadline timer is cleared when the tool returns in time', async () => {
    const quick = defineTool({
      name: 'quick',
      schema: { type: 'object' },
      execute: () => 'quick result',
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'quick' }]),
      textResponse('finished'),
    ]);
    const agent = new Agent({ model, tools: [quick], toolTimeout: 60_000 });
    const timers = watchTimers(60_000);

    const result = await agent.run('go').finally(timers.restore);

    expect(result.output).toBe('finished');
    expect(result.messages[2]).toEqual({
      role: 'tool',
      content: 'quick result',
      toolCallId: 'call-1',
      toolName: 'quick',
    });
    expect(timers.scheduled).toHaveLength(1);
    expect(timers.cleared()).toEqual(timers.scheduled);
  });

  test('TT-3 the tool deadline timer is cleared when the tool fails in time', async () => {
    const failure = new Error('broken');
    const broken = defineTool({
      name: 'broken',
      schema: { type: 'object' },
      execute: () => {
        throw failure;
      },
    });
    const agent = new Agent({
      model: oneCallModel('broken'),
      tools: [broken],
      toolTimeout: 60_000,
    });
    const timers = watchTimers(60_000);

    const error = await runFailure(agent.run('go').finally(timers.restore));

    expect(error.stage).toBe('tool');
    expect([...errorChain(error)]).toContain(failure);
    expect(isDeadlineExceeded(error)).toBe(false);
    expect(timers.scheduled).toHaveLength(1);
    expect(timers.cleared()).toEqual(timers.scheduled);
  });

  test('TT-4 a negative tool timeout is rejected by defineTool', () => {
    expect(() =>
      defineTool({ name: 'neg', schema: { type: 'object' }, timeout: -1, execute: () => 'x' }),
    ).toThrow(configErrorOf('tool'));
  });

  test('TT-4 a negative agent toolTimeout is rejected at construction', () => {
    const model = new ScriptedModel([]);
    expect(() => new Agent({ model, toolTimeout: -1 })).toThrow(ConfigError);
  });

  test('TT-4 a hand-built tool with a negative timeout is rejected at construction', () => {
    const tool: Tool = {
      name: 'hand_built',
      description: '',
      schema: { type: 'object' },
      timeout: -5,
      execute: () => 'x',
    };
    const build = (): unknown => new Agent({ model: new ScriptedModel([]), tools: [tool] });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/hand_built/);
  });
});

describe('whole-run deadlines', () => {
  test('TT run option timeout expiring during a tool fails at the tool stage and the tool sees the abort', async () => {
    const seen: AbortSignal[] = [];
    const model = oneCallModel('wait_for_it');
    const agent = new Agent({ model, tools: [waitingTool(seen)] });

    const error = await runFailure(agent.run('go', { timeout: 5 }));

    expectToolDeadline(error, 'wait_for_it');
    expect(seen[0]?.aborted).toBe(true);
    expect(model.calls).toBe(1);
  });

  test('TT agent runTimeout expiring during a model call fails at the model stage with no partial evidence', async () => {
    const model = new FunctionModel(async (_request, options) => {
      const signal = options.signal as AbortSignal;
      await untilAborted(signal);
      signal.throwIfAborted();
      return textResponse('unreachable');
    });
    const agent = new Agent({ model, runTimeout: 5 });

    const error = await runFailure(agent.run('go'));

    expect(error.stage).toBe('model');
    expect(findError(error, DeadlineExceededError.is)).toBeDefined();
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(error.partial).toBeUndefined();
    expect(model.calls).toBe(1);
  });

  test('TT a negative run timeout is rejected before any model call (RunInputError, not RunError)', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });

    const rejected: unknown = await agent.run('go', { timeout: -1 }).catch((e: unknown) => e);

    expect(RunInputError.is(rejected)).toBe(true);
    expect(RunError.is(rejected)).toBe(false);
    expect(model.calls).toBe(0);
  });

  test('TT a negative agent runTimeout is rejected at construction', () => {
    expect(() => new Agent({ model: new ScriptedModel([]), runTimeout: -1 })).toThrow(ConfigError);
  });
});
