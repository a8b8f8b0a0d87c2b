/**
 * A run with neither a caller's signal nor a deadline, where signals are costly to make (Node
 * before 22), creates its signal only when something reads it (issue 21): the engine checks
 * cancellation without it, and the model's call options, tool contexts, decoder and instructions
 * contexts carry `signal` as an own enumerable property read on first access. Where signals are
 * cheap (Node 22 and later) the run makes its own at once, one per run, and those contexts carry
 * it as a plain property (issue 35). These tests pin what must not change on either: every reader
 * gets a real, per-run signal; the caller's abort and the run deadline still reach tools and
 * models; a spread keeps it.
 */
import { getEventListeners } from 'node:events';
import {
  Agent,
  RunError,
  defineTool,
  isDeadlineExceeded,
  type GenerateOptions,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ToolContext,
} from 'golem';
import { textResponse, toolCallResponse } from 'golem/testing';
import { SIGNALS_ARE_COSTLY } from '../../../../src/core/engine/run-signal';

const schema = { type: 'object' } as const;

/** A model answering `turns` in order; it never reads its call options unless `onCall` does. */
function playing(
  turns: ModelResponse[],
  onCall?: (options: GenerateOptions | undefined, request: ModelRequest) => Promise<void> | void,
): Model {
  let next = 0;
  return {
    name: 'lazy-signal-test',
    async generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> {
      await onCall?.(options, request);
      const turn = turns[next++];
      if (turn === undefined) throw new Error('no more turns');
      return turn;
    },
  };
}

/** Counts the AbortControllers made while `body` runs (the engine resolves the global each time). */
async function countControllers(body: () => Promise<unknown>): Promise<number> {
  const Real = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends Real {
    constructor() {
      super();
      made++;
    }
  };
  try {
    await body();
  } finally {
    globalThis.AbortController = Real;
  }
  return made;
}

/** Resolves with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    signal.addEventListener(
      'abort',
      () => {
        resolve(signal.reason);
      },
      { once: true },
    );
  });
}

describe('a run that nothing can abort', () => {
  test('signals count as costly on Node before 22 only', () => {
    const major = Number.parseInt(process.versions.node, 10);
    expect(SIGNALS_ARE_COSTLY).toBe(major < 22);
  });

  test('a tool loop whose model and tools never read the signal makes no AbortController where signals are costly, else one', async () => {
    const add = defineTool({ name: 'add', schema, execute: () => '3' });
    const model = playing([
      toolCallResponse([{ id: 'c1', name: 'add', args: { a: 1, b: 2 } }]),
      textResponse('done'),
    ]);
    const agent = new Agent({ model, tools: [add], instructions: 'Add.' });
    const made = await countControllers(() => agent.run('go'));
    expect(made).toBe(SIGNALS_ARE_COSTLY ? 0 : 1);
  });

  test('every reader of one run sees the same real signal, and the next run gets its own', async () => {
    const seen: AbortSignal[] = [];
    const tool = defineTool({
      name: 'probe',
      schema,
      execute: (_args, ctx: ToolContext) => {
        seen.push(ctx.signal);
        ctx.signal.addEventListener('abort', () => undefined);
        return 'ok';
      },
    });
    const model = (): Model =>
      playing([toolCallResponse([{ id: 'c1', name: 'probe' }]), textResponse('done')], (o) => {
        if (o?.signal !== undefined) seen.push(o.signal);
      });
    const run = (m: Model) =>
      new Agent({
        model: m,
        tools: [tool],
        instructions: (ctx) => {
          seen.push(ctx.signal);
          return 'Probe.';
        },
        output: (response, ctx) => {
          seen.push(ctx.signal);
          return response.message.content ?? '';
        },
      }).run('go');

    await run(model());
    const first = seen.splice(0);
    await run(model());
    const second = seen.splice(0);

    expect(first).toHaveLength(5); // instructions, two model calls, the tool, the decoder
    for (const signal of first) expect(signal).toBe(first[0]);
    expect(first[0]).toBeInstanceOf(AbortSignal);
    expect(first[0]?.aborted).toBe(false);
    expect(second[0]).not.toBe(first[0]);
    // Listeners added in one run stay on that run's signal, never on a shared one.
    expect(getEventListeners(first[0] as AbortSignal, 'abort')).toHaveLength(1);
    expect(getEventListeners(second[0] as AbortSignal, 'abort')).toHaveLength(1);
  });

  test('the call options and the tool context keep the signal through a spread; assigning replaces it', async () => {
    let spreadSignal: AbortSignal | undefined;
    let toolSignal: AbortSignal | undefined;
    let reassigned: AbortSignal | undefined;
    let keys: string[] | undefined;
    const other = new AbortController().signal;
    const inner = playing([toolCallResponse([{ id: 'c1', name: 't' }]), textResponse('done')]);
    const wrapper: Model = {
      name: 'wrapper',
      generate(request, options) {
        const copy = { ...options };
        keys ??= Object.keys(options ?? {});
        spreadSignal ??= copy.signal;
        return inner.generate(request, copy);
      },
    };
    const tool = defineTool({
      name: 't',
      schema,
      execute: (_args, ctx: ToolContext) => {
        toolSignal = { ...ctx }.signal;
        const writable = ctx as { signal: AbortSignal };
        writable.signal = other;
        reassigned = ctx.signal;
        return 'ok';
      },
    });
    await new Agent({ model: wrapper, tools: [tool] }).run('go');
    expect(spreadSignal).toBeInstanceOf(AbortSignal);
    expect(toolSignal).toBe(spreadSignal);
    expect(reassigned).toBe(other);
    expect(keys).toContain('signal');
  });
});

describe('a run whose signal exists hands it out as a plain value', () => {
  test("the tool context and the call options carry the caller's signal as data", async () => {
    const caller = new AbortController().signal;
    let toolSignal: PropertyDescriptor | undefined;
    let callSignal: PropertyDescriptor | undefined;
    const tool = defineTool({
      name: 't',
      schema,
      execute: (_args, ctx: ToolContext) => {
        toolSignal = Object.getOwnPropertyDescriptor(ctx, 'signal');
        return 'ok';
      },
    });
    const model = playing(
      [toolCallResponse([{ id: 'c1', name: 't' }]), textResponse('done')],
      (o) => {
        callSignal ??= Object.getOwnPropertyDescriptor(o, 'signal');
      },
    );
    await new Agent({ model, tools: [tool] }).run('go', { signal: caller });
    expect(toolSignal).toMatchObject({ value: caller, enumerable: true, writable: true });
    expect(callSignal).toMatchObject({ value: caller, enumerable: true, writable: true });
  });
});

describe('the lazy path still cancels', () => {
  test("a tool reading ctx.signal sees the caller's abort", async () => {
    const controller = new AbortController();
    let reason: unknown;
    const waits = defineTool({
      name: 'waits',
      schema,
      execute: async (_args, ctx: ToolContext) => {
        const gone = aborted(ctx.signal);
        controller.abort(new Error('user left'));
        reason = await gone;
        return 'late';
      },
    });
    const model = playing([toolCallResponse([{ id: 'c1', name: 'waits' }]), textResponse('x')]);
    const run = new Agent({ model, tools: [waits] }).run('go', { signal: controller.signal });
    await expect(run).rejects.toThrow(RunError);
    expect(reason).toEqual(new Error('user left'));
  });

  test('a tool reading ctx.signal sees the run deadline', async () => {
    let reason: unknown;
    const waits = defineTool({
      name: 'waits',
      schema,
      execute: async (_args, ctx: ToolContext) => {
        reason = await aborted(ctx.signal);
        return 'late';
      },
    });
    const model = playing([toolCallResponse([{ id: 'c1', name: 'waits' }]), textResponse('x')]);
    const run = new Agent({ model, tools: [waits] }).run('go', { timeout: 20 });
    await expect(run).rejects.toThrow(RunError);
    expect(isDeadlineExceeded(reason)).toBe(true);
  });

  test("a model reading its signal gets one that aborts with the caller's reason", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const model = playing([textResponse('never')], async (options) => {
      seen = options?.signal;
      const gone = aborted(options?.signal as AbortSignal);
      controller.abort(new Error('stop'));
      throw await gone;
    });
    const run = new Agent({ model }).run('go', { signal: controller.signal });
    await expect(run).rejects.toThrow(RunError);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toEqual(new Error('stop'));
  });

  test('a model reading its signal under a run deadline sees it abort', async () => {
    const model = playing([textResponse('never')], async (options) => {
      throw await aborted(options?.signal as AbortSignal);
    });
    const error = await new Agent({ model }).run('go', { timeout: 20 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunError.is(error)).toBe(true);
    expect(isDeadlineExceeded((error as RunError).cause)).toBe(true);
  });
});
