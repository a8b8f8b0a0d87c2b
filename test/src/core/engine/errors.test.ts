import * as engineErrors from '../../../../src/core/engine/errors';
import * as usageErrors from '../../../../src/core/engine/usage-limit';
import * as cancellation from '../../../../src/core/errors/cancellation';
import * as modelErrors from '../../../../src/core/errors/errors';
import * as configErrors from '../../../../src/core/kit/config-error';
import {
  Agent,
  ModelHTTPError,
  RunError,
  ToolError,
  defineTool,
  historyFromPartial,
  errorChain,
  findError,
  isCancellation,
  type Message,
  type OutputDecoder,
} from 'golem';
import { RUN_STAGES } from '../../../../src/core/engine/errors';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { UndeclaredToolError } from '../../../support/internal-errors';

type EngineErrors = typeof import('../../../../src/core/engine/errors');
type UsageErrors = typeof import('../../../../src/core/engine/usage-limit');
type Cancellation = typeof import('../../../../src/core/errors/cancellation');
type ModelErrors = typeof import('../../../../src/core/errors/errors');
type ConfigErrors = typeof import('../../../../src/core/kit/config-error');

/** One loaded copy of the error modules. */
interface Copy {
  engine: EngineErrors;
  usage: UsageErrors;
  cancellation: Cancellation;
  model: ModelErrors;
  config: ConfigErrors;
}

const primary: Copy = {
  engine: engineErrors,
  usage: usageErrors,
  cancellation,
  model: modelErrors,
  config: configErrors,
};

/** A second copy of the modules, as a duplicate install of the package would give. */
function duplicateCopy(): Copy {
  let copy: Copy | undefined;
  jest.isolateModules(() => {
    copy = {
      engine: jest.requireActual<EngineErrors>('../../../../src/core/engine/errors'),
      usage: jest.requireActual<UsageErrors>('../../../../src/core/engine/usage-limit'),
      cancellation: jest.requireActual<Cancellation>('../../../../src/core/errors/cancellation'),
      model: jest.requireActual<ModelErrors>('../../../../src/core/errors/errors'),
      config: jest.requireActual<ConfigErrors>('../../../../src/core/kit/config-error'),
    };
  });
  if (copy === undefined) throw new Error('isolateModules did not load the copy');
  return copy;
}

type ErrorClass = (abstract new (...args: never[]) => Error) & { is(value: unknown): boolean };

/** Every branded error class of the engine and model error modules, with a way to build one. */
const classes: [string, (c: Copy) => ErrorClass, (c: Copy) => Error][] = [
  ['RunError', (c) => c.engine.RunError, (c) => new c.engine.RunError('model', new Error('down'))],
  [
    'ToolError',
    (c) => c.engine.ToolError,
    (c) => new c.engine.ToolError('x', 'c', new Error('boom')),
  ],
  [
    'UndeclaredToolError',
    (c) => c.engine.UndeclaredToolError,
    (c) => new c.engine.UndeclaredToolError('x'),
  ],
  ['TurnLimitError', (c) => c.engine.TurnLimitError, (c) => new c.engine.TurnLimitError(3)],
  [
    'AttemptsExhaustedError',
    (c) => c.engine.AttemptsExhaustedError,
    (c) => new c.engine.AttemptsExhaustedError('model', 2, new Error('x')),
  ],
  [
    'ConfigError',
    (c) => c.config.ConfigError,
    (c) => new c.config.ConfigError('bad config', { component: 'agent' }),
  ],
  ['RunInputError', (c) => c.engine.RunInputError, (c) => new c.engine.RunInputError('bad input')],
  [
    'UsageLimitError',
    (c) => c.usage.UsageLimitError,
    (c) => new c.usage.UsageLimitError('total token', 1000, 2000),
  ],
  ['ModelRetry', (c) => c.model.ModelRetry, (c) => new c.model.ModelRetry('n must be positive')],
  [
    'ModelHTTPError',
    (c) => c.model.ModelHTTPError,
    (c) => new c.model.ModelHTTPError({ status: 503, provider: 'p' }),
  ],
  [
    'ModelResponseError',
    (c) => c.model.ModelResponseError,
    (c) => new c.model.ModelResponseError('no message', {}),
  ],
  [
    'CancelledError',
    (c) => c.cancellation.CancelledError,
    (c) => new c.cancellation.CancelledError(),
  ],
  [
    'DeadlineExceededError',
    (c) => c.cancellation.DeadlineExceededError,
    (c) => new c.cancellation.DeadlineExceededError(),
  ],
];

/** Awaits a run that must fail with a RunError and returns it. */
async function runError(run: Promise<unknown>): Promise<RunError> {
  try {
    await run;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail');
}

const schema = { type: 'object' } as const;

describe('brand checks across duplicate package copies', () => {
  const copy = duplicateCopy();

  test('the duplicate copy really is a second copy', () => {
    expect(copy.engine.RunError).not.toBe(primary.engine.RunError);
    expect(copy.model.ModelRetry).not.toBe(primary.model.ModelRetry);
    expect(copy.cancellation.CancelledError).not.toBe(primary.cancellation.CancelledError);
  });

  test.each(classes)(
    '%s.is recognises its own instances and those of the other copy, where instanceof fails',
    (_name, cls, make) => {
      const mine = make(primary);
      const theirs = make(copy);
      expect(cls(primary).is(mine)).toBe(true);
      expect(cls(primary).is(theirs)).toBe(true);
      expect(cls(copy).is(mine)).toBe(true);
      expect(mine instanceof cls(primary)).toBe(true);
      expect(theirs instanceof cls(primary)).toBe(false);
      expect(mine instanceof cls(copy)).toBe(false);
    },
  );

  test.each(classes)(
    '%s.is rejects other kinds, plain look-alikes and non-errors',
    (name, cls, make) => {
      const is = cls(primary).is.bind(cls(primary));
      for (const [other, , makeOther] of classes) {
        if (other !== name) expect(is(makeOther(copy))).toBe(false);
      }
      const lookAlike = Object.assign(new Error(make(primary).message), { name, kind: name });
      expect(is(lookAlike)).toBe(false);
      expect(is(undefined)).toBe(false);
      expect(is(null)).toBe(false);
      expect(is(name)).toBe(false);
    },
  );

  test('isCancellation and findError see errors of the other copy inside a chain', () => {
    const cancelled = new copy.cancellation.CancelledError();
    const wrapped = new copy.engine.RunError('model', cancelled);
    expect(isCancellation(wrapped)).toBe(true);
    expect(findError(wrapped, RunError.is)).toBe(wrapped);
    expect(findError(wrapped, cancellation.CancelledError.is)).toBe(cancelled);
  });
});

describe('error messages', () => {
  test('RunError message is `golem: <stage> stage: <cause>` and keeps cause and no partial', () => {
    const cause = new Error('provider down');
    const error = new RunError('model', cause);
    expect(error.message).toBe('golem: model stage: provider down');
    expect(error.stage).toBe('model');
    expect(error.cause).toBe(cause);
    expect(error.partial).toBeUndefined();
    expect(error.name).toBe('RunError');
  });

  test('RunError renders a string cause as is', () => {
    expect(new RunError('loop', 'too many turns').message).toBe(
      'golem: loop stage: too many turns',
    );
  });

  test('ToolError message is `tool "x" (call "c"): ...` and names tool and call', () => {
    const cause = new Error('disk on fire');
    const error = new ToolError('x', 'c', cause);
    expect(error.message).toBe('tool "x" (call "c"): disk on fire');
    expect(error.toolName).toBe('x');
    expect(error.callId).toBe('c');
    expect(error.cause).toBe(cause);
  });

  test('a tool-stage RunError nests the ToolError message', () => {
    const error = new RunError('tool', new ToolError('x', 'c', new Error('boom')));
    expect(error.message).toBe('golem: tool stage: tool "x" (call "c"): boom');
  });
});

describe('errorChain', () => {
  test('walks cause and AggregateError.errors in pre-order', () => {
    const b1 = new Error('b1');
    const b = new Error('b', { cause: b1 });
    const c = new Error('c');
    const d = new Error('d');
    const agg = new AggregateError([b, c], 'agg', { cause: d });
    const a = new Error('a', { cause: agg });
    expect([...errorChain(a)].map((e) => (e as Error).message)).toEqual([
      'a',
      'agg',
      'b',
      'b1',
      'c',
      'd',
    ]);
  });

  test('visits every error of a cycle once', () => {
    const x = new Error('x');
    const y = new Error('y', { cause: x });
    Object.defineProperty(x, 'cause', { value: y });
    expect([...errorChain(x)]).toEqual([x, y]);
    const self = new Error('self');
    Object.defineProperty(self, 'cause', { value: self });
    expect([...errorChain(self)]).toEqual([self]);
  });

  test('visits an error reachable along two paths once', () => {
    const shared = new Error('shared');
    const agg = new AggregateError(
      [new Error('left', { cause: shared }), new Error('right', { cause: shared })],
      'agg',
    );
    expect([...errorChain(agg)].map((e) => (e as Error).message)).toEqual([
      'agg',
      'left',
      'shared',
      'right',
    ]);
  });

  test('includes non-error causes and stops at undefined', () => {
    const error = new Error('outer', { cause: 'reason text' });
    expect([...errorChain(error)]).toEqual([error, 'reason text']);
    expect([...errorChain(undefined)]).toEqual([]);
  });

  test('findError returns the first match in pre-order', () => {
    const deep = new ToolError('t', 'deep', new Error('x'));
    const first = new ToolError('t', 'first', new Error('y'));
    const agg = new AggregateError([new Error('m', { cause: deep }), first], 'agg');
    expect(findError(agg, ToolError.is)).toBe(deep);
    expect(findError(new Error('plain'), ToolError.is)).toBeUndefined();
  });
});

describe('§6 run failures', () => {
  const roll = defineTool({ name: 'roll', description: 'Rolls a die', schema, execute: () => '4' });

  test('ER-1 the stage identifiers are exactly model, decode, tool, loop, usage (+ guardrail)', () => {
    expect(RUN_STAGES).toEqual(['model', 'decode', 'tool', 'loop', 'usage', 'guardrail']);
  });

  test.each<[string, () => Promise<unknown>]>([
    ['model', () => new Agent({ model: new ScriptedModel([new Error('down')]) }).run('q')],
    [
      'decode',
      () =>
        new Agent<undefined, string>({
          model: new ScriptedModel([textResponse('x')]),
          output: () => {
            throw new Error('bad');
          },
        }).run('q'),
    ],
    [
      'tool',
      () =>
        new Agent({
          model: new ScriptedModel([toolCallResponse([{ id: 'call-1', name: 'boom' }])]),
          tools: [
            defineTool({
              name: 'boom',
              schema,
              execute: () => {
                throw new Error('boom');
              },
            }),
          ],
        }).run('q'),
    ],
    [
      'loop',
      () =>
        new Agent({
          model: new ScriptedModel([toolCallResponse([{ id: 'call-1', name: 'roll' }])]),
          tools: [roll],
          maxIterations: 1,
        }).run('q'),
    ],
    [
      'usage',
      () =>
        new Agent({
          model: new ScriptedModel([textResponse('x', { outputTokens: 10 })]),
          usageLimit: { outputTokens: 5 },
        }).run('q'),
    ],
  ])('ER-1 a %s failure reports exactly that stage', async (stage, run) => {
    expect((await runError(run())).stage).toBe(stage);
  });

  test('ER-2 a model error E fails at the model stage with E as cause', async () => {
    const e = new Error('provider down');
    const error = await runError(new Agent({ model: new ScriptedModel([e]) }).run('q'));
    expect(error.stage).toBe('model');
    expect(error.cause).toBe(e);
    expect([...errorChain(error)]).toContain(e);
    expect(error.message).toBe('golem: model stage: provider down');
  });

  test('ER-2 a decoder error D fails at the decode stage with D in the chain and full evidence', async () => {
    const d = new Error('not a number');
    const decoder: OutputDecoder<number> = () => {
      throw d;
    };
    const agent = new Agent<undefined, number>({
      model: new ScriptedModel([textResponse('seven', { inputTokens: 3, outputTokens: 1 })]),
      output: decoder,
    });
    const error = await runError(agent.run('q'));
    expect(error.stage).toBe('decode');
    expect([...errorChain(error)]).toContain(d);
    expect(error.partial).toEqual({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'seven' },
      ],
      usage: { inputTokens: 3, outputTokens: 1 },
      requests: 1,
      toolCalls: 0,
    });
  });

  test('ER-3 a tool error C fails at the tool stage with ToolError{toolName, callId} and C in the chain', async () => {
    const c = new Error('disk on fire');
    const tool = defineTool({
      name: 'lookup',
      schema,
      execute: () => {
        throw c;
      },
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'call-7', name: 'lookup' }])]);
    const error = await runError(new Agent({ model, tools: [tool] }).run('q'));
    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError?.toolName).toBe('lookup');
    expect(toolError?.callId).toBe('call-7');
    expect(toolError?.cause).toBe(c);
    expect([...errorChain(error)]).toContain(c);
    expect(error.message).toBe('golem: tool stage: tool "lookup" (call "call-7"): disk on fire');
  });

  test('ER-3 an undeclared tool fails at the tool stage with UndeclaredToolError as the ToolError cause', async () => {
    const model = new ScriptedModel([toolCallResponse([{ id: 'call-1', name: 'ghost' }])]);
    const error = await runError(new Agent({ model, tools: [roll] }).run('q'));
    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError).toMatchObject({ toolName: 'ghost', callId: 'call-1' });
    expect(UndeclaredToolError.is(toolError?.cause)).toBe(true);
    expect((toolError?.cause as Error).message).toBe('tool was not declared for this run');
  });

  test('ER-6 a failing second model call keeps the first round as partial evidence', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'roll' }], { inputTokens: 10, outputTokens: 3 }),
      new ModelHTTPError({ status: 400, provider: 'test', message: 'bad request' }),
    ]);
    const error = await runError(new Agent({ model, tools: [roll] }).run('roll it'));
    expect(error.stage).toBe('model');
    expect(error.partial).toEqual({
      messages: [
        { role: 'user', content: 'roll it' },
        { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'roll', args: '{}' }] },
        { role: 'tool', content: '4', toolCallId: 'call-1', toolName: 'roll' },
      ],
      usage: { inputTokens: 10, outputTokens: 3 },
      requests: 2,
      toolCalls: 1,
    });
  });

  test('ER-6 partial.requests counts failed attempts', async () => {
    const sleep = jest.fn(() => Promise.resolve());
    const unavailable = () => new ModelHTTPError({ status: 503, provider: 'test' });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'roll' }], { inputTokens: 2, outputTokens: 1 }),
      unavailable(),
      unavailable(),
    ]);
    const error = await runError(
      new Agent({ model, tools: [roll], maxAttempts: 2, sleep }).run('roll it'),
    );
    expect(error.stage).toBe('model');
    expect(error.partial?.requests).toBe(3);
    expect(error.partial?.toolCalls).toBe(1);
    expect(error.partial?.usage).toEqual({ inputTokens: 2, outputTokens: 1 });
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  test('ER-7 a failure inside a two-call batch ends partial.messages at the assistant message', async () => {
    const fail = defineTool({
      name: 'fail',
      schema,
      execute: () => {
        throw new Error('no');
      },
    });
    const model = new ScriptedModel([
      toolCallResponse(
        [
          { id: 'call-1', name: 'roll' },
          { id: 'call-2', name: 'fail' },
        ],
        { inputTokens: 5, outputTokens: 2 },
      ),
    ]);
    const error = await runError(new Agent({ model, tools: [roll, fail] }).run('go'));
    expect(error.stage).toBe('tool');
    expect(findError(error, ToolError.is)?.callId).toBe('call-2');
    const assistant: Message = {
      role: 'assistant',
      toolCalls: [
        { id: 'call-1', name: 'roll', args: '{}' },
        { id: 'call-2', name: 'fail', args: '{}' },
      ],
    };
    expect(error.partial).toEqual({
      messages: [{ role: 'user', content: 'go' }, assistant],
      usage: { inputTokens: 5, outputTokens: 2 },
      requests: 1,
      toolCalls: 2,
      // Additive (ADV-6): the completed call's real result travels beside the evidence.
      toolResults: [{ role: 'tool', content: '4', toolCallId: 'call-1', toolName: 'roll' }],
    });
    expect(historyFromPartial(error.partial!)).toEqual([
      { role: 'user', content: 'go' },
      assistant,
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'call-2', toolName: 'fail' },
      { role: 'tool', content: '4', toolCallId: 'call-1', toolName: 'roll' },
    ]);
  });

  test('ER-8 a first model attempt failing with no usage leaves partial absent', async () => {
    const error = await runError(
      new Agent({ model: new ScriptedModel([new Error('down')]) }).run('q'),
    );
    expect(error.stage).toBe('model');
    expect(error.partial).toBeUndefined();
  });

  test('D5 partial stays absent when only the history holds assistant turns', async () => {
    const history: Message[] = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'earlier answer' },
    ];
    const error = await runError(
      new Agent({ model: new ScriptedModel([new Error('down')]) }).run('q', { history }),
    );
    expect(error.stage).toBe('model');
    expect(error.partial).toBeUndefined();
  });
});
