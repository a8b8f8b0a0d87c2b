import {
  Agent,
  ModelHTTPError,
  RunError,
  defineTool,
  errorChain,
  repairHistory,
  requireApproval,
  type Message,
  type RunEvent,
} from 'golem';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { ScriptedModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { AttemptsExhaustedError } from '../../../support/internal-errors';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('ADV-5 tool-call arguments whose prefix is valid JSON', () => {
  function searchFixture(log: string[]) {
    const executions: { args: unknown; raw: string }[] = [];
    const search = defineTool({
      name: 'search',
      schema: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'integer' } },
      },
      execute: (args, ctx) => {
        log.push('tool executed');
        executions.push({ args, raw: ctx.rawArgs });
        return 'results';
      },
    });
    return { search, executions };
  }

  test('ADV-5 the tool runs once, after the stream completes, with {query:"test", limit:10}', async () => {
    const log: string[] = [];
    const { search, executions } = searchFixture(log);
    const model = new StreamFunctionModel(async (request, emit) => {
      if (request.messages.at(-1)?.role === 'tool') {
        await emit({ content: 'found it' });
        return textResponse('found it');
      }
      await emit({
        toolCalls: [{ index: 0, id: 'call-1', name: 'search', argsFragment: '{"query":"test"}' }],
      });
      await emit({ toolCalls: [{ index: 0, argsFragment: ', "limit":10}' }] });
      log.push('stream complete');
      return toolCallResponse([
        { id: 'call-1', name: 'search', args: '{"query":"test", "limit":10}' },
      ]);
    });
    const agent = new Agent({ model, tools: [search] });

    const result = await agent.runStream('search', {
      onDelta: (d) => void log.push(`delta ${d.toolCalls?.[0]?.argsFragment ?? d.content ?? ''}`),
    }).result;

    expect(log).toEqual([
      'delta {"query":"test"}',
      'delta , "limit":10}',
      'stream complete',
      'tool executed',
      'delta found it',
    ]);
    expect(executions).toEqual([
      { args: { query: 'test', limit: 10 }, raw: '{"query":"test", "limit":10}' },
    ]);
    expect(result.messages[1]?.toolCalls).toEqual([
      { id: 'call-1', name: 'search', args: '{"query":"test", "limit":10}' },
    ]);
    expect(result.output).toBe('found it');
  });

  test('ADV-5 a stream that fails mid-arguments never executes the tool', async () => {
    const log: string[] = [];
    const { search, executions } = searchFixture(log);
    const reset = new Error('socket hang up');
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({
        toolCalls: [{ index: 0, id: 'call-1', name: 'search', argsFragment: '{"query":"test"}' }],
      });
      throw reset;
    });
    const agent = new Agent({ model, tools: [search] });

    const error = await rejection(agent.runStream('search').result);

    expect((error as RunError).stage).toBe('model');
    expect((error as RunError).cause).toBe(reset);
    expect(executions).toEqual([]);
  });
});

describe('ADV-8 duplicate and missing tool-call ids', () => {
  function echoFixture() {
    const seen: string[] = [];
    const echo = defineTool({
      name: 'echo',
      schema: { type: 'object' },
      execute: (args, ctx) => {
        seen.push(ctx.callId);
        return `n=${String((args as { n?: number }).n)}`;
      },
    });
    return { echo, seen };
  }

  test('ADV-8 two calls with the same id in one turn get stable distinct ids and their own results', async () => {
    const { echo, seen } = echoFixture();
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'dup', name: 'echo', args: { n: 1 } },
        { id: 'dup', name: 'echo', args: { n: 2 } },
      ]),
      textResponse('ok'),
    ]);
    const agent = new Agent({ model, tools: [echo] });

    const result = await agent.run('go');

    expect(result.messages[1]?.toolCalls?.map((c) => c.id)).toEqual(['dup', 'dup_1']);
    expect(result.messages.slice(2, 4)).toEqual([
      { role: 'tool', content: 'n=1', toolCallId: 'dup', toolName: 'echo' },
      { role: 'tool', content: 'n=2', toolCallId: 'dup_1', toolName: 'echo' },
    ]);
    expect(seen).toEqual(['dup', 'dup_1']);
  });

  test('ADV-8 missing ids are made unique deterministically (same ids on every run)', async () => {
    const script = () => [
      toolCallResponse([
        { id: '', name: 'echo', args: { n: 1 } },
        { id: '', name: 'echo', args: { n: 2 } },
      ]),
      toolCallResponse([{ id: '', name: 'echo', args: { n: 3 } }]),
      textResponse('ok'),
    ];
    const ids: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const { echo } = echoFixture();
      const result = await new Agent({ model: new ScriptedModel(script()), tools: [echo] }).run(
        'go',
      );
      ids.push(result.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId ?? ''));
    }

    expect(ids[0]).toEqual(['golem_1_0', 'golem_1_1', 'golem_2_0']);
    expect(ids[1]).toEqual(ids[0]);
  });

  test('ADV-8 an id reused across turns pairs each result with its own call, and continuation keeps both', async () => {
    const { echo, seen } = echoFixture();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'bash:0', name: 'echo', args: { n: 1 } }]),
      toolCallResponse([{ id: 'bash:0', name: 'echo', args: { n: 2 } }]),
      textResponse('ok'),
      textResponse('again'),
    ]);
    const agent = new Agent({ model, tools: [echo] });

    const first = await agent.run('go');
    await agent.run('more', { history: first.messages });

    expect(seen).toEqual(['bash:0', 'bash:0']);
    expect(
      first.messages.map((m) => `${m.role}${m.content !== undefined ? ` ${m.content}` : ''}`),
    ).toEqual(['user go', 'assistant', 'tool n=1', 'assistant', 'tool n=2', 'assistant ok']);
    expect(model.lastRequest?.messages).toEqual([
      ...first.messages,
      { role: 'user', content: 'more' },
    ]);
  });

  test('ADV-8 a call id reused across turns can still be resumed after the second call defers', async () => {
    const gated = defineTool({
      name: 'gated',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        if (!ctx.approved) throw requireApproval('check');
        return 'ran after approval';
      },
    });
    const { echo } = echoFixture();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'bash:0', name: 'echo', args: { n: 1 } }]),
      toolCallResponse([{ id: 'bash:0', name: 'gated' }]),
      textResponse('finished'),
    ]);
    const agent = new Agent({ deferredTools: true, model, tools: [echo, gated] });
    const paused = await agent.run('go');
    expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['bash:0']);

    const resumed = await agent.resume(paused.messages, {
      approvals: { 'bash:0': { approved: true } },
    });

    expect(resumed.output).toBe('finished');
    expect(model.lastRequest?.messages.at(-1)).toEqual({
      role: 'tool',
      content: 'ran after approval',
      toolCallId: 'bash:0',
      toolName: 'gated',
    });
  });
});

describe('ADV-9 repairing a corrupted or hand-built history', () => {
  const lookupCall = (id: string) => ({
    role: 'assistant' as const,
    toolCalls: [{ id, name: 'lookup', args: '{}' }],
  });
  const corrupted: Message[] = [
    { role: 'user', content: 'first' },
    { role: 'tool', content: 'evicted result', toolCallId: 'gone', toolName: 'lookup' },
    lookupCall('old-1'),
    { role: 'user', content: 'second' },
    { role: 'tool', content: 'too early', toolCallId: 'c9', toolName: 'lookup' },
    lookupCall('c9'),
    { role: 'tool', content: 'real c9', toolCallId: 'c9', toolName: 'lookup' },
    { role: 'assistant', content: 'answer' },
    { role: 'user', content: 'third' },
    { role: 'user', content: 'fourth' },
  ];
  const repaired: Message[] = [
    { role: 'user', content: 'first' },
    lookupCall('old-1'),
    { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'old-1', toolName: 'lookup' },
    { role: 'user', content: 'second' },
    lookupCall('c9'),
    { role: 'tool', content: 'real c9', toolCallId: 'c9', toolName: 'lookup' },
    { role: 'assistant', content: 'answer' },
    { role: 'user', content: 'third' },
    { role: 'user', content: 'fourth' },
  ];

  test('ADV-9 orphans and early results are dropped, the dangling older call gets an interrupted result, before sending', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model });

    const result = await agent.run('now', { history: corrupted });

    expect(model.lastRequest?.messages).toEqual([...repaired, { role: 'user', content: 'now' }]);
    expect(result.messages.slice(0, repaired.length)).toEqual(repaired);
  });

  test('ADV-9 consecutive user messages pass through unmerged (spec §17.2; merging is left to adapters)', () => {
    expect(repairHistory(corrupted).slice(-2)).toEqual([
      { role: 'user', content: 'third' },
      { role: 'user', content: 'fourth' },
    ]);
  });

  test('ADV-9 repair is idempotent: repairing twice gives identical output, and a repaired history is returned as is', () => {
    const once = repairHistory(corrupted);
    const twice = repairHistory(once);

    expect(twice).toEqual(once);
    expect(twice).toBe(once);
    expect(once).toEqual(repaired);
  });

  test('ADV-9 continuing from repaired evidence sends the same prefix again', async () => {
    const model = new ScriptedModel([textResponse('ok'), textResponse('ok again')]);
    const agent = new Agent({ model });
    const first = await agent.run('now', { history: corrupted });

    await agent.run('later', { history: first.messages });

    expect(model.lastRequest?.messages).toEqual([
      ...first.messages,
      { role: 'user', content: 'later' },
    ]);
  });

  test('ADV-9 calls in the last assistant message are left for resume: they get their resolution, not an interrupted result', async () => {
    const model = new ScriptedModel([textResponse('thanks')]);
    const agent = new Agent({ model });
    const paused: Message[] = [{ role: 'user', content: 'report' }, lookupCall('p1')];

    await agent.resume(paused, { external: { p1: 'the real report' } });

    expect(model.lastRequest?.messages).toEqual([
      ...paused,
      { role: 'tool', content: 'the real report', toolCallId: 'p1', toolName: 'lookup' },
    ]);
  });
});

describe('ADV-10 provider failure after side effects', () => {
  function chargeFixture(third: Error | Error[], maxAttempts = 1) {
    let charges = 0;
    const lookup = defineTool({
      name: 'lookup',
      schema: { type: 'object' },
      execute: () => 'balance 100',
    });
    const charge = defineTool({
      name: 'charge',
      schema: { type: 'object' },
      execute: () => {
        charges++;
        return 'charged 30';
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'l1', name: 'lookup' }], { inputTokens: 1, outputTokens: 1 }),
      toolCallResponse([{ id: 'ch1', name: 'charge', args: { amount: 30 } }], {
        inputTokens: 2,
        outputTokens: 1,
      }),
      ...(Array.isArray(third) ? third : [third]),
      textResponse('Charged once.'),
    ]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      tools: [lookup, charge],
      maxAttempts,
      sleep: () => Promise.resolve(),
      onEvent: (e) => events.push(e),
    });
    return { agent, model, events, charges: () => charges };
  }

  const evidence: Message[] = [
    { role: 'user', content: 'charge my card' },
    { role: 'assistant', toolCalls: [{ id: 'l1', name: 'lookup', args: '{}' }] },
    { role: 'tool', content: 'balance 100', toolCallId: 'l1', toolName: 'lookup' },
    { role: 'assistant', toolCalls: [{ id: 'ch1', name: 'charge', args: '{"amount":30}' }] },
    { role: 'tool', content: 'charged 30', toolCallId: 'ch1', toolName: 'charge' },
  ];

  test('ADV-10 a 500 on turn 3 fails at `model` with partial evidence including the side-effecting tool result', async () => {
    const failure = new ModelHTTPError({
      status: 500,
      provider: 'test',
      message: 'internal error',
    });
    const { agent, charges } = chargeFixture(failure);

    const error = await rejection(agent.run('charge my card'));

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('model');
    expect((error as RunError).cause).toBe(failure);
    const partial = (error as RunError).partial;
    expect(partial?.messages).toEqual(evidence);
    expect(partial?.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
    expect(partial?.requests).toBe(3);
    expect(partial?.toolCalls).toBe(2);
    expect(charges()).toBe(1);
  });

  test('ADV-10 continuing with history: partial.messages does not re-execute the tool or duplicate its result', async () => {
    const { agent, model, charges } = chargeFixture(
      new ModelHTTPError({ status: 500, provider: 'test' }),
    );
    const error = (await rejection(agent.run('charge my card'))) as RunError;
    const partial = error.partial;
    if (partial === undefined) throw new Error('expected partial evidence');

    const resumed = await agent.run('please finish', { history: partial.messages });

    expect(charges()).toBe(1);
    expect(model.lastRequest?.messages).toEqual([
      ...evidence,
      { role: 'user', content: 'please finish' },
    ]);
    expect(resumed.output).toBe('Charged once.');
    expect(resumed.messages.filter((m) => m.toolName === 'charge')).toHaveLength(1);
  });

  test('ADV-10 with retries exhausted the partial evidence counts every attempt and the cause stays reachable', async () => {
    const failures = [0, 1, 2].map(
      () => new ModelHTTPError({ status: 529, provider: 'test', message: 'overloaded' }),
    );
    const { agent, charges } = chargeFixture(failures, 3);

    const error = await rejection(agent.run('charge my card'));

    expect((error as RunError).stage).toBe('model');
    expect(AttemptsExhaustedError.is((error as RunError).cause)).toBe(true);
    expect([...errorChain(error)]).toContain(failures[2]);
    expect((error as RunError).partial?.messages).toEqual(evidence);
    expect((error as RunError).partial?.requests).toBe(5);
    expect(charges()).toBe(1);
  });

  test('ADV-10 observers see the failed attempt; an observer that throws does not mask the error', async () => {
    const failure = new ModelHTTPError({ status: 500, provider: 'test' });
    const { agent, events } = chargeFixture(failure);

    const error = await rejection(
      agent.run('charge my card', {
        observer: () => {
          throw new Error('observer bug');
        },
      }),
    );

    expect((error as RunError).cause).toBe(failure);
    expect(events.at(-1)).toEqual({
      kind: 'model_end',
      turn: 2,
      attempt: 1,
      usage: { inputTokens: 0, outputTokens: 0 },
      error: failure,
      model: 'scripted',
    });
  });
});
