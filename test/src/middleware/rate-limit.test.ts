import {
  Agent,
  ModelHTTPError,
  RunError,
  isRetryable,
  retryAfterOf,
  type ModelResponse,
} from 'golem';
import { RateLimitedError, rateLimit, type RateLimitOptions } from 'golem/middleware';
import { FunctionModel, StreamFunctionModel, textResponse } from 'golem/testing';

// Only Date is faked: the limiter's windows run on Date.now, and the injected sleep moves it.
const START = Date.UTC(2026, 11, 6, 12, 0, 0);
beforeEach(() => {
  jest.useFakeTimers({
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
    now: START,
  });
});
afterEach(() => {
  jest.useRealTimers();
});

/** A sleep that records each wait and moves the fake clock by it. */
function fakeSleep(): { slept: number[]; sleep: RateLimitOptions['sleep'] } {
  const slept: number[] = [];
  return {
    slept,
    sleep: (ms) => {
      slept.push(ms);
      jest.setSystemTime(Date.now() + ms);
      return Promise.resolve();
    },
  };
}

let prefixes = 0;
/** Memory limiters are per instance, but a unique prefix keeps the keys apart anyway. */
const prefix = () => `t${++prefixes}`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A named model answering call `n` (0-based) with `answer(n)`; `calls` counts them. */
function counting(
  name: string,
  answer: (n: number) => ModelResponse = () => textResponse('ok'),
): FunctionModel {
  let n = 0;
  return new FunctionModel(() => answer(n++), { name });
}

describe('rateLimit: requests per interval', () => {
  test('a call past the limit waits for the window to end, then goes', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m');
    const limit = rateLimit({
      requests: { limit: 2, interval: 60_000 },
      maxWait: 120_000,
      sleep,
      prefix: prefix(),
    });
    const agent = new Agent({ model, middleware: [limit] });
    await agent.run('one');
    jest.setSystemTime(START + 10_000);
    await agent.run('two');
    expect(slept).toEqual([]);
    await agent.run('three');
    expect(model.calls).toBe(3);
    // The window began at START: the third call waited the 50 s left of it.
    expect(slept).toEqual([50_000]);
  });

  test('a wait longer than maxWait fails the call with a retryable RateLimitedError', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m');
    const agent = new Agent({
      model,
      middleware: [
        rateLimit({
          requests: { limit: 1, interval: 60_000 },
          maxWait: 1000,
          sleep,
          prefix: prefix(),
        }),
      ],
    });
    await agent.run('one');
    const error = await rejection(agent.run('two'));
    expect(RunError.is(error)).toBe(true);
    const cause = (error as RunError).cause;
    expect(RateLimitedError.is(cause)).toBe(true);
    expect(cause).toMatchObject({ key: 'test:m', limitKind: 'requests', retryable: true });
    expect((cause as RateLimitedError).retryAfter).toBe(60_000);
    expect(isRetryable(cause)).toBe(true);
    expect(retryAfterOf(cause)).toBe(60_000);
    expect(slept).toEqual([]);
    expect(model.calls).toBe(1);
  });

  test("key 'provider' shares one budget between a provider's models; 'model' does not", async () => {
    const { sleep } = fakeSleep();
    const shared = rateLimit({
      requests: { limit: 1, interval: 60_000 },
      key: 'provider',
      maxWait: 0,
      sleep,
      prefix: prefix(),
    });
    const perModel = rateLimit({
      requests: { limit: 1, interval: 60_000 },
      maxWait: 0,
      sleep,
      prefix: prefix(),
    });
    const a = counting('openai:a');
    const b = counting('openai:b');
    await new Agent({ model: a, middleware: [perModel] }).run('x');
    await new Agent({ model: b, middleware: [perModel] }).run('x');
    expect(b.calls).toBe(1);
    await new Agent({ model: a, middleware: [shared] }).run('x');
    const error = await rejection(new Agent({ model: b, middleware: [shared] }).run('x'));
    expect((error as RunError).cause).toMatchObject({ key: 'openai', limitKind: 'requests' });
    expect(b.calls).toBe(1);
  });

  test('a key function names the budget', async () => {
    const { sleep } = fakeSleep();
    const seen: (string | undefined)[] = [];
    const limit = rateLimit({
      requests: { limit: 1, interval: 60_000 },
      key: (call) => {
        seen.push(call.options?.scope?.agent);
        return 'team-a';
      },
      maxWait: 0,
      sleep,
      prefix: prefix(),
    });
    await new Agent({ name: 'writer', model: counting('x:1'), middleware: [limit] }).run('x');
    const error = await rejection(
      new Agent({ name: 'editor', model: counting('y:2'), middleware: [limit] }).run('x'),
    );
    expect((error as RunError).cause).toMatchObject({ key: 'team-a' });
    expect(seen).toEqual(['writer', 'editor']);
  });

  test('the wait honours the call signal (the default timer)', async () => {
    const model = counting('test:m');
    const agent = new Agent({
      model,
      middleware: [rateLimit({ requests: { limit: 1, interval: 60_000 }, prefix: prefix() })],
    });
    await agent.run('one');
    const controller = new AbortController();
    const run = agent.run('two', { signal: controller.signal });
    setImmediate(() => {
      controller.abort();
    });
    const error = await rejection(run);
    expect((error as Error).name).toMatch(/Cancelled|RunError/);
    expect(model.calls).toBe(1);
  });
});

describe('rateLimit: tokens per interval', () => {
  test('the estimate is held before the call and corrected by the usage after it', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m', () =>
      textResponse('ok', { inputTokens: 50, outputTokens: 50 }),
    );
    const agent = new Agent({
      model,
      modelSettings: { maxTokens: 500 },
      middleware: [
        rateLimit({
          tokens: { limit: 1000, interval: 60_000 },
          maxWait: 0,
          sleep,
          prefix: prefix(),
        }),
      ],
    });
    // Held 500 + the input, used 100: five fit in 1000; without the corrections only one would.
    for (let i = 0; i < 5; i++) await agent.run('hi');
    expect(model.calls).toBe(5);
    const error = await rejection(agent.run('hi'));
    expect((error as RunError).cause).toMatchObject({ limitKind: 'tokens' });
    expect(model.calls).toBe(5);
    expect(slept).toEqual([]);
  });

  test('usage above the estimate is charged: the next call waits', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m', () =>
      textResponse('ok', { inputTokens: 10, outputTokens: 900 }),
    );
    const agent = new Agent({
      model,
      modelSettings: { maxTokens: 100 },
      middleware: [
        rateLimit({
          tokens: { limit: 1000, interval: 60_000 },
          maxWait: 120_000,
          sleep,
          prefix: prefix(),
        }),
      ],
    });
    await agent.run('hi');
    expect(slept).toEqual([]);
    await agent.run('hi');
    expect(slept).toEqual([60_000]);
    expect(model.calls).toBe(2);
  });

  test('a refused token take fails with limitKind tokens', async () => {
    const { sleep } = fakeSleep();
    const model = counting('test:m', () =>
      textResponse('ok', { inputTokens: 10, outputTokens: 990 }),
    );
    const agent = new Agent({
      model,
      modelSettings: { maxTokens: 100 },
      middleware: [
        rateLimit({
          requests: { limit: 100, interval: 60_000 },
          tokens: { limit: 1000, interval: 60_000 },
          maxWait: 0,
          sleep,
          prefix: prefix(),
        }),
      ],
    });
    await agent.run('hi');
    const error = await rejection(agent.run('hi'));
    expect((error as RunError).cause).toMatchObject({ limitKind: 'tokens', retryAfter: 60_000 });
    expect(model.calls).toBe(1);
  });
});

describe("rateLimit: the provider's own limits", () => {
  test('headers saying nothing is left block the key until the reset', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m', (n) =>
      n === 0
        ? {
            ...textResponse('ok'),
            rateLimit: { remainingRequests: 0, resetRequestsMs: 4200, remainingTokens: 10 },
          }
        : textResponse('ok'),
    );
    const agent = new Agent({
      model,
      middleware: [rateLimit({ maxWait: 10_000, sleep, prefix: prefix() })],
    });
    await agent.run('one');
    await agent.run('two');
    // Blocks are whole seconds, rounded up.
    expect(slept).toEqual([5000]);
    expect(model.calls).toBe(2);
  });

  test('remaining tokens at zero block too; a block past maxWait is a RateLimitedError (provider)', async () => {
    const { sleep } = fakeSleep();
    const model = counting('test:m', () => ({
      ...textResponse('ok'),
      rateLimit: { remainingTokens: 0, resetTokensMs: 30_000 },
    }));
    const agent = new Agent({
      model,
      middleware: [rateLimit({ maxWait: 1000, sleep, prefix: prefix() })],
    });
    await agent.run('one');
    const error = await rejection(agent.run('two'));
    expect((error as RunError).cause).toMatchObject({ limitKind: 'provider', retryAfter: 30_000 });
    expect(model.calls).toBe(1);
  });

  test('a 429 with Retry-After blocks the key for that long and is rethrown', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m', (n) => {
      if (n === 0) throw new ModelHTTPError({ status: 429, provider: 'test', retryAfter: 3000 });
      return textResponse('ok');
    });
    const agent = new Agent({
      model,
      middleware: [rateLimit({ maxWait: 10_000, sleep, prefix: prefix() })],
    });
    const error = await rejection(agent.run('one'));
    expect(ModelHTTPError.is((error as RunError).cause)).toBe(true);
    await agent.run('two');
    expect(slept).toEqual([3000]);
    expect(model.calls).toBe(2);
  });

  test('other errors block nothing', async () => {
    const { slept, sleep } = fakeSleep();
    const model = counting('test:m', (n) => {
      if (n === 0) throw new ModelHTTPError({ status: 500, provider: 'test', retryAfter: 3000 });
      return textResponse('ok');
    });
    const agent = new Agent({
      model,
      middleware: [rateLimit({ maxWait: 10_000, sleep, prefix: prefix() })],
    });
    await rejection(agent.run('one'));
    await agent.run('two');
    expect(slept).toEqual([]);
  });
});

describe('rateLimit: streaming', () => {
  test('streamed calls are limited too', async () => {
    const { sleep } = fakeSleep();
    const model = new StreamFunctionModel(
      async (_request, send) => {
        await send({ content: 'o' });
        await send({ content: 'k' });
        return textResponse('ok');
      },
      { name: 'test:s' },
    );
    const agent = new Agent({
      model,
      middleware: [
        rateLimit({
          requests: { limit: 1, interval: 60_000 },
          maxWait: 0,
          sleep,
          prefix: prefix(),
        }),
      ],
    });
    const first = agent.runStream('one');
    const text: string[] = [];
    for await (const delta of first) if (delta.content !== undefined) text.push(delta.content);
    expect((await first.result).output).toBe('ok');
    expect(text.join('')).toBe('ok');
    const second = agent.runStream('two');
    const error = await rejection(second.result);
    expect(RateLimitedError.is((error as RunError).cause)).toBe(true);
  });
});
