import { ConfigError, emptyUsage, type RunEvent, type Usage } from 'golem';
import type { EvalContext, EvalToolCall, Evaluator } from '../../src/evals/evaluator';
import {
  maxCost,
  maxLatency,
  maxRequests,
  maxTokens,
  maxTurns,
} from '../../src/evals/evaluators/budgets';
import { eventCheck, hasEvent } from '../../src/evals/evaluators/events';
import {
  calledTool,
  neverCalled,
  toolTrajectory,
} from '../../src/evals/evaluators/tool-trajectory';
import { runEvaluator } from '../../src/evals/score';

interface Fields {
  toolCalls?: readonly EvalToolCall[];
  events?: readonly RunEvent[];
  turns?: number;
  requests?: number;
  usage?: Usage;
  cost?: number;
  durationMs?: number;
}

/** A case run's context with the evidence a test gives. */
function ctxOf(fields: Fields = {}): EvalContext {
  return {
    case: { name: 'case-1', input: 'prompt' },
    input: 'prompt',
    expected: undefined,
    output: 'done',
    messages: [],
    events: fields.events ?? [],
    toolCalls: fields.toolCalls ?? [],
    turns: fields.turns ?? 1,
    requests: fields.requests ?? 1,
    usage: fields.usage ?? emptyUsage(),
    cost: fields.cost,
    durationMs: fields.durationMs ?? 10,
    repeat: 0,
    signal: new AbortController().signal,
  };
}

let nextId = 0;
function call(name: string, args: unknown = {}): EvalToolCall {
  nextId += 1;
  return { name, id: `call_${nextId}`, args };
}

const run = (e: Evaluator, ctx: EvalContext) => runEvaluator(e, ctx);

describe('toolTrajectory', () => {
  const calls = [
    call('search', { q: 'lagos', limit: 5 }),
    call('get_weather', { city: 'Lagos' }),
    call('book_table', { people: 2, time: '19:00' }),
  ];

  it('in-order (default): the expected calls appear in order, others may come between', async () => {
    const ok = await run(toolTrajectory(['search', 'book_table']), ctxOf({ toolCalls: calls }));
    expect(ok).toMatchObject({ name: 'toolTrajectory', pass: true, score: 1 });
    const swapped = await run(
      toolTrajectory(['book_table', 'search']),
      ctxOf({ toolCalls: calls }),
    );
    expect(swapped).toMatchObject({ pass: false, score: 0.5 });
    expect(swapped.reason).toBe(
      'expected call 2 of 2: search out of order (calls: search, get_weather, book_table)',
    );
  });

  it('names a tool never called', async () => {
    const result = await run(
      toolTrajectory(['search', 'send_email', 'book_table']),
      ctxOf({ toolCalls: calls }),
    );
    expect(result.score).toBeCloseTo(2 / 3);
    expect(result.pass).toBe(false);
    expect(result.reason).toMatch(/^expected call 2 of 3: never called send_email/);
  });

  it('exact: the same calls, in order, nothing else', async () => {
    const all = ['search', 'get_weather', 'book_table'];
    expect(
      (await run(toolTrajectory(all, { order: 'exact' }), ctxOf({ toolCalls: calls }))).pass,
    ).toBe(true);
    const fewer = await run(
      toolTrajectory(['search', 'book_table'], { order: 'exact' }),
      ctxOf({ toolCalls: calls }),
    );
    expect(fewer).toMatchObject({ pass: false, score: 1 / 3 });
    expect(fewer.reason).toMatch(/^call 2: expected book_table, found get_weather/);
    const extra = await run(
      toolTrajectory(['search', 'get_weather'], { order: 'exact' }),
      ctxOf({ toolCalls: calls }),
    );
    expect(extra.reason).toMatch(/^call 3: unexpected extra call book_table/);
    const none = await run(toolTrajectory([], { order: 'exact' }), ctxOf({ toolCalls: calls }));
    expect(none.pass).toBe(false);
    expect((await run(toolTrajectory([], { order: 'exact' }), ctxOf())).pass).toBe(true);
  });

  it('any: each expected call is made, in any order, each call counted once', async () => {
    const ok = await run(
      toolTrajectory(['book_table', 'search'], { order: 'any' }),
      ctxOf({ toolCalls: calls }),
    );
    expect(ok.pass).toBe(true);
    const twice = await run(
      toolTrajectory(['search', 'search'], { order: 'any' }),
      ctxOf({ toolCalls: calls }),
    );
    expect(twice).toMatchObject({ pass: false, score: 0.5 });
    expect(twice.reason).toMatch(/^expected search once more than it was called/);
  });

  it('args subset (default): the keys given must match, extra keys allowed', async () => {
    const ok = await run(
      toolTrajectory([{ name: 'book_table', args: { people: 2 } }]),
      ctxOf({ toolCalls: calls }),
    );
    expect(ok.pass).toBe(true);
    const wrong = await run(
      toolTrajectory([{ name: 'book_table', args: { people: 4 } }]),
      ctxOf({ toolCalls: calls }),
    );
    expect(wrong.pass).toBe(false);
    expect(wrong.reason).toContain(
      'book_table called with {"people":2,"time":"19:00"}, expected args {"people":4}',
    );
  });

  it('args exact: the arguments must deep-equal', async () => {
    const partial = toolTrajectory([{ name: 'book_table', args: { people: 2 } }], {
      args: 'exact',
    });
    expect((await run(partial, ctxOf({ toolCalls: calls }))).pass).toBe(false);
    const full = toolTrajectory([{ name: 'book_table', args: { people: 2, time: '19:00' } }], {
      args: 'exact',
    });
    expect((await run(full, ctxOf({ toolCalls: calls }))).pass).toBe(true);
  });

  it('rejects bad expectations and options', () => {
    expect(() => toolTrajectory([''])).toThrow(ConfigError);
    expect(() => toolTrajectory([{ args: {} } as never])).toThrow(
      /tool name or \{ name, args\? \}/,
    );
    expect(() => toolTrajectory(['a'], { order: 'sorted' as never })).toThrow(/order "sorted"/);
    expect(() => toolTrajectory(['a'], { args: 'loose' as never })).toThrow(ConfigError);
  });
});

describe('calledTool and neverCalled', () => {
  const calls = [
    call('get_weather', { city: 'Lagos', unit: 'C' }),
    call('get_weather', { city: 'Abuja' }),
  ];

  it('calledTool passes when any call matches name and args subset', async () => {
    const e = calledTool('get_weather', { city: 'Abuja' });
    expect(e.name).toBe('calledTool(get_weather)');
    expect(await run(e, ctxOf({ toolCalls: calls }))).toMatchObject({ pass: true, score: 1 });
    const never = await run(calledTool('book_table'), ctxOf({ toolCalls: calls }));
    expect(never.reason).toBe(
      'expected a call to book_table: never called book_table (calls: get_weather, get_weather)',
    );
    const args = await run(
      calledTool('get_weather', { city: 'Kano' }),
      ctxOf({ toolCalls: calls }),
    );
    expect(args.pass).toBe(false);
    expect(args.reason).toContain('expected args {"city":"Kano"}');
    expect((await run(calledTool('x'), ctxOf())).reason).toContain('(no tool calls)');
  });

  it('neverCalled fails on any call of the named tools', async () => {
    expect((await run(neverCalled('book_table'), ctxOf({ toolCalls: calls }))).pass).toBe(true);
    const result = await run(
      neverCalled(['book_table', 'get_weather']),
      ctxOf({ toolCalls: calls }),
    );
    expect(result).toMatchObject({ name: 'neverCalled(book_table, get_weather)', pass: false });
    expect(result.reason).toBe(
      'expected no call to book_table, get_weather, found 2 (first: get_weather with {"city":"Lagos","unit":"C"})',
    );
    expect(() => neverCalled([])).toThrow(ConfigError);
  });
});

describe('budgets', () => {
  it('maxTurns, maxRequests and maxLatency compare with their limit, inclusive', async () => {
    expect(await run(maxTurns(3), ctxOf({ turns: 3 }))).toMatchObject({
      pass: true,
      reason: 'used 3 turns (limit 3 turns)',
    });
    expect(await run(maxTurns(3), ctxOf({ turns: 4 }))).toMatchObject({
      pass: false,
      reason: 'expected at most 3 turns, found 4 turns',
    });
    expect((await run(maxRequests(1), ctxOf({ requests: 2 }))).reason).toBe(
      'expected at most 1 request, found 2 requests',
    );
    expect((await run(maxLatency(100), ctxOf({ durationMs: 101 }))).reason).toBe(
      'expected at most 100 ms, found 101 ms',
    );
    expect((await run(maxLatency(100), ctxOf({ durationMs: 100 }))).pass).toBe(true);
  });

  it('maxTokens counts total, input or output tokens', async () => {
    const ctx = ctxOf({ usage: { inputTokens: 300, outputTokens: 250 } });
    expect((await run(maxTokens(500), ctx)).reason).toBe(
      'expected at most 500 tokens, found 550 tokens',
    );
    expect((await run(maxTokens(300, { kind: 'input' }), ctx)).pass).toBe(true);
    expect((await run(maxTokens(200, { kind: 'output' }), ctx)).reason).toBe(
      'expected at most 200 output tokens, found 250 output tokens',
    );
    expect(() => maxTokens(1, { kind: 'cached' as never })).toThrow(ConfigError);
  });

  it('maxCost fails an unpriced run with "not priced"', async () => {
    expect((await run(maxCost(0.01), ctxOf({ cost: 0.005 }))).pass).toBe(true);
    expect((await run(maxCost(0.01), ctxOf({ cost: 0.02 }))).reason).toBe(
      'expected a cost of at most 0.01, found 0.02',
    );
    const unpriced = await run(maxCost(0.01), ctxOf());
    expect(unpriced.pass).toBe(false);
    expect(unpriced.reason).toContain('not priced');
  });

  it('rejects negative or non-finite limits and renames', () => {
    expect(() => maxTurns(-1)).toThrow(ConfigError);
    expect(() => maxLatency(Number.NaN)).toThrow(/ms must be a finite number/);
    expect(() => maxCost(Number.POSITIVE_INFINITY)).toThrow(ConfigError);
    expect(maxTurns(2, { name: 'quick' }).name).toBe('quick');
  });
});

describe('events', () => {
  const request = { messages: [] };
  const events: RunEvent[] = [
    { kind: 'model_start', turn: 0, attempt: 1, request },
    { kind: 'tool_start', turn: 0, callId: 'c1', toolName: 'search', args: '{}' },
    { kind: 'tool_end', turn: 0, callId: 'c1', toolName: 'search', args: '{}', result: 'ok' },
    { kind: 'tool_start', turn: 0, callId: 'c2', toolName: 'book', args: '{}' },
    {
      kind: 'tool_end',
      turn: 0,
      callId: 'c2',
      toolName: 'book',
      args: '{}',
      error: new Error('full'),
    },
  ] as RunEvent[];

  it('hasEvent counts events of a kind, filtered, within min and max', async () => {
    expect(await run(hasEvent('tool_end'), ctxOf({ events }))).toMatchObject({
      name: 'hasEvent(tool_end)',
      pass: true,
    });
    const failed = hasEvent('tool_end', (e) => e.error !== undefined, { max: 0 });
    const result = await run(failed, ctxOf({ events }));
    expect(result).toMatchObject({ pass: false });
    expect(result.reason).toBe("expected no 'tool_end' events matching the filter, found 1");
    const handoff = await run(hasEvent('handoff'), ctxOf({ events }));
    expect(handoff.reason).toBe("expected at least 1 'handoff' event, found 0");
    const exact = await run(
      hasEvent('tool_start', undefined, { min: 2, max: 2 }),
      ctxOf({ events }),
    );
    expect(exact.pass).toBe(true);
  });

  it('hasEvent hints when no events were observed', async () => {
    const result = await run(hasEvent('model_start'), ctxOf());
    expect(result.reason).toContain('no events observed');
    expect(() => hasEvent('handoff', undefined, { min: 3, max: 1 })).toThrow(ConfigError);
  });

  it('eventCheck hands the events to the check', async () => {
    const tools = eventCheck(
      'few tools',
      (seen) => seen.filter((e) => e.kind === 'tool_start').length <= 1,
    );
    expect(await run(tools, ctxOf({ events }))).toMatchObject({ name: 'few tools', pass: false });
    const share = eventCheck(
      'share',
      (seen) => seen.filter((e) => e.kind === 'tool_end' && e.error === undefined).length / 2,
      { threshold: 0.6 },
    );
    expect(await run(share, ctxOf({ events }))).toMatchObject({ pass: false, score: 0.5 });
  });
});
