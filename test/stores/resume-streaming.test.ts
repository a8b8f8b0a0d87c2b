/**
 * Resumed segments stream too: `resume(runId, results, { onDelta })` and `resumeRun(runId, {
 * onDelta })` deliver the continued run's model fragments (what a queue worker publishes after an
 * approval or a recovery); a model that cannot stream is refused before the run is touched.
 */
import { Agent, ConfigError, defineTool, loadRun } from 'golem';
import type { Delta } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { FunctionModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

const pay = defineTool({
  name: 'pay',
  description: 'Pay',
  schema: { type: 'object', properties: {} },
  approval: true,
  execute: () => 'paid',
});

function streaming(): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool'))
      return toolCallResponse([{ id: 'p1', name: 'pay', args: {} }]);
    await emit({ content: 'Done, ' });
    await emit({ content: 'paid.' });
    return textResponse('Done, paid.');
  });
}

test('resume(runId, results, { onDelta }) streams the resumed segment', async () => {
  const store = memoryStore();
  const agent = new Agent({ model: streaming(), tools: [pay], store, deferredTools: true });
  expect(agent.streaming).toBe(true);
  const paused = await agent.run('pay');
  const deltas: Delta[] = [];
  const done = await agent.resume(
    paused.runId ?? '',
    { approvals: { p1: { approved: true } } },
    {
      onDelta: (d) => {
        deltas.push(d);
      },
    },
  );
  expect(done.output).toBe('Done, paid.');
  expect(deltas.map((d) => d.content).join('')).toBe('Done, paid.');
});

test('resumeRun(runId, { onDelta }) streams the continued run', async () => {
  let now = 0;
  const store = memoryStore({ clock: () => now, leaseMs: 1_000 });
  const agent = new Agent({ model: streaming(), tools: [pay], store, deferredTools: true });
  const paused = await agent.run('pay');
  // Approved, then "the process died" before the result: the stored run is failed, so continue it.
  const failing = new Agent({
    model: new FunctionModel(() => {
      throw new Error('provider down');
    }),
    tools: [pay],
    store,
    deferredTools: true,
  });
  await expect(
    failing.resume(paused.runId ?? '', { approvals: { p1: { approved: true } } }),
  ).rejects.toMatchObject({ stage: 'model' });
  now = 10_000;
  const deltas: string[] = [];
  const done = await agent.resumeRun(paused.runId ?? '', {
    onDelta: (d) => {
      deltas.push(d.content ?? '');
    },
  });
  expect(done.output).toBe('Done, paid.');
  expect(deltas.join('')).toBe('Done, paid.');
});

test('onDelta with a model that cannot stream is a ConfigError, and the run is left as it was', async () => {
  const store = memoryStore();
  const model = new FunctionModel((r) =>
    r.messages.some((m) => m.role === 'tool')
      ? textResponse('ok')
      : toolCallResponse([{ id: 'p1', name: 'pay', args: {} }]),
  );
  const agent = new Agent({ model, tools: [pay], store, deferredTools: true });
  expect(agent.streaming).toBe(false);
  const paused = await agent.run('pay');
  const runId = paused.runId ?? '';
  const before = await loadRun(store, runId);
  for (const attempt of [
    () =>
      agent.resume(runId, { approvals: { p1: { approved: true } } }, { onDelta: () => undefined }),
    () => agent.resumeRun(runId, { onDelta: () => undefined }),
  ]) {
    const error: unknown = await attempt().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ConfigError.is(error)).toBe(true);
  }
  expect(await loadRun(store, runId)).toEqual(before);
});
