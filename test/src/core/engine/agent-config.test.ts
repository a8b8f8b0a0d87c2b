import {
  Agent,
  ConfigError,
  defineTool,
  RunError,
  type AgentConfig,
  type Tool,
  type ToolDefinition,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** The error thrown synchronously by `fn` (fails the test when nothing is thrown). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, nothing was thrown');
}

/** Constructs an agent from an untyped configuration and returns the ConfigError it throws. */
function configError(config: Record<string, unknown>): ConfigError {
  const error = thrown(() => new Agent(config as unknown as AgentConfig<undefined, string>));
  if (!ConfigError.is(error)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error;
}

const noop = (): string => 'ok';
const tool = (name: string, extra: Partial<ToolDefinition<unknown, unknown>> = {}): Tool =>
  defineTool({
    name,
    description: `the ${name} tool`,
    schema: { type: 'object' },
    execute: noop,
    ...extra,
  });
const model = (): ScriptedModel => new ScriptedModel([textResponse('done')]);

describe('agent construction (spec §2)', () => {
  test('AG-1 a missing model is a ConfigError naming `model`', () => {
    const error = configError({});
    expect(error.message).toContain('`model`');
  });

  test('AG-1 a model without generate() is a ConfigError naming `model`', () => {
    const error = configError({ model: { name: 'broken' } });
    expect(error.message).toContain('`model`');
  });

  test('AG-1 a decoder that is not a function is a ConfigError naming `output`', () => {
    const error = configError({ model: model(), output: 'json' });
    expect(error.message).toContain('`output`');
  });

  test('AG-1 an omitted decoder defaults to decodeText: the run returns the final text', async () => {
    const agent = new Agent({ model: new ScriptedModel([textResponse('plain answer')]) });
    const result = await agent.run('hi');
    expect(result.output).toBe('plain answer');
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['maxIterations 0', { maxIterations: 0 }, '`maxIterations`'],
    ['maxAttempts 0', { maxAttempts: 0 }, '`maxAttempts`'],
    ['outputRetries -1', { outputRetries: -1 }, '`outputRetries`'],
    ['toolRetries -1', { toolRetries: -1 }, '`toolRetries`'],
    ['toolTimeout -1', { toolTimeout: -1 }, '`toolTimeout`'],
    ['usageLimit.inputTokens -1', { usageLimit: { inputTokens: -1 } }, '`usageLimit.inputTokens`'],
    [
      'usageLimit.outputTokens -1',
      { usageLimit: { outputTokens: -1 } },
      '`usageLimit.outputTokens`',
    ],
    ['usageLimit.totalTokens -1', { usageLimit: { totalTokens: -1 } }, '`usageLimit.totalTokens`'],
    ['usageLimit.requests -1', { usageLimit: { requests: -1 } }, '`usageLimit.requests`'],
    ['usageLimit.toolCalls -1', { usageLimit: { toolCalls: -1 } }, '`usageLimit.toolCalls`'],
  ])('AG-2 %s is a ConfigError whose message names the field', (_label, bad, field) => {
    const error = configError({ model: model(), ...bad });
    expect(error.message).toContain(field);
  });

  test('AG-2 the lower bounds themselves are valid (maxIterations 1, maxAttempts 1, budgets and bounds 0)', () => {
    expect(
      () =>
        new Agent({
          model: model(),
          maxIterations: 1,
          maxAttempts: 1,
          outputRetries: 0,
          toolRetries: 0,
          toolTimeout: 0,
          usageLimit: {
            inputTokens: 0,
            outputTokens: 0,
            totalTokens: 0,
            requests: 0,
            toolCalls: 0,
          },
        }),
    ).not.toThrow();
  });

  test('AG-2 validation order: the first failing check wins (maxIterations before toolRetries and usage bounds)', () => {
    const error = configError({
      model: model(),
      toolRetries: -1,
      maxIterations: 0,
      usageLimit: { requests: -1 },
    });
    expect(error.message).toContain('`maxIterations`');
    expect(error.message).not.toContain('toolRetries');
  });

  test('AG-2 validation order: a missing model is reported before any other field', () => {
    const error = configError({ maxIterations: 0, output: 'json' });
    expect(error.message).toContain('`model`');
  });

  test('AG-3 a nameless tool is a ConfigError', () => {
    const nameless = { name: '', description: '', schema: { type: 'object' }, execute: noop };
    const error = configError({ model: model(), tools: [nameless] });
    expect(error.message).toContain('tools[0]');
    expect(error.message).toContain('no name');
  });

  test('AG-3 a tool without execute is a ConfigError naming the tool', () => {
    const inert = { name: 'inert', description: '', schema: { type: 'object' } };
    const error = configError({ model: model(), tools: [tool('ok'), inert] });
    expect(error.message).toContain('tools[1]');
    expect(error.message).toContain('"inert"');
  });

  test('AG-3 two tools with the same name are a ConfigError naming the name', () => {
    const error = configError({
      model: model(),
      tools: [tool('lookup'), tool('other'), tool('lookup')],
    });
    expect(error.message).toContain('"lookup"');
  });

  test('AG-4 toolChoice naming an unregistered tool is a ConfigError naming the choice', () => {
    const error = configError({ model: model(), tools: [tool('a')], toolChoice: 'missing' });
    expect(error.message).toContain('`toolChoice`');
    expect(error.message).toContain('"missing"');
  });

  test('AG-4 toolChoice naming a registered tool is valid', () => {
    expect(
      () => new Agent({ model: model(), tools: [tool('a'), tool('b')], toolChoice: 'b' }),
    ).not.toThrow();
  });

  test('D2 an empty toolChoice is rejected at construction (not treated as unset)', () => {
    const error = configError({ model: model(), tools: [tool('a')], toolChoice: '' });
    expect(error.message).toContain('`toolChoice`');
  });

  test('AG-5 an outputSchema that is invalid JSON text is a ConfigError naming `outputSchema`', () => {
    const error = configError({ model: model(), outputSchema: '{"type":' });
    expect(error.message).toContain('`outputSchema`');
  });

  test('AG-5 an empty outputSchema disables schema mode: a run succeeds with "" and the request has no schema', async () => {
    const scripted = new ScriptedModel([textResponse('')]);
    const agent = new Agent({ model: scripted, outputSchema: '' });
    const result = await agent.run('hi');
    expect(result.output).toBe('');
    expect(scripted.requests).toHaveLength(1);
    expect(scripted.requests[0]).not.toHaveProperty('outputSchema');
  });

  test('AG-6 outputSchema together with outputTool is a ConfigError naming both', () => {
    const error = configError({
      model: model(),
      outputSchema: { type: 'object' },
      outputTool: { name: 'final', schema: { type: 'object' } },
    });
    expect(error.message).toContain('`outputSchema`');
    expect(error.message).toContain('`outputTool`');
  });

  test('AG-6 an outputTool schema that is invalid JSON text is a ConfigError naming `outputTool.schema`', () => {
    const error = configError({ model: model(), outputTool: { name: 'final', schema: '{' } });
    expect(error.message).toContain('`outputTool.schema`');
  });

  test('AG-6 an empty outputTool schema is a ConfigError naming `outputTool.schema`', () => {
    const error = configError({ model: model(), outputTool: { name: 'final', schema: '' } });
    expect(error.message).toContain('`outputTool.schema`');
  });

  test('AG-6 an outputTool named like a registered tool is a ConfigError naming the tool', () => {
    const error = configError({
      model: model(),
      tools: [tool('final')],
      outputTool: { name: 'final', schema: { type: 'object' } },
    });
    expect(error.message).toContain('"final"');
  });

  test('D2 an empty outputTool name is rejected at construction (not treated as "no output tool")', () => {
    const error = configError({
      model: model(),
      outputTool: { name: '', schema: { type: 'object' } },
    });
    expect(error.message).toContain('`outputTool.name`');
  });

  test('every construction error is thrown synchronously as a ConfigError, never a RunError', () => {
    const bad: Record<string, unknown>[] = [
      {},
      { model: model(), maxIterations: 0 },
      { model: model(), toolTimeout: -1 },
      { model: model(), outputSchema: '{' },
      { model: model(), tools: [tool('a'), tool('a')] },
      { model: model(), toolChoice: 'x' },
      { model: model(), outputTool: { name: '', schema: {} } },
    ];
    for (const config of bad) {
      const error = thrown(() => new Agent(config as unknown as AgentConfig<undefined, string>));
      expect(ConfigError.is(error)).toBe(true);
      expect(RunError.is(error)).toBe(false);
    }
  });
});

describe('tool declaration (spec §3)', () => {
  function definitionError(definition: Record<string, unknown>): ConfigError {
    const error = thrown(() =>
      defineTool(definition as unknown as ToolDefinition<unknown, unknown>),
    );
    if (!ConfigError.is(error, 'tool'))
      throw new Error(`expected a tool ConfigError, got ${String(error)}`);
    expect(error.reason).toBe('invalid-definition');
    expect(ConfigError.is(error, 'agent')).toBe(false);
    expect(RunError.is(error)).toBe(false);
    return error;
  }
  const valid = {
    name: 'roll',
    description: 'Roll a die',
    schema: { type: 'object' },
    execute: noop,
  };

  test('TL-1 defineTool rejects an empty name', () => {
    const error = definitionError({ ...valid, name: '' });
    expect(error.toolName).toBe('');
    expect(error.message).toContain('no name');
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['an empty schema', { schema: '' }, 'schema'],
    ['a missing schema', { schema: undefined }, 'schema'],
    ['an invalid-JSON schema', { schema: '{"type":' }, 'not valid JSON'],
    ['a missing execute', { execute: undefined }, '`execute`'],
    ['a negative maxRetries', { maxRetries: -1 }, '`maxRetries`'],
    ['a negative timeout', { timeout: -1 }, '`timeout`'],
    ['a non-integer maxRetries', { maxRetries: 1.5 }, '`maxRetries`'],
  ])(
    'TL-1 defineTool rejects %s with a tool ConfigError naming the tool',
    (_label, bad, fragment) => {
      const error = definitionError({ ...valid, ...bad });
      expect(error.toolName).toBe('roll');
      expect(error.message).toContain('"roll"');
      expect(error.message).toContain(fragment);
    },
  );

  test.each(['has space', 'dot.name', 'slash/name', 'é', 'x'.repeat(65)])(
    'TL-1 defineTool rejects the invalid tool name %j with a tool ConfigError naming it',
    (name) => {
      const error = definitionError({ ...valid, name });
      expect(error.toolName).toBe(name);
      expect(error.message).toContain(`"${name}"`);
    },
  );

  test('TL-1 defineTool accepts a JSON-text schema, maxRetries 0 and timeout 0', () => {
    const made = defineTool({
      name: 'a-b_C9',
      schema: '{"type":"object"}',
      execute: noop,
      maxRetries: 0,
      timeout: 0,
    });
    expect(made.name).toBe('a-b_C9');
    expect(made.schema).toEqual({ type: 'object' });
    expect(made.maxRetries).toBe(0);
    expect(made.timeout).toBe(0);
  });

  test('TL-2 a tool receives the run deps and the raw args text unchanged', async () => {
    const echo = defineTool<{ tenant: string }>({
      name: 'echo',
      schema: { type: 'object' },
      execute: (_args, ctx) => `${ctx.deps.tenant} ${ctx.rawArgs}`,
    });
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'echo', args: '{"guess":4}' }]),
      textResponse('done'),
    ]);
    const agent = new Agent<{ tenant: string }>({ model: scripted, tools: [echo] });
    const result = await agent.run('go', { deps: { tenant: 'acme' } });
    expect(result.messages[2]).toEqual({
      role: 'tool',
      content: 'acme {"guess":4}',
      toolCallId: 'call-1',
      toolName: 'echo',
    });
  });

  test('TL-2 execute receives the parsed args and every tool of the run sees the identical deps value', async () => {
    const deps = { tenant: 'acme' };
    const seen: { args: unknown; deps: unknown; callId: string; toolName: string }[] = [];
    const record = (name: string): Tool<typeof deps> =>
      defineTool<typeof deps>({
        name,
        schema: { type: 'object' },
        execute: (args, ctx) => {
          seen.push({ args, deps: ctx.deps, callId: ctx.callId, toolName: ctx.toolName });
          return name;
        },
      });
    const scripted = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'a', args: '{"guess":4}' },
        { id: 'c2', name: 'b', args: '{"n":[1,2]}' },
      ]),
      textResponse('done'),
    ]);
    const agent = new Agent<typeof deps>({ model: scripted, tools: [record('a'), record('b')] });
    await agent.run('go', { deps });
    expect(seen).toEqual([
      { args: { guess: 4 }, deps, callId: 'c1', toolName: 'a' },
      { args: { n: [1, 2] }, deps, callId: 'c2', toolName: 'b' },
    ]);
    expect(seen[0]?.deps).toBe(deps);
    expect(seen[1]?.deps).toBe(deps);
  });
});
