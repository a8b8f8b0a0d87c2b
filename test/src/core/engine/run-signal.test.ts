import { getEventListeners } from 'node:events';
import { Agent, DeadlineExceededError, RunError, isDeadlineExceeded } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';

describe('the run signal is released when a run ends', () => {
  test('runs with a long-lived caller signal and a timeout leave no listener behind on it', async () => {
    const shutdown = new AbortController();
    const model = new ScriptedModel([textResponse('a'), textResponse('b'), textResponse('c')]);
    const agent = new Agent({ model, runTimeout: 60_000 });
    for (const prompt of ['one', 'two', 'three']) {
      await agent.run(prompt, { signal: shutdown.signal, timeout: 30_000 });
    }
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  test('a failed run releases its listener too', async () => {
    const shutdown = new AbortController();
    const agent = new Agent({ model: new ScriptedModel([new Error('down')]), runTimeout: 60_000 });
    await expect(agent.run('q', { signal: shutdown.signal })).rejects.toThrow(RunError);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  test('a run rejected at start (bad history) releases its listener', async () => {
    const shutdown = new AbortController();
    const agent = new Agent({ model: new ScriptedModel([]), runTimeout: 60_000 });
    const history = [{ role: 'robot' }] as unknown as [];
    await expect(agent.run('q', { signal: shutdown.signal, history })).rejects.toThrow(/role/);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  test('the deadline timers are cleared at the end of the run', async () => {
    const realClear = globalThis.clearTimeout;
    const cleared: unknown[] = [];
    const scheduled: unknown[] = [];
    const realSet = globalThis.setTimeout;
    const set = jest
      .spyOn(globalThis, 'setTimeout')
      .mockImplementation((handler: () => void, ms?: number) => {
        const id = realSet(handler, ms);
        if (ms === 45_000) scheduled.push(id);
        return id;
      });
    const clear = jest
      .spyOn(globalThis, 'clearTimeout')
      .mockImplementation((id?: Parameters<typeof clearTimeout>[0]) => {
        cleared.push(id);
        realClear(id);
      });
    try {
      await new Agent({ model: new ScriptedModel([textResponse('ok')]) }).run('q', {
        timeout: 45_000,
      });
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
    expect(scheduled).toHaveLength(1);
    expect(cleared).toContain(scheduled[0]);
  });

  test('the caller signal aborting mid-run still cancels it, with its reason in the chain', async () => {
    const caller = new AbortController();
    const reason = new Error('user left');
    const model = new ScriptedModel([
      (_request, { signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
          caller.abort(reason);
        }),
    ]);
    const error: unknown = await new Agent({ model, runTimeout: 60_000 })
      .run('q', { signal: caller.signal })
      .catch((e: unknown) => e);
    expect(RunError.is(error) && error.stage).toBe('model');
    expect((error as RunError).cause).toMatchObject({ cause: reason });
  });

  test('a run deadline aborts with DeadlineExceededError', async () => {
    const model = new ScriptedModel([
      (_request, { signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
        }),
    ]);
    const error: unknown = await new Agent({ model })
      .run('q', { timeout: 1 })
      .catch((e: unknown) => e);
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(DeadlineExceededError.is((error as RunError).cause)).toBe(true);
  });
});
