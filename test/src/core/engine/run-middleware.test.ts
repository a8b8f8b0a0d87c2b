import { Agent, RunInputError, defineTool, type Middleware } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

function echoTool(calls: unknown[]) {
  return defineTool({
    name: 'echo',
    description: 'echoes',
    schema: { type: 'object', properties: { text: { type: 'string' } } },
    execute: (args) => {
      calls.push(args);
      return 'echoed';
    },
  });
}

describe('run middleware (run options `middleware`)', () => {
  test('wraps the model calls and tool executions of that run only, outside the agent’s own', async () => {
    const order: string[] = [];
    const agentLayer: Middleware = {
      name: 'agent',
      generate: async (call, next) => {
        order.push('agent-model');
        return next(call.request);
      },
      tool: async (call, next) => {
        order.push('agent-tool');
        return next(call.args);
      },
    };
    const runLayer: Middleware = {
      name: 'run',
      generate: async (call, next) => {
        order.push(`run-model:${call.options?.scope?.agent ?? '?'}`);
        return next(call.request);
      },
      tool: async (call, next) => {
        order.push(`run-tool:${call.tool}`);
        return next(call.args);
      },
    };
    const calls: unknown[] = [];
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]),
      textResponse('done'),
      textResponse('second run'),
    ]);
    const agent = new Agent({
      name: 'a',
      model,
      tools: [echoTool(calls)],
      middleware: [agentLayer],
    });
    const result = await agent.run('go', { middleware: [runLayer] });
    expect(result.output).toBe('done');
    expect(order).toEqual([
      'run-model:a',
      'agent-model',
      'run-tool:echo',
      'agent-tool',
      'run-model:a',
      'agent-model',
    ]);
    order.length = 0;
    await agent.run('again');
    expect(order).toEqual(['agent-model']);
    expect(calls).toHaveLength(1);
  });

  test('can answer without calling the model or the tool (a replay)', async () => {
    const model = new ScriptedModel([]);
    const calls: unknown[] = [];
    const agent = new Agent({ model, tools: [echoTool(calls)] });
    let turn = 0;
    const replay: Middleware = {
      generate: async () => {
        turn++;
        return turn === 1
          ? toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'x' } }])
          : textResponse('replayed');
      },
      tool: async () => 'recorded result',
    };
    const result = await agent.run('go', { middleware: [replay] });
    expect(result.output).toBe('replayed');
    expect(calls).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
    expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('recorded result');
  });

  test('applies across a handoff: the target’s calls go through it too', async () => {
    const seen: string[] = [];
    const billing = new Agent({
      name: 'billing',
      model: new ScriptedModel([textResponse('billing answer')]),
    });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])]),
      handoffs: [billing],
    });
    const layer: Middleware = {
      generate: async (call, next) => {
        seen.push(call.request.tools.map((t) => t.name).join(',') || 'no tools');
        return next(call.request);
      },
    };
    const result = await triage.run('refund please', { middleware: [layer] });
    expect(result.output).toBe('billing answer');
    expect(seen).toEqual(['transfer_to_billing', 'no tools']);
  });

  test('streams through the run middleware’s stream hook', async () => {
    const model = new ScriptedModel([textResponse('streamed text')]);
    const agent = new Agent({ model });
    const fragments: string[] = [];
    const layer: Middleware = {
      stream: async (call, next) =>
        next(call.request, (delta) => {
          if (delta.content !== undefined) fragments.push(delta.content);
          return call.onDelta(delta);
        }),
    };
    const stream = agent.runStream('go', { middleware: [layer] });
    const deltas: unknown[] = [];
    for await (const delta of stream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(0);
    expect((await stream.result).output).toBe('streamed text');
    expect(fragments.join('')).toBe('streamed text');
  });

  test('a malformed middleware option is a RunInputError before any model call', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });
    await expect(agent.run('go', { middleware: [{ name: 'empty' }] })).rejects.toThrow(
      RunInputError,
    );
    await expect(
      agent.run('go', { middleware: 'nope' as unknown as Middleware[] }),
    ).rejects.toThrow(/run middleware must be an array/);
    expect(model.requests).toHaveLength(0);
  });
});
