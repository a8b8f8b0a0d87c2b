import {
  Agent,
  CancelledError,
  ModelRetry,
  RunError,
  ToolError,
  decodeJSON,
  defineTool,
  errorChain,
  isCancellation,
  isDeadlineExceeded,
  requireApproval,
  type Result,
  loadRun,
  listRuns,
  StoreError,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse, type ScriptedOutcome } from 'golem/testing';
import { agentTool } from '../../../../src/core/agent/as-tool';
import { memoryStore } from 'golem/stores/memory';

import { DelegationError } from '../../../support/internal-errors';
import { configErrorOf } from '../../../support/config-error';
interface Deps {
  year: number;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** An outer agent whose model delegates `prompt` to `researcher` once, then answers "done". */
function delegating(
  tool: ReturnType<Agent<Deps>['asTool']>,
  args: unknown = { prompt: 'Capital of France?' },
  extra: ScriptedOutcome[] = [],
) {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: tool.name, args: args as object }], {
      inputTokens: 1,
      outputTokens: 1,
    }),
    ...extra,
    textResponse('done', { inputTokens: 2, outputTokens: 2 }),
  ]);
  return { model, agent: new Agent<Deps>({ model, tools: [tool] }) };
}

describe('agent as a tool (spec §22)', () => {
  test("asTool({ owner }) stores the sub-agent's runs with that owner; no owner leaves them unowned", async () => {
    const store = memoryStore();
    const researcher = new Agent<Deps>({
      model: new ScriptedModel([textResponse('Paris'), textResponse('Rome')]),
      store,
    });
    await delegating(researcher.asTool('researcher', 'r', { owner: 'alice' })).agent.run('q', {
      deps: { year: 1 },
    });
    await delegating(researcher.asTool('researcher', 'r')).agent.run('q', { deps: { year: 1 } });
    const [owned] = await listRuns(store, { owner: 'alice' });
    expect(owned?.messages.at(-1)?.content).toBe('Paris');
    expect((await listRuns(store)).map((r) => r.owner).sort()).toEqual(['alice', undefined]);
    const error: unknown = await loadRun(store, owned?.id ?? '', { owner: 'bob' }).catch(
      (e: unknown) => e,
    );
    expect(StoreError.isReason(error, 'not-found')).toBe(true);
  });

  test('AT-1 the sub-agent sees exactly its instructions and the prompt, with the delegating deps', async () => {
    const deps: Deps = { year: 1789 };
    const seen: Deps[] = [];
    const inner = new ScriptedModel([textResponse('Paris')]);
    const researcher = new Agent<Deps>({
      model: inner,
      instructions: (ctx) => {
        seen.push(ctx.deps);
        return 'Answer in one word.';
      },
    });
    const { agent, model } = delegating(
      researcher.asTool('researcher', 'Answers research questions'),
    );

    const result = await agent.run('Which city?', { deps });

    expect(inner.requests).toHaveLength(1);
    expect(inner.lastRequest?.messages).toEqual([
      { role: 'system', content: 'Answer in one word.' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(deps);
    expect(model.requests[0]?.tools).toEqual([
      {
        name: 'researcher',
        description: 'Answers research questions',
        schema: {
          type: 'object',
          properties: {
            prompt: {
              type: 'string',
              description: expect.stringContaining('sees nothing else') as unknown,
            },
          },
          required: ['prompt'],
          additionalProperties: false,
        },
      },
    ]);
    expect(result.messages[2]).toEqual({
      role: 'tool',
      content: 'Paris',
      toolCallId: 'c1',
      toolName: 'researcher',
    });
  });

  test('AT-1 the tool sets no retries, timeout or sequential of its own; an empty description is allowed', () => {
    const tool = new Agent({ model: new ScriptedModel() }).asTool('helper', '');

    expect(tool.description).toBe('');
    expect(tool.maxRetries).toBeUndefined();
    expect(tool.timeout).toBeUndefined();
    expect(tool.sequential).toBeUndefined();
  });

  test('AT-2 a structured output renders as compact JSON in the order the object was produced', async () => {
    const researcher = new Agent<Deps, { summary: string; count: number }>({
      model: new ScriptedModel([textResponse('{ "summary": "found 3",\n  "count": 3 }')]),
      output: decodeJSON((v) => v as { summary: string; count: number }),
    });
    const { agent } = delegating(researcher.asTool('researcher', 'Researches'));

    const result = await agent.run('go', { deps: { year: 1 } });

    expect(result.messages[2]?.content).toBe('{"summary":"found 3","count":3}');
  });

  test('AT-3 a custom renderer replaces the default and receives the inner result', async () => {
    const captured: Result<string>[] = [];
    const researcher = new Agent<Deps>({ model: new ScriptedModel([textResponse('Paris')]) });
    const tool = researcher.asTool('researcher', 'Researches', {
      render: (output, { result }) => {
        captured.push(result);
        return `RENDERED: ${output}`;
      },
    });
    const { agent } = delegating(tool);

    const result = await agent.run('go', { deps: { year: 1 } });

    expect(result.messages[2]?.content).toBe('RENDERED: Paris');
    expect(captured.map((r) => r.messages.map((m) => m.content))).toEqual([
      ['Capital of France?', 'Paris'],
    ]);
  });

  test('AT-3 a renderer that throws fails the delegating run at `tool` ("render result")', async () => {
    const researcher = new Agent<Deps>({ model: new ScriptedModel([textResponse('Paris')]) });
    const tool = researcher.asTool('researcher', 'Researches', {
      render: () => {
        throw new Error('template broken');
      },
    });
    const { agent } = delegating(tool);

    const error = await rejection(agent.run('go', { deps: { year: 1 } }));

    expect((error as RunError).stage).toBe('tool');
    const delegation = [...errorChain(error)].find((e) => DelegationError.is(e));
    expect((delegation as Error | undefined)?.message).toBe('render result: template broken');
  });

  test('an output with no JSON form fails at `tool` ("encode result")', async () => {
    const researcher = new Agent<Deps, bigint>({
      model: new ScriptedModel([textResponse('1')]),
      output: () => BigInt(1),
    });
    const { agent } = delegating(researcher.asTool('researcher', 'Researches'));

    const error = await rejection(agent.run('go', { deps: { year: 1 } }));

    expect((error as RunError).stage).toBe('tool');
    const delegation = [...errorChain(error)].find((e) => DelegationError.is(e));
    expect((delegation as Error | undefined)?.message).toMatch(/^encode result: /);
  });

  test('AT-4 an inner model failure fails the outer run at `tool`; unwrapping twice reaches the inner RunError', async () => {
    const sentinel = new Error('inner provider exploded');
    const researcher = new Agent<Deps>({ model: new ScriptedModel([sentinel]) });
    const { agent, model } = delegating(researcher.asTool('researcher', 'Researches'));

    const error = await rejection(agent.run('go', { deps: { year: 1 } }));

    expect((error as RunError).stage).toBe('tool');
    const toolError = (error as RunError).cause;
    expect(ToolError.is(toolError)).toBe(true);
    const innerRun = (toolError as ToolError).cause;
    expect(RunError.is(innerRun)).toBe(true);
    expect((innerRun as RunError).stage).toBe('model');
    expect((innerRun as RunError).cause).toBe(sentinel);
    expect([...errorChain(error)]).toContain(sentinel);
    expect(model.calls).toBe(1);
  });

  test('AT-5 an inner model cancelling the run signal keeps cancellation reachable from the outer error', async () => {
    const controller = new AbortController();
    const researcher = new Agent<Deps>({
      model: new ScriptedModel([
        () => {
          controller.abort();
          throw new Error('stopped');
        },
      ]),
    });
    const { agent, model } = delegating(researcher.asTool('researcher', 'Researches'));

    const error = await rejection(
      agent.run('go', { deps: { year: 1 }, signal: controller.signal }),
    );

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('tool');
    expect(isCancellation(error)).toBe(true);
    expect([...errorChain(error)].some((e) => CancelledError.is(e))).toBe(true);
    expect(model.calls).toBe(1);
  });

  test('AT-6 bad args are rejected within the tool budget; the sub-agent runs once on the valid prompt', async () => {
    const inner = new ScriptedModel([textResponse('answer')]);
    const researcher = new Agent<Deps>({ model: inner });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'researcher', args: { prompt: '' } }]),
      toolCallResponse([{ id: 'c2', name: 'researcher', args: { prompt: 42 } }]),
      toolCallResponse([{ id: 'c3', name: 'researcher', args: { prompt: 'valid question' } }]),
      textResponse('done'),
    ]);
    const agent = new Agent<Deps>({
      model,
      tools: [researcher.asTool('researcher', 'Researches')],
      toolRetries: 2,
    });

    const result = await agent.run('go', { deps: { year: 1 } });

    expect(inner.calls).toBe(1);
    expect(inner.lastRequest?.messages).toEqual([{ role: 'user', content: 'valid question' }]);
    const toolTexts = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolTexts).toEqual([
      'Your tool call was rejected: prompt is required. Correct the arguments and call the tool again.',
      'Your tool call was rejected: the arguments must be an object with a string prompt, e.g. {"prompt":"..."}. Correct the arguments and call the tool again.',
      'answer',
    ]);
    expect(toolTexts[1]).toContain('string prompt');
    expect(result.output).toBe('done');
  });

  test('unknown extra keys are ignored and a whitespace-only prompt is accepted', async () => {
    const inner = new ScriptedModel([textResponse('ok')]);
    const researcher = new Agent<Deps>({ model: inner });
    const { agent } = delegating(researcher.asTool('researcher', 'Researches'), {
      prompt: '   ',
      verbose: true,
    });

    const result = await agent.run('go', { deps: { year: 1 } });

    expect(inner.lastRequest?.messages).toEqual([{ role: 'user', content: '   ' }]);
    expect(result.messages[2]?.content).toBe('ok');
  });

  test('AT-7 asTool with an empty name throws; agentTool without an agent throws', () => {
    const agent = new Agent({ model: new ScriptedModel() });

    expect(() => agent.asTool('', 'desc')).toThrow(configErrorOf('tool'));
    expect(() => agentTool(null, 'x', 'desc', {})).toThrow('asTool needs an agent');
    expect(() => agentTool(undefined, 'x', 'desc', {})).toThrow('asTool needs an agent');
  });

  test('D10 a ModelRetry inside the sub-agent failure is not correctable by the outer run', async () => {
    const inner = new ScriptedModel([textResponse('not json')]);
    const researcher = new Agent<Deps, unknown>({ model: inner, output: decodeJSON() });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'researcher', args: { prompt: 'q' } }]),
      textResponse('never'),
    ]);
    const agent = new Agent<Deps>({
      model,
      tools: [researcher.asTool('researcher', 'Researches')],
      toolRetries: 2,
    });

    const error = await rejection(agent.run('go', { deps: { year: 1 } }));

    expect((error as RunError).stage).toBe('tool');
    const innerRun = ((error as RunError).cause as ToolError).cause;
    expect((innerRun as RunError).stage).toBe('decode');
    expect(ModelRetry.is((innerRun as RunError).cause)).toBe(true);
    expect(model.calls).toBe(1);
    expect(inner.calls).toBe(1);
  });

  test('only the rendered text enters the delegating evidence; inner usage is not counted', async () => {
    const researcher = new Agent<Deps>({
      model: new ScriptedModel([textResponse('Paris', { inputTokens: 100, outputTokens: 50 })]),
    });
    const { agent } = delegating(researcher.asTool('researcher', 'Researches'));

    const result = await agent.run('go', { deps: { year: 1 } });

    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 3 });
    expect(result.requests).toBe(2);
  });

  test('a sub-agent that pauses on a deferred call fails the delegating run at `tool`', async () => {
    const gated = defineTool<Deps>({
      name: 'gated',
      schema: { type: 'object' },
      execute: () => {
        throw requireApproval('human needed');
      },
    });
    const researcher = new Agent<Deps, string, true>({
      deferredTools: true,
      model: new ScriptedModel([toolCallResponse([{ id: 'g1', name: 'gated' }])]),
      tools: [gated],
    });
    const { agent } = delegating(researcher.asTool('researcher', 'Researches'));

    const error = await rejection(agent.run('go', { deps: { year: 1 } }));

    expect((error as RunError).stage).toBe('tool');
    expect([...errorChain(error)].some((e) => DelegationError.is(e))).toBe(true);
  });

  test('the tool deadline bounds the whole sub-run', async () => {
    const researcher = new Agent<Deps>({
      model: new ScriptedModel([
        (_request, { signal }) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => {
              reject(new Error('aborted'));
            });
          }),
      ]),
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'researcher', args: { prompt: 'slow' } }]),
      textResponse('never'),
    ]);
    const agent = new Agent<Deps>({
      model,
      tools: [researcher.asTool('researcher', 'Researches')],
      toolTimeout: 2,
    });

    const error = await rejection(agent.run('go', { deps: { year: 1 } }));

    expect((error as RunError).stage).toBe('tool');
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(model.calls).toBe(1);
  });
});
