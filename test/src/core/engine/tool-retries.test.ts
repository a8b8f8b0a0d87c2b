import {
  Agent,
  ModelRetry,
  RunError,
  ToolError,
  defineTool,
  errorChain,
  type RunEvent,
  type Tool,
} from 'golem';
import { isRecord } from '../../../../src/core/kit/guards';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { AttemptsExhaustedError, UndeclaredToolError } from '../../../support/internal-errors';

/** `roll(n)`: rejects n <= 0 correctably, fails plainly for n = 99, else returns `rolled n`. */
function rollTool(extra: { maxRetries?: number; name?: string } = {}) {
  const execute = jest.fn((args: unknown): string => {
    const n = isRecord(args) && typeof args.n === 'number' ? args.n : 0;
    if (n === 99) throw new Error('dice jammed');
    if (n <= 0) throw new ModelRetry(`n must be positive, got ${n}`);
    return `rolled ${n}`;
  });
  const tool: Tool = defineTool({
    name: extra.name ?? 'roll',
    description: 'Roll a die',
    schema: { type: 'object', properties: { n: { type: 'integer' } } },
    execute,
    ...extra,
  });
  return { tool, execute };
}

function roll(id: string, n: number, name = 'roll') {
  return toolCallResponse([{ id, name, args: { n } }]);
}

function rejectedText(reason: string): string {
  return `Your tool call was rejected: ${reason}. Correct the arguments and call the tool again.`;
}

function toolResult(toolCallId: string, toolName: string, content: string) {
  return { role: 'tool', content, toolCallId, toolName };
}

const REJECTED_0 = rejectedText('n must be positive, got 0');

/** A tool that throws `first` on its first execution and returns `ok` afterwards. */
function failsOnce(name: string, first: Error): Tool {
  let calls = 0;
  return defineTool({
    name,
    description: name,
    schema: { type: 'object' },
    execute: () => {
      calls++;
      if (calls === 1) throw first;
      return 'ok';
    },
  });
}

/** Two turns calling `name` (ids c1, c2), then a final text. */
function twoCallsThenText(name: string): ScriptedModel {
  return new ScriptedModel([
    toolCallResponse([{ id: 'c1', name }]),
    toolCallResponse([{ id: 'c2', name }]),
    textResponse('done'),
  ]);
}

async function runError(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

describe('§10 tool self-correction', () => {
  test('TR-1 a rejected call is fed back, the corrected call succeeds and the run ends with text', async () => {
    const { tool, execute } = rollTool();
    const model = new ScriptedModel([
      roll('call-1', 0),
      roll('call-2', 4),
      textResponse('You rolled a 4.'),
    ]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      tools: [tool],
      toolRetries: 1,
      onEvent: (e) => events.push(e),
    });

    const result = await agent.run('Roll');

    expect(result.output).toBe('You rolled a 4.');
    expect(model.calls).toBe(3);
    expect(execute).toHaveBeenCalledTimes(2);
    const fedBack = toolResult('call-1', 'roll', REJECTED_0);
    expect(fedBack.content).toBe(
      'Your tool call was rejected: n must be positive, got 0. Correct the arguments and call the tool again.',
    );
    expect(model.requests[1]?.messages.at(-1)).toEqual(fedBack);
    expect(result.messages.map((m) => m.role).join(' ')).toBe(
      'user assistant tool assistant tool assistant',
    );
    expect(result.messages[2]).toEqual(fedBack);
    expect(result.messages[4]).toEqual(toolResult('call-2', 'roll', 'rolled 4'));
    const rejectedEnd = events
      .filter((e) => e.kind === 'tool_end')
      .find((e) => e.callId === 'call-1');
    expect(ModelRetry.is(rejectedEnd?.error)).toBe(true);
    expect(result.toolCalls).toBe(2);
  });

  test('TR-2 an always-rejecting tool with budget 2 fails at the tool stage "after 3 attempts" after 3 executions and 3 model calls', async () => {
    const { tool, execute } = rollTool();
    const model = new ScriptedModel([
      roll('call-1', 0),
      roll('call-2', 0),
      roll('call-3', 0),
      textResponse('unused'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 2 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(error.message).toContain('after 3 attempts');
    expect(error.message).toBe(
      'golem: tool stage: tool "roll" (call "call-3"): tool failed after 3 attempts: model output rejected: n must be positive, got 0',
    );
    const chain = [...errorChain(error)];
    expect(chain.find((e) => ToolError.is(e))).toMatchObject({
      toolName: 'roll',
      callId: 'call-3',
    });
    expect(chain.find((e) => AttemptsExhaustedError.is(e))).toMatchObject({
      budget: 'tool',
      attempts: 3,
    });
    expect(chain.find((e) => ModelRetry.is(e))?.reason).toBe('n must be positive, got 0');
    expect(execute).toHaveBeenCalledTimes(3);
    expect(model.calls).toBe(3);
    expect(error.partial?.toolCalls).toBe(3);
    expect(error.partial?.messages.at(-1)).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'call-3', name: 'roll', args: '{"n":0}' }],
    });
  });

  test('TR-3 with budget 0 the first rejection is terminal: ModelRetry with the reason in the chain, no "after", 1 model call', async () => {
    const { tool } = rollTool();
    const model = new ScriptedModel([roll('call-1', 0), textResponse('unused')]);
    const agent = new Agent({ model, tools: [tool] });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(error.message).not.toContain('after');
    expect(error.message).toBe(
      'golem: tool stage: tool "roll" (call "call-1"): model output rejected: n must be positive, got 0',
    );
    const toolError = error.cause as ToolError;
    expect(ToolError.is(toolError)).toBe(true);
    expect(ModelRetry.is(toolError.cause)).toBe(true);
    expect((toolError.cause as ModelRetry).reason).toBe('n must be positive, got 0');
    expect(model.calls).toBe(1);
  });

  test('TR-4 a plain tool error with budget 3 is fatal at the tool stage, cause preserved, 1 model call', async () => {
    const jammed = new Error('dice jammed');
    const tool = failsOnce('roll', jammed);
    const model = new ScriptedModel([roll('call-1', 3), textResponse('unused')]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 3 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(ToolError.is(error.cause)).toBe(true);
    expect((error.cause as ToolError).cause).toBe(jammed);
    expect([...errorChain(error)].some((e) => ModelRetry.is(e))).toBe(false);
    expect(model.calls).toBe(1);
  });

  test('TR-5 per-tool maxRetries 1 overrides the agent budget 5: fails "after 2 attempts" after 2 model calls', async () => {
    const { tool } = rollTool({ maxRetries: 1 });
    const model = new ScriptedModel([
      roll('call-1', 0),
      roll('call-2', 0),
      roll('call-3', 0),
      textResponse('unused'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 5 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(error.message).toContain('after 2 attempts');
    expect(model.calls).toBe(2);
  });

  test('TR-6 per-tool maxRetries 0 with agent budget 5 makes the first rejection terminal', async () => {
    const { tool } = rollTool({ maxRetries: 0 });
    const model = new ScriptedModel([roll('call-1', 0), roll('call-2', 4), textResponse('unused')]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 5 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(error.message).not.toContain('after');
    expect((error.cause as ToolError).callId).toBe('call-1');
    expect(model.calls).toBe(1);
  });

  test('TR-7 counters are per tool name: two tools each rejected once with budget 1 are both fed back', async () => {
    const a = rollTool({ name: 'a' });
    const b = rollTool({ name: 'b' });
    const model = new ScriptedModel([
      roll('a-1', 0, 'a'),
      roll('b-1', 0, 'b'),
      textResponse('done'),
    ]);
    const agent = new Agent({ model, tools: [a.tool, b.tool], toolRetries: 1 });

    const result = await agent.run('Roll both');

    expect(result.output).toBe('done');
    expect(result.messages[2]).toEqual(toolResult('a-1', 'a', REJECTED_0));
    expect(result.messages[4]).toEqual(toolResult('b-1', 'b', REJECTED_0));
    expect(model.calls).toBe(3);
  });

  test('TR-8 an output correction round resets the tool counters', async () => {
    const { tool, execute } = rollTool();
    const model = new ScriptedModel([
      roll('call-1', 0),
      textResponse('bad'),
      roll('call-2', 0),
      textResponse('good'),
    ]);
    const agent = new Agent({
      model,
      tools: [tool],
      toolRetries: 1,
      outputRetries: 1,
      output: (response) => {
        if (response.message.content !== 'good') throw new ModelRetry('say good');
        return 'good';
      },
    });

    const result = await agent.run('Roll');

    expect(result.output).toBe('good');
    expect(execute).toHaveBeenCalledTimes(2);
    expect(result.messages.map((m) => m.role).join(' ')).toBe(
      'user assistant tool assistant user assistant tool assistant',
    );
    expect(result.messages[6]).toEqual(toolResult('call-2', 'roll', REJECTED_0));
  });
});

describe('§10.2 tool self-correction edge cases', () => {
  test('TR edge 1: a call to an undeclared tool is never correctable, whatever the budget', async () => {
    const { tool, execute } = rollTool();
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'roll', args: { n: 2 } },
        { id: 'call-2', name: 'ghost' },
      ]),
      textResponse('unused'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 5 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    const toolError = error.cause as ToolError;
    expect(toolError).toMatchObject({ toolName: 'ghost', callId: 'call-2' });
    expect(UndeclaredToolError.is(toolError.cause)).toBe(true);
    expect((toolError.cause as Error).message).toBe('tool was not declared for this run');
    expect(execute).not.toHaveBeenCalled();
    expect(model.calls).toBe(1);
  });

  test('TR edge 3: two rejections of one tool in one batch with limit 1: the first is fed back, the second is terminal "after 2 attempts"', async () => {
    const { tool, execute } = rollTool();
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'roll', args: { n: 0 } },
        { id: 'call-2', name: 'roll', args: { n: -1 } },
      ]),
      textResponse('unused'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 1 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(error.message).toBe(
      'golem: tool stage: tool "roll" (call "call-2"): tool failed after 2 attempts: model output rejected: n must be positive, got -1',
    );
    expect(execute).toHaveBeenCalledTimes(2);
    expect(model.calls).toBe(1);
  });

  test('TR edge 4: a plain error after a fed-back rejection of the same tool is reported "after 2 attempts"', async () => {
    const { tool } = rollTool();
    const model = new ScriptedModel([
      roll('call-1', 0),
      roll('call-2', 99),
      textResponse('unused'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 3 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('tool');
    expect(error.message).toBe(
      'golem: tool stage: tool "roll" (call "call-2"): tool failed after 2 attempts: dice jammed',
    );
    expect(model.calls).toBe(2);
  });

  test('TR edge 5: a ModelRetry wrapped at any depth is correctable and its own reason is fed back', async () => {
    const retry = new ModelRetry('key must be lower case');
    const deep = new Error('outer', { cause: new Error('middle', { cause: retry }) });
    const model = twoCallsThenText('lookup');
    const agent = new Agent({ model, tools: [failsOnce('lookup', deep)], toolRetries: 1 });

    const result = await agent.run('Find');

    expect(result.output).toBe('done');
    expect(result.messages[2]).toEqual(
      toolResult('c1', 'lookup', rejectedText('key must be lower case')),
    );
  });

  test('TR edge: the remaining calls of a batch still execute after a rejection and keep emission order', async () => {
    const { tool, execute } = rollTool();
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'roll', args: { n: 0 } },
        { id: 'call-2', name: 'roll', args: { n: 5 } },
      ]),
      textResponse('ok'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 1 });

    const result = await agent.run('Roll');

    expect(execute).toHaveBeenCalledTimes(2);
    expect(result.messages.slice(2, 4)).toEqual([
      toolResult('call-1', 'roll', REJECTED_0),
      toolResult('call-2', 'roll', 'rolled 5'),
    ]);
  });

  test('TR edge: a tool ModelRetry with an empty reason renders "(no reason)" (D12)', async () => {
    const model = twoCallsThenText('pick');
    const agent = new Agent({
      model,
      tools: [failsOnce('pick', new ModelRetry(''))],
      toolRetries: 1,
    });

    const result = await agent.run('Pick');

    expect(result.messages[2]?.content).toBe(
      'Your tool call was rejected: (no reason). Correct the arguments and call the tool again.',
    );
  });

  test('TR edge: a fed-back rejection consumes a model turn, so maxIterations bounds correction (loop stage)', async () => {
    const { tool } = rollTool();
    const model = new ScriptedModel([roll('call-1', 0), roll('call-2', 0), roll('call-3', 0)]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 5, maxIterations: 2 });

    const error = await runError(agent.run('Roll'));

    expect(error.stage).toBe('loop');
    expect(model.calls).toBe(2);
  });

  test('TR D10: a sub-agent failing with an inner ModelRetry-exhausted decode error is not correctable in the outer run', async () => {
    const innerModel = new ScriptedModel([textResponse('first'), textResponse('second')]);
    const inner = new Agent({
      model: innerModel,
      outputRetries: 1,
      output: () => {
        throw new ModelRetry('inner answer rejected');
      },
    });
    const outerModel = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'researcher', args: { prompt: 'Capital of France?' } }]),
      textResponse('unused'),
    ]);
    const outer = new Agent({
      model: outerModel,
      tools: [inner.asTool('researcher', 'Researches a question')],
      toolRetries: 2,
    });

    const error = await runError(outer.run('Ask the researcher'));

    expect(error.stage).toBe('tool');
    expect(outerModel.calls).toBe(1);
    expect(innerModel.calls).toBe(2);
    const toolError = error.cause as ToolError;
    expect(toolError).toMatchObject({ toolName: 'researcher', callId: 'c1' });
    const innerError = toolError.cause as RunError;
    expect(RunError.is(innerError)).toBe(true);
    expect(innerError.stage).toBe('decode');
    expect(innerError.message).toContain('after 2 attempts');
    expect([...errorChain(error)].some((e) => ModelRetry.is(e))).toBe(true);
  });
});
