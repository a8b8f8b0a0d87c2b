/** spendCap under concurrency: the exact overshoot bound, reservation expiry, all-or-nothing holds, fallback members. */
import { Agent, FallbackModel, RunError, priceTable } from 'golem';
import { BudgetExceededError, memorySpendStore, spendCap, type SpendStore } from 'golem/middleware';
import { FunctionModel, textResponse } from 'golem/testing';
import { modelMembers } from '../../../src/middleware/model-members';

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

describe('spendCap: the bound', () => {
  /** Runs `count` agents at once, every call held in the model until all have been admitted or refused. */
  async function race(
    count: number,
    options: { reserveOut: number; actualOut: number; maxTokens?: number; limit: number },
  ): Promise<{ admitted: number; refused: number; store: SpendStore }> {
    const store = memorySpendStore();
    let inside = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let settled = 0;
    const m = new FunctionModel(
      async () => {
        inside++;
        await gate;
        return textResponse('ok', { outputTokens: options.actualOut });
      },
      { name: 'test:m' },
    );
    const agent = new Agent({
      model: m,
      ...(options.maxTokens !== undefined && { modelSettings: { maxTokens: options.maxTokens } }),
      middleware: [
        spendCap({
          prices,
          store,
          now: () => DEC6,
          reserve: { outputTokens: options.reserveOut },
          caps: [{ per: 'global', limit: options.limit }],
        }),
      ],
    });
    const runs = Array.from({ length: count }, () =>
      agent.run('x').then(
        () => 'ok',
        (e: unknown) => (BudgetExceededError.is((e as RunError).cause) ? 'refused' : 'other'),
      ),
    );
    // Every run is either inside the model or refused before the calls are let go.
    const outcomes: string[] = [];
    const tracked = runs.map((r) =>
      r.then((o) => {
        settled++;
        outcomes.push(o);
        return o;
      }),
    );
    while (inside + settled < count) await new Promise((r) => setImmediate(r));
    release();
    await Promise.all(tracked);
    expect(outcomes.filter((o) => o === 'other')).toEqual([]);
    return {
      admitted: outcomes.filter((o) => o === 'ok').length,
      refused: outcomes.filter((o) => o === 'refused').length,
      store,
    };
  }

  test('with maxTokens bounding the output, concurrent calls never spend past the cap', async () => {
    const { admitted, store } = await race(12, {
      reserveOut: 0,
      actualOut: 4,
      maxTokens: 4,
      limit: 21,
    });
    expect(admitted).toBe(5);
    const { spent } = await store.totals('global:total', DEC6);
    expect(spent).toBe(20);
    expect(spent).toBeLessThanOrEqual(21);
  });

  test('calls using more than reserved overshoot by exactly Σ (actual − reserved) of those in flight', async () => {
    // No maxTokens: each call reserves 2 but uses 5. Ten reserve at once (20 = the cap)...
    const { admitted, refused, store } = await race(12, { reserveOut: 2, actualOut: 5, limit: 20 });
    expect(admitted).toBe(10);
    expect(refused).toBe(2);
    const { spent } = await store.totals('global:total', DEC6);
    // ...and settle 5 each: cap + 10 × (5 − 2).
    expect(spent).toBe(20 + 10 * (5 - 2));
    // Once settled, the window is over its cap: even a free call is refused.
    const refusedAfter = await store.reserve({
      id: 'next',
      windows: [{ key: 'global:total', limit: 20 }],
      amount: 0,
      ttlMs: 1000,
      now: DEC6,
    });
    expect(refusedAfter).toMatchObject({ ok: false, spent: 50 });
  });

  test('an abandoned reservation expires after its ttl', async () => {
    const store = memorySpendStore();
    const window = { key: 'global:total', limit: 5 };
    const now = DEC6;
    expect(
      await store.reserve({ id: 'a', windows: [window], amount: 5, ttlMs: 1000, now }),
    ).toEqual({
      ok: true,
    });
    expect(
      await store.reserve({ id: 'b', windows: [window], amount: 1, ttlMs: 1000, now }),
    ).toMatchObject({
      ok: false,
      spent: 0,
      reserved: 5,
    });
    expect(
      await store.reserve({ id: 'b', windows: [window], amount: 1, ttlMs: 1000, now: now + 1000 }),
    ).toEqual({ ok: true });
  });

  test('a reservation holds on every window or on none', async () => {
    const store = memorySpendStore();
    const a = { key: 'a', limit: 10 };
    const b = { key: 'b', limit: 3 };
    const refused = await store.reserve({
      id: '1',
      windows: [a, b],
      amount: 4,
      ttlMs: 1000,
      now: 0,
    });
    expect(refused).toMatchObject({ ok: false, window: b });
    expect(await store.totals('a', 0)).toEqual({ spent: 0, reserved: 0 });
  });
});

describe('fallback members', () => {
  test("a FallbackModel's name lists its members, nested ones flattened", () => {
    expect(modelMembers('fallback(a:1, fallback(b:2, c:3), #2)')).toEqual([
      'a:1',
      'b:2',
      'c:3',
      '#2',
    ]);
    expect(modelMembers('openai:gpt-4o')).toEqual(['openai:gpt-4o']);
    expect(modelMembers(undefined)).toEqual([undefined]);
  });

  test('the estimate of a FallbackModel is its most expensive priced member; the first member answering is priced as itself', async () => {
    const store = memorySpendStore();
    const agent = new Agent({
      model: new FallbackModel([model(2, 'test:cheap'), model(2, 'test:pricey')]),
      modelSettings: { maxTokens: 2 },
      middleware: [
        spendCap({ prices, store, now: () => DEC6, caps: [{ per: 'global', limit: 10 }] }),
      ],
    });
    await agent.run('1');
    await agent.run('2');
    await agent.run('3');
    // Each call reserves 6 (2 tokens at the pricey member's 3 USD) and spends 2 (the cheap one
    // answered): a fourth would hold 6 + 6 > 10.
    const error = (await rejection(agent.run('4'))) as RunError;
    expect(error.cause).toMatchObject({ spent: 6, estimate: 6 });
  });
});
