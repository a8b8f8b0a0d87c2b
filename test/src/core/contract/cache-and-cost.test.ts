import { type Message } from 'golem';
import { costOf } from '../../../../src/core/contract/cost';
import { planBreakpoints, resolveCache } from '../../../../src/core/contract/cache';

// The provider-neutral pieces behind caching and cost: breakpoint planning and cost arithmetic.

const on = resolveCache(true, 'test');

describe('planBreakpoints', () => {
  const conversation = (marks: number[]): Message[] => [
    { role: 'system', content: 'rules', cachePoint: true }, // system: never a message breakpoint
    ...Array.from({ length: 6 }, (_, i): Message => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `m${i}`,
      ...(marks.includes(i + 1) && { cachePoint: true }),
    })),
  ];

  test('tools, instructions and the last message when all are on and present', () => {
    const plan = planBreakpoints(conversation([]), on, { tools: true, instructions: true });
    expect([plan.tools, plan.instructions, [...plan.messages]]).toEqual([true, true, [6]]);
  });

  test('absent tools or instructions take no breakpoint', () => {
    const plan = planBreakpoints(conversation([]), on, { tools: false, instructions: false });
    expect([plan.tools, plan.instructions, [...plan.messages]]).toEqual([false, false, [6]]);
  });

  test('at most 4: the most recent markers win, the system message is never one', () => {
    const plan = planBreakpoints(conversation([1, 2, 3, 4]), on, {
      tools: true,
      instructions: true,
    });
    expect([...plan.messages].sort()).toEqual([4, 6]);
    const markersOnly = planBreakpoints(conversation([1, 2, 3, 4, 5]), undefined, {
      tools: true,
      instructions: true,
    });
    expect([markersOnly.tools, [...markersOnly.messages].sort()]).toEqual([false, [2, 3, 4, 5]]);
  });
});

describe('resolveCache', () => {
  test('true, false, undefined and objects (flags default on)', () => {
    expect(resolveCache(undefined, 'p')).toBeUndefined();
    expect(resolveCache(false, 'p')).toBeUndefined();
    expect(resolveCache({ messages: false, ttl: '1h', key: 'k' }, 'p')).toEqual({
      instructions: true,
      tools: true,
      messages: false,
      ttl: '1h',
      key: 'k',
      retention: undefined,
    });
  });
});

describe('costOf', () => {
  const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, reasoning: 10 };

  test('each kind of token at its own price, per million', () => {
    const cost = costOf(
      {
        inputTokens: 10_000,
        outputTokens: 2_000,
        cacheReadTokens: 6_000,
        cacheWriteTokens: 3_000,
        reasoningTokens: 500,
      },
      price,
    );
    expect(cost.input).toBeCloseTo((1_000 * 3 + 6_000 * 0.3 + 3_000 * 3.75) / 1e6, 12);
    expect(cost.output).toBeCloseTo((1_500 * 15 + 500 * 10) / 1e6, 12);
    expect(cost.total).toBeCloseTo(cost.input + cost.output, 12);
    expect(cost.currency).toBe('USD');
  });

  test('cache and reasoning prices default to input and output', () => {
    const cost = costOf(
      { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 1, reasoningTokens: 1 },
      { input: 1, output: 2 },
      'EUR',
    );
    expect([cost.input, cost.output, cost.currency]).toEqual([1, 2, 'EUR']);
  });
});
