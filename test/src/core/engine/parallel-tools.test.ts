import {
  Agent,
  CancelledError,
  DeadlineExceededError,
  ModelRetry,
  RunError,
  ToolError,
  defineTool,
  errorChain,
  findError,
  isCancellation,
  isDeadlineExceeded,
  type Message,
  type RunEvent,
  type Tool,
} from 'golem';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

// Spec §14 (parallel tool execution) and adversarial cases 6 (abort mid-tool) and 7 (mixed
// outcomes). Concurrency is proven with latches, never with timing.

async function runFailure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

/** Opens once `count` parties arrived; a party whose signal aborts first fails (serial execution). */
function latch(count: number): { arrive: (signal: AbortSignal) => Promise<void> } {
  let arrived = 0;
  const opened = deferred();
  return {
    arrive: (signal) => {
      arrived += 1;
      if (arrived === count) opened.resolve();
      const stuck = untilAborted(signal).then(() => {
        throw new Error('latch never opened: the tools did not run concurrently');
      });
      return Promise.race([opened.promise, stuck]);
    },
  };
}

const yieldMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function tool(
  name: string,
  execute: Tool['execute'],
  extra: { sequential?: boolean; timeout?: number } = {},
): Tool {
  return defineTool({ name, schema: { type: 'object' }, execute, ...extra });
}

/** Tools that log start/end and yield in between, optionally meeting at a latch. */
function loggingTools(
  log: string[],
  names: string[],
  meet?: { arrive: (signal: AbortSignal) => Promise<void> },
): Tool[] {
  return names.map((name) =>
    tool(name, async (_args, ctx) => {
      log.push(`start ${name}`);
      if (meet === undefined) await yieldMacrotask();
      else await meet.arrive(ctx.signal);
      log.push(`end ${name}`);
      return `${name} result`;
    }),
  );
}

const calls = (...names: string[]) => names.map((name, i) => ({ id: `call-${i + 1}`, name }));

/** Every call has exactly one result directly after its assistant message; no orphan results. */
function expectStrictPairing(messages: readonly Message[]): void {
  let open: Map<string, number> | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      expect(open?.has(message.toolCallId ?? '')).toBe(true);
      open?.set(message.toolCallId ?? '', (open.get(message.toolCallId ?? '') ?? 0) + 1);
      continue;
    }
    if (open !== undefined) expect([...open.values()].every((n) => n === 1)).toBe(true);
    open =
      message.role === 'assistant' && (message.toolCalls ?? []).length > 0
        ? new Map(message.toolCalls?.map((c) => [c.id, 0]))
        : undefined;
  }
  if (open !== undefined) expect([...open.values()].every((n) => n === 1)).toBe(true);
}

describe('parallel tool execution (spec §14)', () => {
  test('PT-1 two tools that each block until both have started complete: results in emission order', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([
      toolCallResponse(calls('one', 'two')),
      textResponse('both done'),
    ]);
    const agent = new Agent({
      model,
      tools: loggingTools(log, ['one', 'two'], latch(2)),
      parallelToolCalls: true,
      toolTimeout: 2_000,
    });

    const result = await agent.run('go');

    expect(result.output).toBe('both done');
    expect(result.messages[2]).toEqual({
      role: 'tool',
      content: 'one result',
      toolCallId: 'call-1',
      toolName: 'one',
    });
    expect(result.messages[3]).toEqual({
      role: 'tool',
      content: 'two result',
      toolCallId: 'call-2',
      toolName: 'two',
    });
    expect(log.slice(0, 2)).toEqual(['start one', 'start two']);
    expect(result.toolCalls).toBe(2);
  });

  test('PT-2 when the second call finishes first, result messages stay in emission order', async () => {
    const completed: string[] = [];
    const secondDone = deferred();
    const slow = tool('slow', async () => {
      await secondDone.promise;
      completed.push('slow');
      return 'slow result';
    });
    const fast = tool('fast', () => {
      completed.push('fast');
      secondDone.resolve();
      return 'fast result';
    });
    const model = new ScriptedModel([toolCallResponse(calls('slow', 'fast')), textResponse('ok')]);
    const agent = new Agent({ model, tools: [slow, fast], parallelToolCalls: true });

    await agent.run('go');

    expect(completed).toEqual(['fast', 'slow']);
    expect(model.requests[1]?.messages.slice(2)).toEqual([
      { role: 'tool', content: 'slow result', toolCallId: 'call-1', toolName: 'slow' },
      { role: 'tool', content: 'fast result', toolCallId: 'call-2', toolName: 'fast' },
    ]);
  });

  test('PT-3 a concurrent group emits every tool_start, then every tool_end, both in emission order', async () => {
    const events: string[] = [];
    const firstMayEnd = deferred();
    const c1 = tool('c1', async () => {
      await firstMayEnd.promise;
      return 'r1';
    });
    const c2 = tool('c2', () => {
      firstMayEnd.resolve();
      return 'r2';
    });
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'c1' },
        { id: 'c2', name: 'c2' },
      ]),
      textResponse('ok'),
    ]);
    const agent = new Agent({
      model,
      tools: [c1, c2],
      parallelToolCalls: true,
      onEvent: (e) =>
        events.push(
          `${e.kind} t${'turn' in e ? e.turn : ''}${'callId' in e ? ` ${e.callId}` : ''}`,
        ),
    });

    await agent.run('go');

    expect(events).toEqual([
      'model_start t0',
      'model_end t0',
      'tool_start t0 c1',
      'tool_start t0 c2',
      'tool_end t0 c1',
      'tool_end t0 c2',
      'model_start t1',
      'model_end t1',
    ]);
  });

  test('PT-4 batch [a, b, S(sequential), c, d]: a‖b finish before S starts, S runs alone, c‖d start after S ends', async () => {
    const log: string[] = [];
    const [a, b] = loggingTools(log, ['a', 'b'], latch(2));
    const [c, d] = loggingTools(log, ['c', 'd'], latch(2));
    const s = tool(
      'S',
      async () => {
        log.push('start S');
        await yieldMacrotask();
        log.push('end S');
        return 'S result';
      },
      { sequential: true },
    );
    const model = new ScriptedModel([
      toolCallResponse(calls('a', 'b', 'S', 'c', 'd')),
      textResponse('ok'),
    ]);
    const agent = new Agent({
      model,
      tools: [a!, b!, s, c!, d!],
      parallelToolCalls: true,
      toolTimeout: 2_000,
    });

    const result = await agent.run('go');

    expect(log.slice(0, 2).sort()).toEqual(['start a', 'start b']);
    expect(log.slice(2, 4).sort()).toEqual(['end a', 'end b']);
    expect(log.slice(4, 6)).toEqual(['start S', 'end S']);
    expect(log.slice(6, 8).sort()).toEqual(['start c', 'start d']);
    expect(log.slice(8, 10).sort()).toEqual(['end c', 'end d']);
    expect(log).toHaveLength(10);
    expect(result.messages.slice(2, 7).map((m) => m.toolCallId)).toEqual([
      'call-1',
      'call-2',
      'call-3',
      'call-4',
      'call-5',
    ]);
  });

  test('PT-5 with parallel execution disabled (the default), executions are strictly serial', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([toolCallResponse(calls('a', 'b', 'c')), textResponse('ok')]);
    const agent = new Agent({ model, tools: loggingTools(log, ['a', 'b', 'c']) });

    const result = await agent.run('go');

    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(result.messages.slice(2, 5).map((m) => m.content)).toEqual([
      'a result',
      'b result',
      'c result',
    ]);
  });
});

describe('ADV-6 abort mid-tool', () => {
  test('ADV-6 aborting the run while B of parallel A (done) and B (running) executes: B sees the abort, the run fails at the tool stage, and its partial history resumes with exactly one result per call', async () => {
    const controller = new AbortController();
    const stop = new Error('user pressed stop');
    const aDone = deferred();
    const bStarted = deferred();
    const seenByB: { aborted: boolean; reason: unknown }[] = [];
    const toolA = tool('tool_a', () => {
      aDone.resolve();
      return 'A result';
    });
    const toolB = tool('tool_b', async (_args, ctx) => {
      bStarted.resolve();
      await untilAborted(ctx.signal);
      seenByB.push({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
      return 'B too late';
    });
    const model = new ScriptedModel([
      toolCallResponse(
        [
          { id: 'call-a', name: 'tool_a' },
          { id: 'call-b', name: 'tool_b' },
        ],
        { inputTokens: 5, outputTokens: 2 },
      ),
      textResponse('resumed'),
    ]);
    const agent = new Agent({ model, tools: [toolA, toolB], parallelToolCalls: true });

    const running = agent.run('do both', { signal: controller.signal });
    await Promise.all([aDone.promise, bStarted.promise]);
    controller.abort(stop);
    const error = await runFailure(running);

    expect(seenByB).toEqual([{ aborted: true, reason: stop }]);
    expect(error.stage).toBe('tool');
    expect(isCancellation(error)).toBe(true);
    expect(findError(error, CancelledError.is)).toBeDefined();
    expect([...errorChain(error)]).toContain(stop);
    expect(findError(error, ToolError.is)?.callId).toBe('call-b');
    const partial = error.partial!;
    expect(partial.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(partial.messages.at(-1)?.toolCalls?.map((c) => c.id)).toEqual(['call-a', 'call-b']);
    expect(partial.toolCalls).toBe(2);

    const resumed = await agent.run('carry on', { history: partial.messages });

    const sent = model.requests[1]?.messages ?? [];
    expect(sent).toEqual([
      { role: 'user', content: 'do both' },
      {
        role: 'assistant',
        toolCalls: [
          { id: 'call-a', name: 'tool_a', args: '{}' },
          { id: 'call-b', name: 'tool_b', args: '{}' },
        ],
      },
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'call-a', toolName: 'tool_a' },
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'call-b', toolName: 'tool_b' },
      { role: 'user', content: 'carry on' },
    ]);
    expectStrictPairing(sent);
    expect(resumed.output).toBe('resumed');
  });
});

describe('ADV-7 parallel tools with mixed outcomes', () => {
  const orders = [
    ['boom', 'slow', 'ok'],
    ['boom', 'ok', 'slow'],
    ['slow', 'boom', 'ok'],
    ['slow', 'ok', 'boom'],
    ['ok', 'boom', 'slow'],
    ['ok', 'slow', 'boom'],
  ];

  test.each(orders)(
    'ADV-7 throw/timeout/success resolved as slow, ok, boom with emission order [%s, %s, %s]: one start and one end per call; the run fails at the first terminal outcome in emission order',
    async (...order: string[]) => {
      const boomError = new Error('boom exploded');
      const completed: string[] = [];
      const events: RunEvent[] = [];
      const slowAborted = deferred();
      const okDone = deferred();
      const boom = tool('boom', async () => {
        await okDone.promise;
        completed.push('boom');
        throw boomError;
      });
      const slow = tool(
        'slow',
        async (_args, ctx) => {
          await untilAborted(ctx.signal);
          completed.push('slow');
          slowAborted.resolve();
          ctx.signal.throwIfAborted();
          return 'unreachable';
        },
        { timeout: 1 },
      );
      const ok = tool('ok', async () => {
        await slowAborted.promise;
        completed.push('ok');
        okDone.resolve();
        return 'ok result';
      });
      const model = new ScriptedModel([toolCallResponse(calls(...order)), textResponse('never')]);
      const agent = new Agent({
        model,
        tools: [boom, slow, ok],
        parallelToolCalls: true,
        onEvent: (e) => events.push(e),
      });

      const error = await runFailure(agent.run('go'));

      expect(completed).toEqual(['slow', 'ok', 'boom']);
      const ids = calls(...order).map((c) => c.id);
      expect(events.filter((e) => e.kind === 'tool_start').map((e) => e.callId)).toEqual(ids);
      expect(events.filter((e) => e.kind === 'tool_end').map((e) => e.callId)).toEqual(ids);
      const terminal = order.find((name) => name !== 'ok');
      const toolError = findError(error, ToolError.is);
      expect(error.stage).toBe('tool');
      expect(toolError?.toolName).toBe(terminal);
      expect(toolError?.callId).toBe(`call-${order.indexOf(terminal ?? '') + 1}`);
      if (terminal === 'boom') {
        expect([...errorChain(error)]).toContain(boomError);
        expect(isDeadlineExceeded(error)).toBe(false);
      } else {
        expect(findError(error, DeadlineExceededError.is)).toBeDefined();
        expect([...errorChain(error)]).not.toContain(boomError);
      }
      expect(error.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(error.partial?.toolCalls).toBe(3);
      expect(model.calls).toBe(1);
    },
  );

  test.each(orders.map((o) => o.map((n) => ({ boom: 'fix_a', slow: 'fix_b', ok: 'ok' })[n] ?? n)))(
    'ADV-7 with toolRetries and ModelRetry rejections resolved as fix_b, ok, fix_a with emission order [%s, %s, %s]: exactly one result per call id, in call order',
    async (...order: string[]) => {
      const events: RunEvent[] = [];
      const completed: string[] = [];
      const bRejected = deferred();
      const okDone = deferred();
      const fixA = tool('fix_a', async () => {
        await okDone.promise;
        completed.push('fix_a');
        throw new ModelRetry('a needs x');
      });
      const fixB = tool('fix_b', async () => {
        await yieldMacrotask();
        completed.push('fix_b');
        bRejected.resolve();
        throw new ModelRetry('b needs y');
      });
      const ok = tool('ok', async () => {
        await bRejected.promise;
        completed.push('ok');
        okDone.resolve();
        return 'ok result';
      });
      const model = new ScriptedModel([
        toolCallResponse(calls(...order)),
        textResponse('corrected'),
      ]);
      const agent = new Agent({
        model,
        tools: [fixA, fixB, ok],
        parallelToolCalls: true,
        toolRetries: 1,
        onEvent: (e) => events.push(e),
      });

      const result = await agent.run('go');

      expect(completed).toEqual(['fix_b', 'ok', 'fix_a']);
      const content: Record<string, string> = {
        fix_a:
          'Your tool call was rejected: a needs x. Correct the arguments and call the tool again.',
        fix_b:
          'Your tool call was rejected: b needs y. Correct the arguments and call the tool again.',
        ok: 'ok result',
      };
      const expected = calls(...order).map((c) => ({
        role: 'tool',
        content: content[c.name],
        toolCallId: c.id,
        toolName: c.name,
      }));
      expect(model.requests[1]?.messages.slice(2)).toEqual(expected);
      expect(result.messages.slice(2, 5)).toEqual(expected);
      expect(result.output).toBe('corrected');
      const ids = calls(...order).map((c) => c.id);
      expect(events.filter((e) => e.kind === 'tool_start').map((e) => e.callId)).toEqual(ids);
      expect(events.filter((e) => e.kind === 'tool_end').map((e) => e.callId)).toEqual(ids);
      expectStrictPairing(result.messages);
    },
  );
});
