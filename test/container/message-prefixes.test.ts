/**
 * Error messages read once-prefixed across every layer: a failure at each run stage, a decorated
 * output that fails validation, a provider error wrapped in a `RunError`, nested runs, and the
 * container's and the decorators' own errors. No message (nor any message along the cause chain)
 * says `golem:` twice, carries the old `runner:` prefix, or repeats a stage prefix.
 */
import { IsInt, IsString } from 'class-validator';
import { Container } from 'inversify';
import {
  Agent,
  ModelHTTPError,
  ModelRetry,
  RunError,
  defineTool,
  errorChain,
  type Model,
  type OutputDecoder,
} from 'golem';
import { Agent as AgentClass, OUTPUT_TYPE, Output, Tool, agentFromClass } from 'golem/decorators';
import { createGolemContainer, resolveAgent } from 'golem/container';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { PlainClass } from './fixtures/weather';

class Reading {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

class CityArgs {
  @IsString() city!: string;
}

@AgentClass({ model: 'default', outputRetries: 1, toolRetries: 1 })
@Output(Reading)
class ReadingAgent {
  declare readonly [OUTPUT_TYPE]: Reading;

  @Tool({ description: 'Temperature of a city' })
  temperature(args: CityArgs): string {
    return `${args.city}: 31`;
  }
}

@AgentClass({ model: 'fast' })
class UnboundModelAgent {}

const http500 = (): ModelHTTPError =>
  new ModelHTTPError({ status: 500, provider: 'acme', message: 'overloaded' });

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  schema: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => 'ok',
});

const rejecting = defineTool({
  name: 'strict',
  description: 'Always rejects',
  schema: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => {
    throw new ModelRetry('never good enough');
  },
});

const failing = (model: Model, extra: object = {}): Agent<undefined> =>
  new Agent<undefined>({ model, ...extra });

/** A sub-agent as a tool of another agent; the inner run fails at `innerStage`. */
function delegating(inner: Agent<undefined>): Agent<undefined> {
  return new Agent<undefined>({
    model: new ScriptedModel([
      toolCallResponse([{ id: 'd1', name: 'ask', args: { prompt: 'x' } }]),
    ]),
    tools: [inner.asTool('ask', 'Asks the sub-agent')],
  });
}

/** A decoder that runs another agent, failing at the same stage (decode) as its wrapper. */
function nestedDecode(): OutputDecoder<string> {
  const inner = failing(new ScriptedModel([textResponse('no')]), {
    output: () => {
      throw new ModelRetry('inner rejection');
    },
  });
  return async () => (await inner.run('check')).output;
}

/** Runs that fail, by what fails. */
const runs: [string, () => Promise<unknown>][] = [
  ['model: a provider error', () => failing(new ScriptedModel([http500()])).run('hi')],
  [
    'model: a provider error after retries',
    () =>
      failing(new ScriptedModel([http500(), http500()]), {
        maxAttempts: 2,
        sleep: () => Promise.resolve(),
      }).run('hi'),
  ],
  [
    'decode: output retries exhausted',
    () =>
      failing(new ScriptedModel([textResponse('a'), textResponse('b')]), {
        outputRetries: 1,
        output: () => {
          throw new ModelRetry('want c');
        },
      }).run('hi'),
  ],
  [
    'decode: a nested run failing at decode inside a decoder',
    () => failing(new ScriptedModel([textResponse('x')]), { output: nestedDecode() }).run('hi'),
  ],
  [
    'decode: decorated output fails validation',
    () =>
      agentFromClass(new ReadingAgent(), {
        model: new ScriptedModel([
          textResponse('{"city":"Lagos","celsius":"hot"}'),
          textResponse('{"city":"Lagos"}'),
        ]),
      }).run('hi'),
  ],
  [
    'tool: decorated arguments fail validation twice',
    () =>
      agentFromClass(new ReadingAgent(), {
        model: new ScriptedModel([
          toolCallResponse([{ id: 'c1', name: 'temperature', args: { city: 1 } }]),
          toolCallResponse([{ id: 'c2', name: 'temperature', args: {} }]),
        ]),
      }).run('hi'),
  ],
  [
    'tool: a rejecting tool exhausts its retries',
    () =>
      failing(
        new ScriptedModel([
          toolCallResponse([{ id: 'c1', name: 'strict' }]),
          toolCallResponse([{ id: 'c2', name: 'strict' }]),
        ]),
        { tools: [rejecting], toolRetries: 1 },
      ).run('hi'),
  ],
  [
    'tool: an undeclared tool',
    () => failing(new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'nope' }])])).run('hi'),
  ],
  [
    'tool: a sub-agent failing at the model stage',
    () => delegating(failing(new ScriptedModel([http500()]))).run('hi'),
  ],
  [
    'tool: a sub-agent failing at the tool stage',
    () =>
      delegating(failing(new ScriptedModel([toolCallResponse([{ id: 'i1', name: 'nope' }])]))).run(
        'hi',
      ),
  ],
  [
    'loop: the turn limit',
    () =>
      failing(
        new ScriptedModel([
          toolCallResponse([{ id: 'c1', name: 'echo' }]),
          toolCallResponse([{ id: 'c2', name: 'echo' }]),
        ]),
        { tools: [echo], maxIterations: 2 },
      ).run('hi'),
  ],
  [
    'usage: a token limit',
    () =>
      failing(new ScriptedModel([textResponse('hi', { inputTokens: 50, outputTokens: 50 })]), {
        usageLimit: { totalTokens: 10 },
      }).run('hi'),
  ],
  [
    'model: a provider asking to wait too long',
    () =>
      failing(
        new ScriptedModel([
          new ModelHTTPError({ status: 429, provider: 'acme', retryAfter: 3_600_000 }),
        ]),
        { maxAttempts: 2, sleep: () => Promise.resolve() },
      ).run('hi'),
  ],
];

/** Errors thrown outside a run: the container's and the decorators'. */
const thrown: [string, () => unknown][] = [
  ['container: not an agent', () => resolveAgent(new Container(), PlainClass)],
  [
    'container: an unbound model',
    () => resolveAgent(createGolemContainer({ agents: [UnboundModelAgent] }), UnboundModelAgent),
  ],
  [
    'container: a model string that cannot be built',
    () =>
      resolveAgent(
        createGolemContainer({
          env: {},
          models: { fast: 'openai:gpt-4o-mini' },
          agents: [UnboundModelAgent],
        }),
        UnboundModelAgent,
      ),
  ],
  ['decorators: not an agent', () => agentFromClass(new PlainClass(), { model: 'x' as never })],
];

const TWICE = /golem:.*golem:/s;
const REPEATED_STAGE = /\b(model|decode|tool|loop|usage) stage: \1 stage: /;

/** Every message along the error's cause chain. */
function messages(error: unknown): string[] {
  return [...errorChain(error)].map((link) =>
    link instanceof Error ? link.message : String(link),
  );
}

function expectOncePrefixed(error: unknown): void {
  for (const message of messages(error)) {
    expect(message).not.toMatch(TWICE);
    expect(message).not.toMatch(REPEATED_STAGE);
    expect(message).not.toContain('runner:');
  }
}

describe('run failures read once-prefixed', () => {
  test.each(runs)('%s', async (name, run) => {
    const error: unknown = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunError.is(error)).toBe(true);
    const stage = name.slice(0, name.indexOf(':'));
    expect((error as RunError).stage).toBe(stage);
    expect((error as RunError).message.startsWith(`golem: ${stage} stage: `)).toBe(true);
    expectOncePrefixed(error);
  });

  test('a nested run keeps its own stage once, after the wrapper names the tool', async () => {
    const error = await delegating(failing(new ScriptedModel([http500()])))
      .run('hi')
      .catch((e: unknown) => e);
    expect((error as RunError).message).toBe(
      'golem: tool stage: tool "ask" (call "d1"): model stage: acme: HTTP 500: overloaded',
    );
  });

  test('decorated output validation exhausted reads "output failed validation" once', async () => {
    const [, run] = runs.find(([name]) => name.startsWith('decode: decorated')) ?? [];
    const error = await run?.().catch((e: unknown) => e);
    expect((error as RunError).message).toMatch(
      /^golem: decode stage: output failed validation after 2 attempts: model output rejected: /,
    );
  });
});

describe('errors outside a run read once-prefixed', () => {
  test.each(thrown)('%s', (_name, fn) => {
    let error: unknown;
    try {
      fn();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expectOncePrefixed(error);
  });
});
