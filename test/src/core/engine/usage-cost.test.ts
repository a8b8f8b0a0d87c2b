import {
  Agent,
  ConfigError,
  FallbackModel,
  ModelHTTPError,
  RunError,
  UsageLimitError,
  defineTool,
  loadRun,
  priceTable,
  type PriceTable,
  type RunEvent,
  type RunInstrumentation,
} from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { configErrorOf } from '../../../support/config-error';

// Detailed usage summed across turns, run costs from a price table, and the bounds on them.

const echo = defineTool({ name: 'echo', schema: { type: 'object' }, execute: () => 'ok' });

const prices = priceTable({
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
});

function twoTurns(name = 'openai:gpt-4o-mini'): ScriptedModel {
  return new ScriptedModel(
    [
      toolCallResponse([{ id: 'c1', name: 'echo' }], {
        inputTokens: 1000,
        outputTokens: 50,
        cacheReadTokens: 800,
      }),
      textResponse('done', { inputTokens: 1100, outputTokens: 40, reasoningTokens: 30 }),
    ],
    { name },
  );
}

describe('usage details', () => {
  test('detail counters are summed across turns; a counter no turn reported stays absent', async () => {
    const agent = new Agent({ model: twoTurns(), tools: [echo] });
    const result = await agent.run('go');
    expect(result.usage).toEqual({
      inputTokens: 2100,
      outputTokens: 90,
      cacheReadTokens: 800,
      reasoningTokens: 30,
    });
  });

  test('a stored run keeps the detail counters (additive keys of the stored usage)', async () => {
    const store = memoryStore();
    const result = await new Agent({ model: twoTurns(), tools: [echo], store }).run('go');
    const record = await loadRun(store, result.runId ?? '');
    expect(record.usage).toEqual({
      inputTokens: 2100,
      outputTokens: 90,
      cacheReadTokens: 800,
      reasoningTokens: 30,
    });
  });

  test('usage without details stays { inputTokens, outputTokens }', async () => {
    const agent = new Agent({ model: new ScriptedModel([textResponse('x', { inputTokens: 2 })]) });
    expect((await agent.run('go')).usage).toEqual({ inputTokens: 2, outputTokens: 0 });
  });
});

describe('cost', () => {
  test('each response is priced by its model; the result sums them; model_end carries each', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: twoTurns(),
      tools: [echo],
      prices,
      onEvent: (e) => events.push(e),
    });
    const result = await agent.run('go');
    const first = { input: (200 * 0.15 + 800 * 0.075) / 1e6, output: (50 * 0.6) / 1e6 };
    const second = { input: (1100 * 0.15) / 1e6, output: (40 * 0.6) / 1e6 };
    expect(result.cost).toEqual({
      total: first.input + first.output + (second.input + second.output),
      input: first.input + second.input,
      output: first.output + second.output,
      currency: 'USD',
      unpriced: 0,
    });
    const ends = events.filter((e) => e.kind === 'model_end');
    expect(ends.map((e) => (e.message === undefined ? undefined : e.cost?.total))).toEqual([
      first.input + first.output,
      second.input + second.output,
    ]);
  });

  test('a model the table does not know is counted as unpriced, not as free', async () => {
    const agent = new Agent({ model: twoTurns('acme:mystery-1'), tools: [echo], prices });
    const result = await agent.run('go');
    expect(result.cost).toEqual({ total: 0, input: 0, output: 0, currency: 'USD', unpriced: 2 });
  });

  test('no prices, no cost field', async () => {
    const result = await new Agent({ model: twoTurns(), tools: [echo] }).run('go');
    expect(result.cost).toBeUndefined();
  });

  test('a fallback member is priced as itself', async () => {
    const primary = new ScriptedModel([new ModelHTTPError({ status: 503, provider: 'openai' })], {
      name: 'openai:gpt-4o',
    });
    const backup = new ScriptedModel(
      [textResponse('ok', { inputTokens: 1000, outputTokens: 100 })],
      {
        name: 'anthropic:claude-haiku-4-5',
      },
    );
    const agent = new Agent({ model: new FallbackModel([primary, backup]), prices });
    const result = await agent.run('go');
    expect(result.cost?.total).toBeCloseTo((1000 * 1 + 100 * 5) / 1e6, 12);
    expect(result.cost?.unpriced).toBe(0);
  });

  test('a failed run keeps the cost of what it consumed in partial evidence', async () => {
    const agent = new Agent({
      model: new ScriptedModel(
        [
          toolCallResponse([{ id: 'c1', name: 'echo' }], { inputTokens: 1000, outputTokens: 0 }),
          new ModelHTTPError({ status: 400, provider: 'openai' }),
        ],
        { name: 'openai:gpt-4o-mini' },
      ),
      tools: [echo],
      prices,
    });
    const error = await agent.run('go').catch((e: unknown) => e);
    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).partial?.cost).toEqual({
      total: (1000 * 0.15) / 1e6,
      input: (1000 * 0.15) / 1e6,
      output: 0,
      currency: 'USD',
      unpriced: 0,
    });
  });

  test('a price table that throws or returns garbage leaves the response unpriced; the run goes on', async () => {
    const broken: PriceTable = {
      cost: () => {
        throw new Error('dataset unavailable');
      },
    };
    const garbage = { cost: () => ({ total: Number.NaN }) } as unknown as PriceTable;
    for (const table of [broken, garbage]) {
      const result = await new Agent({ model: twoTurns(), tools: [echo], prices: table }).run('go');
      expect(result.output).toBe('done');
      expect(result.cost).toEqual({ total: 0, input: 0, output: 0, currency: 'USD', unpriced: 2 });
    }
  });

  test('priceTable validates prices and names the culprit', () => {
    expect(() => priceTable({ 'gpt-4o': { input: -1, output: 1 } })).toThrow(
      /priceTable\["gpt-4o"\]\.input must be a number >= 0/,
    );
    expect(() => priceTable({ 'gpt-4o': { input: 1 } as never })).toThrow(configErrorOf('prices'));
    expect(() => priceTable({ x: { input: 1, output: 1 } }, { currency: '' })).toThrow(/currency/);
  });
});

describe('usage limits on cost and reasoning', () => {
  test('usageLimit.cost fails the run at the usage stage with a typed error naming the currency', async () => {
    const agent = new Agent({
      model: twoTurns(),
      tools: [echo],
      prices,
      usageLimit: { cost: 0.0001 },
    });
    const error = await agent.run('go').catch((e: unknown) => e);
    expect(RunError.is(error) && error.stage).toBe('usage');
    const cause = (error as RunError).cause;
    expect(UsageLimitError.is(cause)).toBe(true);
    const limit = cause as UsageLimitError;
    expect([limit.limitKind, limit.limit, limit.currency]).toEqual(['cost', 0.0001, 'USD']);
    // Checked after every response: the first one already costs more, so no tool runs.
    expect(limit.actual).toBeCloseTo((200 * 0.15 + 800 * 0.075 + 50 * 0.6) / 1e6, 12);
    expect(limit.message).toBe('run exceeded the cost limit of 0.0001 USD (used 0.00012 USD)');
    expect((error as RunError).partial?.toolCalls).toBe(0);
  });

  test('usageLimit.reasoningTokens bounds reported reasoning', async () => {
    const agent = new Agent({
      model: twoTurns(),
      tools: [echo],
      usageLimit: { reasoningTokens: 20 },
    });
    const error = await agent.run('go').catch((e: unknown) => e);
    expect((error as RunError).cause).toMatchObject({
      limitKind: 'reasoning token',
      limit: 20,
      actual: 30,
      message: 'run exceeded the reasoning token limit of 20 (used 30)',
    });
  });

  test('a cost limit without prices, or a negative one, is a ConfigError naming the fix', () => {
    const model = twoTurns();
    expect(() => new Agent({ model, usageLimit: { cost: 1 } })).toThrow(ConfigError);
    expect(() => new Agent({ model, usageLimit: { cost: 1 } })).toThrow(/needs `prices`/);
    expect(() => new Agent({ model, prices, usageLimit: { cost: -1 } })).toThrow(
      /usageLimit\.cost` must be a number >= 0/,
    );
    expect(() => new Agent({ model, prices: {} as never })).toThrow(/PriceTable/);
  });
});

describe('the instrumentation port is advisory', () => {
  test('an instrumentation that throws everywhere never changes the run', async () => {
    const hostile: RunInstrumentation = {
      startRun: () => ({
        observe: () => {
          throw new Error('observe');
        },
        within: () => {
          throw new Error('within');
        },
        end: () => {
          throw new Error('end');
        },
      }),
    };
    const exploding: RunInstrumentation = {
      startRun: () => {
        throw new Error('start');
      },
    };
    for (const instrumentation of [hostile, exploding]) {
      const result = await new Agent({ model: twoTurns(), tools: [echo], instrumentation }).run(
        'go',
      );
      expect(result.output).toBe('done');
    }
    expect(() => new Agent({ model: twoTurns(), instrumentation: {} as never })).toThrow(
      /instrumentation` must have startRun/,
    );
  });

  test('the trace sees every event, then the end with the result or the error', async () => {
    const seen: string[] = [];
    const instrumentation: RunInstrumentation = {
      startRun: (info) => {
        seen.push(`start ${info.agent} ${info.model.name ?? ''} ${info.outputType} ${info.stream}`);
        return {
          observe: (e) => seen.push(e.kind),
          within: (scope, call) => {
            seen.push(`within ${scope.kind}`);
            return call();
          },
          end: (outcome) =>
            seen.push(outcome.ok ? `ok ${String(outcome.result?.output)}` : 'failed'),
        };
      },
    };
    const agent = new Agent({ name: 'probe', model: twoTurns(), tools: [echo], instrumentation });
    await agent.run('go');
    expect(seen).toEqual([
      'start probe openai:gpt-4o-mini text false',
      'model_start',
      'within model',
      'model_end',
      'tool_start',
      'within tool',
      'tool_end',
      'model_start',
      'within model',
      'model_end',
      'ok done',
    ]);
    seen.length = 0;
    await expect(agent.run('go', { history: 'nope' as never })).rejects.toThrow();
    expect(seen).toEqual(['start probe openai:gpt-4o-mini text false', 'failed']);
  });
});
