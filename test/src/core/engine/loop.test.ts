import {
  Agent,
  defineTool,
  errorChain,
  findError,
  ModelHTTPError,
  RunError,
  ToolError,
  type Tool,
} from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

import { TurnLimitError, UndeclaredToolError } from '../../../support/internal-errors';
interface Tenant {
  tenant: string;
}

const deps: Tenant = { tenant: 'acme' };

const echo: Tool<Tenant> = defineTool<Tenant>({
  name: 'echo',
  description: 'Echoes its arguments',
  schema: { type: 'object' },
  execute: (_args, ctx) => `${ctx.deps.tenant} ${ctx.rawArgs}`,
});

/** The RunError `promise` rejects with (fails the test otherwise). */
async function runError(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw new Error(`expected a RunError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a RunError, the run succeeded');
}

/** A model that requests `echo` on every turn, with call ids call-1, call-2, … */
function alwaysCalling(name = 'echo'): FunctionModel {
  let n = 0;
  return new FunctionModel(() => {
    n++;
    return toolCallResponse([{ id: `call-${n}`, name, args: `{"turn":${n}}` }]);
  });
}

/** A tool counting its executions. */
function counted(name: string, text = name): { tool: Tool<Tenant>; runs: string[] } {
  const runs: string[] = [];
  const tool = defineTool<Tenant>({
    name,
    schema: { type: 'object' },
    execute: (_args, ctx) => {
      runs.push(ctx.callId);
      return text;
    },
  });
  return { tool, runs };
}

describe('execution loop (spec §5)', () => {
  test('LP-1 a single text response gives evidence [user, assistant] and that response usage', async () => {
    const scripted = new ScriptedModel([
      textResponse('Hello.', { inputTokens: 7, outputTokens: 3 }),
    ]);
    const agent = new Agent({ model: scripted });
    const result = await agent.run('Hi');
    expect(result.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
    ]);
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 3 });
    expect(result.output).toBe('Hello.');
    expect(result.requests).toBe(1);
    expect(result.toolCalls).toBe(0);
  });

  test('LP-2 one tool round trip: the second request has 3 messages ending with the tool result', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'echo', args: '{"guess":4}' }]),
      textResponse('done'),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo] });
    const result = await agent.run('Roll.', { deps });
    const second = scripted.requests[1];
    expect(second?.messages).toEqual([
      { role: 'user', content: 'Roll.' },
      { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'echo', args: '{"guess":4}' }] },
      { role: 'tool', toolCallId: 'call-1', toolName: 'echo', content: 'acme {"guess":4}' },
    ]);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  test('LP-2 the results of one batch are appended one per call, in emission order', async () => {
    const a = counted('a', 'result a');
    const b = counted('b', 'result b');
    const scripted = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'b' },
        { id: 'c2', name: 'a' },
        { id: 'c3', name: 'b' },
      ]),
      textResponse('done'),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [a.tool, b.tool] });
    const result = await agent.run('go', { deps });
    expect(result.messages.slice(2, 5)).toEqual([
      { role: 'tool', content: 'result b', toolCallId: 'c1', toolName: 'b' },
      { role: 'tool', content: 'result a', toolCallId: 'c2', toolName: 'a' },
      { role: 'tool', content: 'result b', toolCallId: 'c3', toolName: 'b' },
    ]);
    expect(result.toolCalls).toBe(3);
  });

  test('LP-2 tool calls decide the turn even when the assistant message also carries text', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'echo', args: '{}' }], {}, 'Let me check.'),
      textResponse('done'),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo] });
    const result = await agent.run('go', { deps });
    expect(result.output).toBe('done');
    expect(scripted.calls).toBe(2);
    expect(result.messages[1]).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [{ id: 'c1', name: 'echo', args: '{}' }],
    });
  });

  test('LP-3 two tool rounds then text: 3 model calls and 6 evidence messages', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'echo', args: '{"n":1}' }], {
        inputTokens: 1,
        outputTokens: 1,
      }),
      toolCallResponse([{ id: 'call-2', name: 'echo', args: '{"n":2}' }], {
        inputTokens: 2,
        outputTokens: 2,
      }),
      textResponse('done', { inputTokens: 3, outputTokens: 3 }),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo] });
    const result = await agent.run('go', { deps });
    expect(scripted.calls).toBe(3);
    expect(result.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'echo', args: '{"n":1}' }] },
      { role: 'tool', content: 'acme {"n":1}', toolCallId: 'call-1', toolName: 'echo' },
      { role: 'assistant', toolCalls: [{ id: 'call-2', name: 'echo', args: '{"n":2}' }] },
      { role: 'tool', content: 'acme {"n":2}', toolCallId: 'call-2', toolName: 'echo' },
      { role: 'assistant', content: 'done' },
    ]);
    expect(result.usage).toEqual({ inputTokens: 6, outputTokens: 6 });
    expect(scripted.requests.map((r) => r.messages.length)).toEqual([1, 3, 5]);
  });

  test('LP-3 every model call of a run gets all messages so far, the same tool specs and the same output schema', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'echo', args: '{}' }]),
      toolCallResponse([{ id: 'call-2', name: 'echo', args: '{}' }]),
      textResponse('{"ok":true}'),
    ]);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo], outputSchema: schema });
    await agent.run('go', { deps });
    const spec = { name: 'echo', description: 'Echoes its arguments', schema: { type: 'object' } };
    for (const request of scripted.requests) {
      expect(request.tools).toEqual([spec]);
      expect(request.outputSchema).toEqual(schema);
    }
    const [first, second, third] = scripted.requests;
    expect(second?.messages.slice(0, 1)).toEqual(first?.messages);
    expect(third?.messages.slice(0, 3)).toEqual(second?.messages);
  });

  test('LP-4 maxIterations 2 with endless tool calls fails at the loop stage after exactly 2 model calls', async () => {
    const model = alwaysCalling();
    const agent = new Agent<Tenant>({ model, tools: [echo], maxIterations: 2 });
    const error = await runError(agent.run('go', { deps }));
    expect(error.stage).toBe('loop');
    expect(model.calls).toBe(2);
    const limit = findError(error, TurnLimitError.is);
    expect(limit?.turns).toBe(2);
    expect(limit?.message).toBe('model turn limit exceeded after 2 turns');
  });

  test('LP-4 the tools of the last allowed turn do execute before the loop limit fires', async () => {
    const { tool, runs } = counted('echo');
    const agent = new Agent<Tenant>({ model: alwaysCalling(), tools: [tool], maxIterations: 2 });
    const error = await runError(agent.run('go', { deps }));
    expect(runs).toEqual(['call-1', 'call-2']);
    expect(error.partial?.toolCalls).toBe(2);
    expect(error.partial?.requests).toBe(2);
    expect(error.partial?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
  });

  test('LP-5 a call to an undeclared tool fails at the tool stage with a ToolError naming the tool', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-9', name: 'nope', args: '{}' }]),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo] });
    const error = await runError(agent.run('go', { deps }));
    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError?.toolName).toBe('nope');
    expect(toolError?.callId).toBe('call-9');
    expect(toolError?.message).toBe(
      'tool "nope" (call "call-9"): tool was not declared for this run',
    );
    const undeclared = findError(error, UndeclaredToolError.is);
    expect(undeclared?.message).toBe('tool was not declared for this run');
    expect(undeclared?.toolName).toBe('nope');
  });

  test('LP-5 an undeclared call fails the batch before any call in it executes', async () => {
    const { tool, runs } = counted('known');
    const scripted = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'known' },
        { id: 'c2', name: 'unknown' },
      ]),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [tool] });
    const error = await runError(agent.run('go', { deps }));
    expect(error.stage).toBe('tool');
    expect(findError(error, ToolError.is)?.toolName).toBe('unknown');
    expect(runs).toEqual([]);
    expect(error.partial?.toolCalls).toBe(0);
  });

  test('LP-5 (D3) a call to a registered tool that toolChoice did not advertise is undeclared and does not execute', async () => {
    const a = counted('a');
    const b = counted('b');
    const scripted = new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'a' }])]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [a.tool, b.tool], toolChoice: 'b' });
    const error = await runError(agent.run('go', { deps }));
    expect(error.stage).toBe('tool');
    expect(findError(error, ToolError.is)?.toolName).toBe('a');
    expect(findError(error, UndeclaredToolError.is)).toBeDefined();
    expect(a.runs).toEqual([]);
    expect(scripted.requests[0]?.tools.map((t) => t.name)).toEqual(['b']);
  });

  test('LP-6 counters: a tool turn and a final turn give requests 2 and toolCalls 1', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'echo' }]),
      textResponse('done'),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo] });
    const result = await agent.run('go', { deps });
    expect(result.requests).toBe(2);
    expect(result.toolCalls).toBe(1);
  });

  test('LP-6 counters: one retried failure then a success gives requests 2 and adds no usage for the failure', async () => {
    const sleep = jest.fn(async () => Promise.resolve());
    const scripted = new ScriptedModel([
      new ModelHTTPError({ status: 503, provider: 'test' }),
      textResponse('ok', { inputTokens: 4, outputTokens: 1 }),
    ]);
    const agent = new Agent({ model: scripted, maxAttempts: 2, retryBackoff: () => 0, sleep });
    const result = await agent.run('go');
    expect(result.output).toBe('ok');
    expect(result.requests).toBe(2);
    expect(result.toolCalls).toBe(0);
    expect(result.usage).toEqual({ inputTokens: 4, outputTokens: 1 });
    expect(result.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  test('LP-6 retried attempts do not consume turns: maxIterations 1 still succeeds after a retried failure', async () => {
    const scripted = new ScriptedModel([
      new ModelHTTPError({ status: 429, provider: 'test' }),
      textResponse('ok'),
    ]);
    const agent = new Agent({
      model: scripted,
      maxIterations: 1,
      maxAttempts: 2,
      sleep: async () => Promise.resolve(),
    });
    const result = await agent.run('go');
    expect(result.output).toBe('ok');
    expect(scripted.calls).toBe(2);
  });

  test('LP-7 sequential batch [a fails plainly, b ok]: b still executes and the run fails for a', async () => {
    const failure = new Error('a broke');
    const aRuns: string[] = [];
    const a = defineTool<Tenant>({
      name: 'a',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        aRuns.push(ctx.callId);
        throw failure;
      },
    });
    const b = counted('b');
    const scripted = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'a' },
        { id: 'c2', name: 'b' },
      ]),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [a, b.tool] });
    const error = await runError(agent.run('go', { deps }));
    expect(aRuns).toEqual(['c1']);
    expect(b.runs).toEqual(['c2']);
    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError?.toolName).toBe('a');
    expect(toolError?.callId).toBe('c1');
    expect([...errorChain(error)]).toContain(failure);
    expect(error.partial?.toolCalls).toBe(2);
    expect(error.partial?.messages.at(-1)).toEqual({
      role: 'assistant',
      toolCalls: [
        { id: 'c1', name: 'a', args: '{}' },
        { id: 'c2', name: 'b', args: '{}' },
      ],
    });
  });

  test('LP-8 the default maxIterations is 10: an always-calling model is called exactly 10 times', async () => {
    const model = alwaysCalling();
    const agent = new Agent<Tenant>({ model, tools: [echo] });
    const error = await runError(agent.run('go', { deps }));
    expect(error.stage).toBe('loop');
    expect(model.calls).toBe(10);
    expect(findError(error, TurnLimitError.is)?.turns).toBe(10);
    expect(error.partial?.requests).toBe(10);
    expect(error.partial?.toolCalls).toBe(10);
  });
});
