import {
  Agent,
  ConfigError,
  RunError,
  ToolError,
  defineTool,
  errorChain,
  findError,
  type RunEvent,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { UndeclaredToolError } from '../../../support/internal-errors';

// Spec §13 (tool choice) with decision D2 (empty choice rejected) and D3 (a call to a
// registered but unadvertised tool is undeclared: tool stage, nothing executes).

async function runFailure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

function tools(executed: string[]) {
  const first = defineTool({
    name: 'first',
    description: 'the first tool',
    schema: { type: 'object', properties: { q: { type: 'string' } } },
    execute: () => {
      executed.push('first');
      return 'first result';
    },
  });
  const chosen = defineTool({
    name: 'chosen',
    description: 'the chosen tool',
    schema: { type: 'object', properties: { n: { type: 'integer' } } },
    execute: () => {
      executed.push('chosen');
      return 'chosen result';
    },
  });
  return { first, chosen };
}

const CHOSEN_SPEC = {
  name: 'chosen',
  description: 'the chosen tool',
  schema: { type: 'object', properties: { n: { type: 'integer' } } },
};

describe('tool choice (spec §13)', () => {
  test('TC-1 with tools [first, chosen] and toolChoice "chosen", every request advertises exactly [chosen]', async () => {
    const executed: string[] = [];
    const { first, chosen } = tools(executed);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'chosen', args: { n: 1 } }]),
      textResponse('done'),
    ]);
    const agent = new Agent({ model, tools: [first, chosen], toolChoice: 'chosen' });

    const result = await agent.run('go');

    expect(result.output).toBe('done');
    expect(model.requests.map((r) => r.tools)).toEqual([[CHOSEN_SPEC], [CHOSEN_SPEC]]);
    expect(executed).toEqual(['chosen']);
    expect(result.messages[2]).toEqual({
      role: 'tool',
      content: 'chosen result',
      toolCallId: 'call-1',
      toolName: 'chosen',
    });
  });

  test('TC-1 tool choice sends no provider-native forcing field: the request holds only messages and tools', async () => {
    const { first, chosen } = tools([]);
    const model = new ScriptedModel([textResponse('done')]);
    const agent = new Agent({ model, tools: [first, chosen], toolChoice: 'chosen' });

    await agent.run('go');

    expect(Object.keys(model.requests[0] ?? {}).sort()).toEqual(['messages', 'tools']);
  });

  test('TC-1 the output tool spec is still appended after the chosen tool', async () => {
    const { first, chosen } = tools([]);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'out-1', name: 'final_answer', args: { answer: 'x' } }]),
    ]);
    const outputTool = {
      name: 'final_answer',
      description: 'records the answer',
      schema: { type: 'object', properties: { answer: { type: 'string' } } },
    };
    const agent = new Agent({ model, tools: [first, chosen], toolChoice: 'chosen', outputTool });

    await agent.run('go');

    expect(model.requests[0]?.tools).toEqual([CHOSEN_SPEC, { ...outputTool, output: true }]);
  });

  test('TC-2 a toolChoice naming no registered tool is a construction error', () => {
    const { first, chosen } = tools([]);
    const build = (): unknown =>
      new Agent({ model: new ScriptedModel([]), tools: [first, chosen], toolChoice: 'missing' });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/missing/);
  });

  test('TC-2 a toolChoice on an agent without tools is a construction error', () => {
    expect(() => new Agent({ model: new ScriptedModel([]), toolChoice: 'chosen' })).toThrow(
      ConfigError,
    );
  });

  test('TC-2 an empty toolChoice is a construction error (decision D2)', () => {
    const { first, chosen } = tools([]);
    expect(
      () => new Agent({ model: new ScriptedModel([]), tools: [first, chosen], toolChoice: '' }),
    ).toThrow(ConfigError);
  });

  test('TC-3 a call to the registered but unadvertised tool fails at the tool stage as undeclared (D3)', async () => {
    const executed: string[] = [];
    const { first, chosen } = tools(executed);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'first', args: { q: 'x' } }], {
        inputTokens: 4,
        outputTokens: 2,
      }),
      textResponse('never reached'),
    ]);
    const agent = new Agent({ model, tools: [first, chosen], toolChoice: 'chosen' });

    const error = await runFailure(agent.run('go'));

    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError?.toolName).toBe('first');
    expect(toolError?.callId).toBe('call-1');
    const undeclared = findError(error, UndeclaredToolError.is);
    expect(undeclared?.message).toBe('tool was not declared for this run');
    expect(undeclared?.toolName).toBe('first');
    expect(executed).toEqual([]);
    expect(model.calls).toBe(1);
    expect(error.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(error.partial?.toolCalls).toBe(0);
  });

  test('TC-3 an unadvertised call in a batch stops the whole batch before any call executes, with no tool events', async () => {
    const executed: string[] = [];
    const events: RunEvent[] = [];
    const { first, chosen } = tools(executed);
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'chosen', args: { n: 1 } },
        { id: 'call-2', name: 'first', args: { q: 'x' } },
      ]),
    ]);
    const agent = new Agent({
      model,
      tools: [first, chosen],
      toolChoice: 'chosen',
      onEvent: (e) => events.push(e),
    });

    const error = await runFailure(agent.run('go'));

    expect(error.stage).toBe('tool');
    expect(findError(error, ToolError.is)?.callId).toBe('call-2');
    expect([...errorChain(error)].some((e) => UndeclaredToolError.is(e))).toBe(true);
    expect(executed).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(['model_start', 'model_end']);
    expect(error.partial?.toolCalls).toBe(0);
  });
});
