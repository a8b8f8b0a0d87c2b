import {
  Agent,
  ConfigError,
  FallbackModel,
  ModelHTTPError,
  RunError,
  UsageLimitError,
  defineTool,
  priceTable,
  type ModelResponse,
} from 'golem';
import {
  BudgetExceededError,
  memorySpendStore,
  spendCap,
  spendReport,
  type SpendCapOptions,
} from 'golem/middleware';
import { memoryStore } from 'golem/stores/memory';
import { FunctionModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

// Input is free and every output token costs 1 USD: a call with `maxTokens: n` reserves exactly n.
const prices = priceTable({
  'test:m': { input: 0, output: 1_000_000 },
  'test:cheap': { input: 0, output: 1_000_000 },
  'test:pricey': { input: 0, output: 3_000_000 },
});
const DEC6 = Date.UTC(2026, 11, 6, 12, 0, 0);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A model answering with `out` output tokens per call. */
function model(out = 4, name = 'test:m'): FunctionModel {
  return new FunctionModel(() => textResponse('ok', { inputTokens: 7, outputTokens: out }), {
    name,
  });
}

function capped(
  m: FunctionModel,
  options: Partial<SpendCapOptions> & Pick<SpendCapOptions, 'caps'>,
  maxTokens = 4,
): Agent {
  return new Agent({
    model: m,
    modelSettings: { maxTokens },
    middleware: [spendCap({ prices, ...options })],
  });
}

describe('spendCap: refusing before the call', () => {
  test('a call that would cross the cap is refused at the usage stage with the spend so far', async () => {
    const store = memorySpendStore();
    const m = model(4);
    const agent = capped(m, {
      store,
      now: () => DEC6,
      caps: [{ per: 'owner', period: 'day', limit: 10 }],
    });
    const runs = memoryStore();
    await agent.run('one', { owner: 'alice', store: runs });
    await agent.run('two', { owner: 'alice', store: runs });
    const error = await rejection(agent.run('three', { owner: 'alice', store: runs }));

    expect(RunError.is(error)).toBe(true);
    const run = error as RunError;
    expect(run.stage).toBe('usage');
    expect(BudgetExceededError.is(run.cause)).toBe(true);
    expect(UsageLimitError.is(run.cause)).toBe(true);
    expect(run.cause).toMatchObject({
      limitKind: 'budget',
      limit: 10,
      actual: 8,
      spent: 8,
      reserved: 0,
      estimate: 4,
      currency: 'USD',
      cap: {
        per: 'owner',
        period: 'day',
        subject: 'alice',
        key: 'owner:alice:day:2026-12-06',
        limit: 10,
      },
    });
    expect((run.cause as Error).message).toContain('spend cap per owner "alice" (day) of 10 USD');
    // The model was not called a third time (the run produced nothing: no partial evidence).
    expect(m.calls).toBe(2);
    expect(run.partial).toBeUndefined();
    expect(await store.totals('owner:alice:day:2026-12-06', DEC6)).toEqual({
      spent: 8,
      reserved: 0,
    });
  });

  test('a tool loop crossing the cap stops before the next call, with the turns so far', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes',
      schema: { type: 'object', properties: {} },
      execute: () => 'echoed',
    });
    let n = 0;
    const m = new FunctionModel(
      () =>
        toolCallResponse([{ id: `c${n++}`, name: 'echo' }], { inputTokens: 7, outputTokens: 4 }),
      { name: 'test:m' },
    );
    const agent = new Agent({
      model: m,
      tools: [echo],
      modelSettings: { maxTokens: 4 },
      middleware: [spendCap({ prices, caps: [{ per: 'global', limit: 10 }] })],
    });
    const error = (await rejection(agent.run('loop'))) as RunError;
    expect(error.stage).toBe('usage');
    expect(error.cause).toMatchObject({
      spent: 8,
      estimate: 4,
      cap: { per: 'global', key: 'global:total' },
    });
    expect(m.calls).toBe(2);
    const roles = error.partial?.messages.map((x) => x.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  test('caps per conversation and per owner are separate windows', async () => {
    const store = memorySpendStore();
    const agent = capped(model(4), {
      store,
      now: () => DEC6,
      caps: [
        { per: 'conversation', limit: 5 },
        { per: 'owner', period: 'month', limit: 11 },
      ],
    });
    const runs = memoryStore();
    await agent.run('a', { owner: 'bob', conversation: 'c1', store: runs });
    const inC1 = (await rejection(
      agent.run('b', { owner: 'bob', conversation: 'c1', store: runs }),
    )) as RunError;
    expect(inC1.cause).toMatchObject({ cap: { per: 'conversation', subject: 'c1' }, spent: 4 });
    await agent.run('c', { owner: 'bob', conversation: 'c2', store: runs });
    const third = (await rejection(
      agent.run('d', { owner: 'bob', conversation: 'c3', store: runs }),
    )) as RunError;
    expect(third.cause).toMatchObject({
      cap: { per: 'owner', period: 'month', key: 'owner:bob:month:2026-12' },
      spent: 8,
    });
    // Another owner has a window of its own.
    await agent.run('e', { owner: 'carol', conversation: 'c4', store: runs });
  });

  test("a run without the cap's subject skips it, or is refused with missing: 'refuse'", async () => {
    const skip = capped(model(4), { caps: [{ per: 'owner', limit: 1 }] });
    expect((await skip.run('x')).output).toBe('ok');
    const m = model(4);
    const refuse = capped(m, { caps: [{ per: 'owner', limit: 100, missing: 'refuse' }] });
    const error = (await rejection(refuse.run('x'))) as RunError;
    expect(error.stage).toBe('usage');
    expect(BudgetExceededError.is(error.cause)).toBe(true);
    expect((error.cause as Error).message).toContain('`owner` option');
    expect(m.calls).toBe(0);
  });
});

describe('spendCap: periods (UTC)', () => {
  test('a day cap opens a new window at midnight UTC', async () => {
    let now = Date.UTC(2026, 11, 6, 23, 59, 59);
    const agent = capped(model(4), {
      now: () => now,
      caps: [{ per: 'global', period: 'day', limit: 8 }],
    });
    await agent.run('1');
    await agent.run('2');
    const error = (await rejection(agent.run('3'))) as RunError;
    expect(error.cause).toMatchObject({ cap: { key: 'global:day:2026-12-06' }, spent: 8 });
    now = Date.UTC(2026, 11, 7, 0, 0, 1);
    expect((await agent.run('4')).output).toBe('ok');
  });

  test('a month cap opens a new window on the 1st, the total cap never', async () => {
    let now = Date.UTC(2026, 11, 31, 23, 0, 0);
    const agent = capped(model(4), {
      now: () => now,
      caps: [
        { per: 'agent', period: 'month', limit: 4 },
        { per: 'agent', period: 'total', limit: 8 },
      ],
    });
    await agent.run('dec');
    expect(((await rejection(agent.run('dec'))) as RunError).cause).toMatchObject({
      cap: { key: 'agent:agent:month:2026-12' },
    });
    now = Date.UTC(2027, 0, 1, 0, 0, 0);
    await agent.run('jan');
    expect(((await rejection(agent.run('jan'))) as RunError).cause).toMatchObject({
      cap: { key: 'agent:agent:month:2027-01' },
    });
    now = Date.UTC(2027, 1, 1);
    expect(((await rejection(agent.run('feb'))) as RunError).cause).toMatchObject({
      cap: { per: 'agent', period: 'total', key: 'agent:agent:total' },
      spent: 8,
    });
  });
});

describe('spendCap: settling', () => {
  test('a failed call releases its reservation; a cached answer costs 0', async () => {
    const store = memorySpendStore();
    let n = 0;
    const m = new FunctionModel(
      (): ModelResponse => {
        n++;
        if (n === 1) throw new ModelHTTPError({ status: 400, provider: 'test' });
        if (n === 2) return textResponse('cached', { cachedResponses: 1 });
        return textResponse('ok', { outputTokens: 3 });
      },
      { name: 'test:m' },
    );
    const agent = capped(m, { store, now: () => DEC6, caps: [{ per: 'global', limit: 4 }] });
    await rejection(agent.run('fails'));
    expect(await store.totals('global:total', DEC6)).toEqual({ spent: 0, reserved: 0 });
    await agent.run('cached');
    expect(await store.totals('global:total', DEC6)).toEqual({ spent: 0, reserved: 0 });
    await agent.run('paid');
    expect(await store.totals('global:total', DEC6)).toEqual({ spent: 3, reserved: 0 });
  });

  test('a fallback member is priced as itself', async () => {
    const store = memorySpendStore();
    const cheap = new FunctionModel(
      () => {
        throw new ModelHTTPError({ status: 503, provider: 'test' });
      },
      { name: 'test:cheap' },
    );
    const pricey = model(2, 'test:pricey');
    const agent = new Agent({
      model: new FallbackModel([cheap, pricey]),
      modelSettings: { maxTokens: 2 },
      middleware: [
        spendCap({ prices, store, now: () => DEC6, caps: [{ per: 'global', limit: 100 }] }),
      ],
    });
    await agent.run('x');
    // 2 output tokens at 3 USD each (the member's price), not 1 (the first member's).
    expect(await store.totals('global:total', DEC6)).toEqual({ spent: 6, reserved: 0 });
    const rows = await spendReport(store, { period: 'day', at: DEC6, by: ['model'] });
    expect(rows).toEqual([
      { model: 'test:pricey', cost: 6, currency: 'USD', calls: 1, inputTokens: 7, outputTokens: 2 },
    ]);
  });

  test('streamed calls are capped too', async () => {
    const m = new StreamFunctionModel(
      async (_request, send) => {
        await send({ content: 'ok' });
        return textResponse('ok', { outputTokens: 4 });
      },
      { name: 'test:m' },
    );
    const agent = new Agent({
      model: m,
      modelSettings: { maxTokens: 4 },
      middleware: [spendCap({ prices, caps: [{ per: 'global', limit: 5 }] })],
    });
    const first = agent.runStream('1');
    const deltas: unknown[] = [];
    for await (const delta of first) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(0);
    await first.result;
    const second = agent.runStream('2');
    const error = (await rejection(second.result)) as RunError;
    expect(error.stage).toBe('usage');
    expect(error.cause).toMatchObject({ spent: 4 });
  });

  test('a model without a price is refused unless unpriced is free', async () => {
    const strict = capped(model(4, 'test:unknown'), { caps: [{ per: 'global', limit: 5 }] });
    const error = (await rejection(strict.run('x'))) as RunError;
    expect(ConfigError.is(error.cause)).toBe(true);
    const free = capped(model(4, 'test:unknown'), {
      caps: [{ per: 'global', limit: 5 }],
      unpriced: 'free',
    });
    for (let i = 0; i < 3; i++) expect((await free.run('x')).output).toBe('ok');
  });
});

describe('spendReport', () => {
  test('sums the ledger by owner, agent and model over a period', async () => {
    const store = memorySpendStore();
    let now = DEC6;
    const caps = [{ per: 'global' as const, limit: 1000 }];
    const runs = memoryStore();
    const writer = new Agent({
      name: 'writer',
      model: model(4),
      modelSettings: { maxTokens: 4 },
      middleware: [spendCap({ prices, store, now: () => now, caps })],
    });
    const critic = new Agent({
      name: 'critic',
      model: model(2, 'test:pricey'),
      modelSettings: { maxTokens: 2 },
      middleware: [spendCap({ prices, store, now: () => now, caps })],
    });
    await writer.run('1', { owner: 'alice', store: runs });
    await writer.run('2', { owner: 'alice', store: runs });
    await critic.run('3', { owner: 'alice', store: runs });
    await writer.run('4', { owner: 'bob', store: runs });
    now = Date.UTC(2026, 11, 7, 1);
    await writer.run('5', { owner: 'bob', store: runs });

    expect(await spendReport(store, { period: 'day', at: DEC6, by: ['owner'] })).toEqual([
      { owner: 'alice', cost: 14, currency: 'USD', calls: 3, inputTokens: 21, outputTokens: 10 },
      { owner: 'bob', cost: 4, currency: 'USD', calls: 1, inputTokens: 7, outputTokens: 4 },
    ]);
    expect(await spendReport(store, { period: 'month', at: DEC6, by: ['agent', 'model'] })).toEqual(
      [
        {
          agent: 'critic',
          model: 'test:pricey',
          cost: 6,
          currency: 'USD',
          calls: 1,
          inputTokens: 7,
          outputTokens: 2,
        },
        {
          agent: 'writer',
          model: 'test:m',
          cost: 16,
          currency: 'USD',
          calls: 4,
          inputTokens: 28,
          outputTokens: 16,
        },
      ],
    );
    expect(
      await spendReport(store, { from: Date.UTC(2026, 11, 7), to: Date.UTC(2026, 11, 8) }),
    ).toEqual([{ cost: 4, currency: 'USD', calls: 1, inputTokens: 7, outputTokens: 4 }]);
  });

  test('bad options are ConfigErrors', () => {
    expect(() => spendCap({ prices, caps: [] })).toThrow(ConfigError);
    expect(() => spendCap({ prices, caps: [{ per: 'team' as 'owner', limit: 1 }] })).toThrow(/per/);
    expect(() => spendCap({ prices, caps: [{ per: 'owner', limit: 0 }] })).toThrow(/limit/);
    expect(() =>
      spendCap({ prices, caps: [{ per: 'owner', period: 'week' as 'day', limit: 1 }] }),
    ).toThrow(/period/);
    expect(() => spendCap({ prices: {} as never, caps: [{ per: 'owner', limit: 1 }] })).toThrow(
      /PriceTable/,
    );
  });
});
