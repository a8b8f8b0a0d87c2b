import {
  Agent,
  defineTool,
  findError,
  ModelRetry,
  RunError,
  ToolError,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type Tool,
} from 'golem';
import { ModelResponseError } from '../../../support/internal-errors';

/**
 * A model that returns whatever it is given, unchecked and by reference, one outcome per call, and
 * records a JSON copy of every request.
 */
class GarbageModel implements Model {
  readonly name = 'garbage';
  readonly requests: ModelRequest[] = [];
  private readonly outcomes: unknown[];

  constructor(...outcomes: unknown[]) {
    this.outcomes = outcomes;
  }

  get calls(): number {
    return this.requests.length;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(JSON.parse(JSON.stringify(request)) as ModelRequest);
    if (this.outcomes.length === 0) throw new Error('GarbageModel: no outcome left');
    return this.outcomes.shift() as ModelResponse;
  }
}

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

/** A tool that records each execution's call id and raw args and answers `<name>:<rawArgs>`. */
function recorder(name = 'echo'): {
  tool: Tool;
  runs: { callId: string; rawArgs: string; args: unknown }[];
} {
  const runs: { callId: string; rawArgs: string; args: unknown }[] = [];
  const tool = defineTool({
    name,
    schema: { type: 'object' },
    execute: (args, ctx) => {
      runs.push({ callId: ctx.callId, rawArgs: ctx.rawArgs, args });
      return `${name}:${ctx.rawArgs}`;
    },
  });
  return { tool, runs };
}

const text = (content: string): unknown => ({
  message: { role: 'assistant', content },
  usage: { inputTokens: 1, outputTokens: 1 },
});

/** Runs an agent on a model answering `raw` first and asserts the typed model-stage failure. */
async function expectModelResponseError(raw: unknown): Promise<void> {
  const model = new GarbageModel(raw);
  const agent = new Agent({ model, tools: [recorder().tool] });
  const error = await runError(agent.run('go'));
  expect(error.stage).toBe('model');
  const invalid = findError(error, ModelResponseError.is);
  expect(invalid).toBeDefined();
  expect(invalid?.response).toBe(raw);
  expect(invalid?.message).toMatch(/^invalid model response: /);
  expect(error.partial).toBeUndefined();
  expect(model.calls).toBe(1);
}

describe('a model that returns garbage ends in a typed error with nothing lost', () => {
  test.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'garbage'],
    ['a number', 42],
    ['an array', []],
    ['an object without message', { usage: { inputTokens: 1, outputTokens: 1 } }],
    ['an object whose message is a string', { message: 'hello' }],
  ])(
    '(a) a response that is %s → RunError model with ModelResponseError carrying the raw value',
    async (_label, raw) => {
      await expectModelResponseError(raw);
    },
  );

  test.each(['user', 'system', 'tool', 'wizard'])(
    '(b) a message with role %j → RunError model with ModelResponseError',
    async (role) => {
      await expectModelResponseError({ message: { role, content: 'hi' } });
    },
  );

  test.each<[string, unknown]>([
    ['a number', 42],
    ['an object', { text: 'hi' }],
    ['an array', ['hi']],
  ])('(c) content that is %s → RunError model with ModelResponseError', async (_label, content) => {
    await expectModelResponseError({ message: { role: 'assistant', content } });
  });

  test.each<[string, unknown]>([
    ['toolCalls is a string', 'echo'],
    ['toolCalls is an object', { id: 'c1', name: 'echo', args: '{}' }],
    ['a call without name', [{ id: 'c1', args: '{}' }]],
    ['a call with an empty name', [{ id: 'c1', name: '', args: '{}' }]],
    ['a call that is null', [null]],
    ['a call whose id is a number', [{ id: 7, name: 'echo', args: '{}' }]],
  ])('(d) %s → RunError model with ModelResponseError', async (_label, toolCalls) => {
    await expectModelResponseError({ message: { role: 'assistant', toolCalls } });
  });

  test('(d) a garbage response is not retried even with maxAttempts 3', async () => {
    const model = new GarbageModel({ message: { role: 'user' } }, text('never'), text('never'));
    const agent = new Agent({ model, maxAttempts: 3, sleep: async () => Promise.resolve() });
    const error = await runError(agent.run('go'));
    expect(error.stage).toBe('model');
    expect(findError(error, ModelResponseError.is)).toBeDefined();
    expect(model.calls).toBe(1);
  });

  test('(e) invalid JSON args with toolRetries 0 → RunError tool, ModelRetry "not valid JSON" in the chain, raw args kept in partial.messages', async () => {
    const { tool, runs } = recorder();
    const model = new GarbageModel({
      message: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'echo', args: '{"a":' }] },
      usage: { inputTokens: 2, outputTokens: 3 },
    });
    const agent = new Agent({ model, tools: [tool] });
    const error = await runError(agent.run('go'));
    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError?.toolName).toBe('echo');
    expect(toolError?.callId).toBe('c1');
    expect(findError(error, ModelRetry.is)?.reason).toContain('not valid JSON');
    expect(runs).toEqual([]);
    expect(error.partial?.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'echo', args: '{"a":' }] },
    ]);
    expect(error.partial?.usage).toEqual({ inputTokens: 2, outputTokens: 3 });
  });

  test('(e) invalid JSON args with toolRetries 1 → the rejection is fed back as a tool message and the next answer completes the run', async () => {
    const { tool, runs } = recorder();
    const model = new GarbageModel(
      { message: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'echo', args: '{"a":' }] } },
      text('done'),
    );
    const agent = new Agent({ model, tools: [tool], toolRetries: 1 });
    const result = await agent.run('go');
    expect(result.output).toBe('done');
    expect(runs).toEqual([]);
    expect(result.messages).toHaveLength(4);
    expect(result.messages[1]).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'c1', name: 'echo', args: '{"a":' }],
    });
    const rejection = result.messages[2];
    expect(rejection).toEqual({
      role: 'tool',
      content: expect.any(String) as unknown,
      toolCallId: 'c1',
      toolName: 'echo',
    });
    expect(rejection?.content).toMatch(
      /^Your tool call was rejected: .*not valid JSON.*\. Correct the arguments and call the tool again\.$/,
    );
    expect(result.messages[3]).toEqual({ role: 'assistant', content: 'done' });
    expect(model.requests[1]?.messages.at(-1)).toEqual(rejection);
  });

  test('(f) calls without ids get deterministic ids golem_<request>_<index> and their results pair with them', async () => {
    const { tool, runs } = recorder();
    const model = new GarbageModel(
      {
        message: {
          role: 'assistant',
          toolCalls: [
            { name: 'echo', args: '{"n":0}' },
            { id: '', name: 'echo', args: '{"n":1}' },
          ],
        },
      },
      { message: { role: 'assistant', toolCalls: [{ id: null, name: 'echo', args: '{"n":2}' }] } },
      text('done'),
    );
    const agent = new Agent({ model, tools: [tool] });
    const result = await agent.run('go');
    expect(runs.map((r) => r.callId)).toEqual(['golem_1_0', 'golem_1_1', 'golem_2_0']);
    expect(result.messages.slice(1, 6)).toEqual([
      {
        role: 'assistant',
        toolCalls: [
          { id: 'golem_1_0', name: 'echo', args: '{"n":0}' },
          { id: 'golem_1_1', name: 'echo', args: '{"n":1}' },
        ],
      },
      { role: 'tool', content: 'echo:{"n":0}', toolCallId: 'golem_1_0', toolName: 'echo' },
      { role: 'tool', content: 'echo:{"n":1}', toolCallId: 'golem_1_1', toolName: 'echo' },
      { role: 'assistant', toolCalls: [{ id: 'golem_2_0', name: 'echo', args: '{"n":2}' }] },
      { role: 'tool', content: 'echo:{"n":2}', toolCallId: 'golem_2_0', toolName: 'echo' },
    ]);
  });

  test('(f) duplicate call ids in one response get suffixes so every result pairs with its own call', async () => {
    const { tool, runs } = recorder();
    const model = new GarbageModel(
      {
        message: {
          role: 'assistant',
          toolCalls: [
            { id: 'dup', name: 'echo', args: '{"n":0}' },
            { id: 'dup', name: 'echo', args: '{"n":1}' },
            { id: 'other', name: 'echo', args: '{"n":2}' },
          ],
        },
      },
      text('done'),
    );
    const agent = new Agent({ model, tools: [tool] });
    const result = await agent.run('go');
    const calls = result.messages[1]?.toolCalls ?? [];
    const ids = calls.map((c) => c.id);
    expect(ids[0]).toBe('dup');
    expect(ids[2]).toBe('other');
    expect(new Set(ids).size).toBe(3);
    expect(ids[1]).toMatch(/^dup_/);
    expect(runs.map((r) => r.callId)).toEqual(ids);
    expect(result.messages.slice(2, 5)).toEqual(
      calls.map((c) => ({
        role: 'tool',
        content: `echo:${c.args}`,
        toolCallId: c.id,
        toolName: 'echo',
      })),
    );
  });

  test('(f) a suffixed duplicate id never collides with another id of the same response', async () => {
    const { tool, runs } = recorder();
    const model = new GarbageModel(
      {
        message: {
          role: 'assistant',
          toolCalls: [
            { id: 'a_2', name: 'echo', args: '{"n":0}' },
            { id: 'a', name: 'echo', args: '{"n":1}' },
            { id: 'a', name: 'echo', args: '{"n":2}' },
          ],
        },
      },
      text('done'),
    );
    const result = await new Agent({ model, tools: [tool] }).run('go');
    const ids = (result.messages[1]?.toolCalls ?? []).map((c) => c.id);
    expect(ids.slice(0, 2)).toEqual(['a_2', 'a']);
    expect(new Set(ids).size).toBe(3);
    expect(runs.map((r) => r.callId)).toEqual(ids);
  });

  test('(f) normalised ids are deterministic: the same garbage gives the same ids on every run', async () => {
    const garbage = (): unknown[] => [
      {
        message: {
          role: 'assistant',
          toolCalls: [{ name: 'echo' }, { id: 'x', name: 'echo' }, { id: 'x', name: 'echo' }],
        },
      },
      text('done'),
    ];
    const first = await new Agent({
      model: new GarbageModel(...garbage()),
      tools: [recorder().tool],
    }).run('go');
    const second = await new Agent({
      model: new GarbageModel(...garbage()),
      tools: [recorder().tool],
    }).run('go');
    expect(second.messages).toEqual(first.messages);
    expect(first.messages[1]?.toolCalls?.map((c) => c.id)).toEqual(['golem_1_0', 'x', 'x_2']);
  });

  test('(g) missing args become "{}" for the evidence and the tool', async () => {
    const { tool, runs } = recorder();
    const model = new GarbageModel(
      { message: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'echo' }] } },
      text('done'),
    );
    const agent = new Agent({ model, tools: [tool] });
    const result = await agent.run('go');
    expect(runs).toEqual([{ callId: 'c1', rawArgs: '{}', args: {} }]);
    expect(result.messages[1]).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'c1', name: 'echo', args: '{}' }],
    });
  });

  test('(g) missing usage counts as zeros', async () => {
    const model = new GarbageModel({ message: { role: 'assistant', content: 'hi' } });
    const result = await new Agent({ model }).run('go');
    expect(result.output).toBe('hi');
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  test('(h) a garbage second response keeps partial.messages through the first round tool result and partial.requests = 2', async () => {
    const { tool, runs } = recorder();
    const garbage = {
      message: { role: 'assistant', toolCalls: 'nonsense' },
      usage: { inputTokens: 50, outputTokens: 50 },
    };
    const model = new GarbageModel(
      {
        message: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'echo', args: '{"a":1}' }] },
        usage: { inputTokens: 4, outputTokens: 2 },
      },
      garbage,
    );
    const agent = new Agent({ model, tools: [tool] });
    const error = await runError(agent.run('go'));
    expect(error.stage).toBe('model');
    expect(findError(error, ModelResponseError.is)?.response).toBe(garbage);
    expect(runs).toHaveLength(1);
    expect(error.partial).toEqual({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', toolCalls: [{ id: 'c1', name: 'echo', args: '{"a":1}' }] },
        { role: 'tool', content: 'echo:{"a":1}', toolCallId: 'c1', toolName: 'echo' },
      ],
      usage: { inputTokens: 4, outputTokens: 2 },
      requests: 2,
      toolCalls: 1,
    });
  });
});
