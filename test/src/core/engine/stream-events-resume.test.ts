/**
 * `agent.resumeStream`: the streaming twin of `agent.resume`, from an in-memory paused history or
 * a stored run's id, with typed events for the resolved calls and the continuation.
 */
import { Agent, ConfigError, RunError, defineTool, loadRun } from 'golem';
import type { RunStreamEvent } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import {
  FunctionModel,
  ScriptedModel,
  StreamFunctionModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import { StreamAbandonedError } from '../../../support/internal-errors';

const pay = defineTool({
  name: 'pay',
  description: 'Pay the invoice',
  schema: { type: 'object', properties: { amount: { type: 'number' } } },
  approval: true,
  execute: () => 'paid',
});

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

function brief(events: readonly RunStreamEvent<string>[]): string[] {
  return events.map((e) =>
    e.type === 'tool-result'
      ? `tool-result ${e.callId} ${e.toolName} ${e.result}`
      : e.type === 'text-delta'
        ? `text ${e.text}`
        : e.type,
  );
}

/** Asks to pay, then (once a tool result is in the history) streams the confirmation. */
function payModel(): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit) => {
    const last = request.messages[request.messages.length - 1];
    if (last?.role !== 'tool')
      return toolCallResponse([{ id: 'pay-1', name: 'pay', args: { amount: 5 } }]);
    await emit({ content: 'Done: ' });
    await emit({ content: last.content ?? '' });
    return textResponse(`Done: ${last.content ?? ''}`);
  });
}

describe('agent.resumeStream', () => {
  test('in memory: the approved call re-runs (tool-result), then the continuation streams', async () => {
    const agent = new Agent({ model: payModel(), tools: [pay], deferredTools: true });
    const paused = await agent.run('pay 5');
    expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['pay-1']);

    const stream = agent.resumeStream(paused.messages, {
      approvals: { 'pay-1': { approved: true } },
    });
    const events = await all(stream.events);
    const result = await stream.result;

    expect(brief(events)).toEqual([
      'tool-result pay-1 pay paid',
      'turn-start',
      'text Done: ',
      'text paid',
      'turn-end',
      'finish',
    ]);
    expect(result.output).toBe('Done: paid');
    expect(result.messages.filter((m) => m.toolCallId === 'pay-1')).toHaveLength(1);
  });

  test('a denial streams the continuation with the denial as the call result', async () => {
    const agent = new Agent({ model: payModel(), tools: [pay], deferredTools: true });
    const paused = await agent.run('pay 5');

    const stream = agent.resumeStream(paused.messages, {
      approvals: { 'pay-1': { approved: false, reason: 'over budget' } },
    });
    const texts = await all(stream.textStream);

    expect(texts[0]).toBe('Done: ');
    expect(texts.join('')).toContain('over budget');
    expect((await stream.result).output).toContain('over budget');
  });

  test('a stored run by id: resumed through the store, which records it completed', async () => {
    const store = memoryStore();
    const agent = new Agent({ model: payModel(), tools: [pay], store, deferredTools: true });
    const paused = await agent.run('pay 5');
    const runId = paused.runId ?? '';
    expect((await loadRun(store, runId)).status).toBe('paused');

    const stream = agent.resumeStream(runId, { approvals: { 'pay-1': { approved: true } } });
    const events = await all(stream.events);

    const last = events[events.length - 1];
    expect(last?.type === 'finish' && last.result.output).toBe('Done: paid');
    expect(last?.type === 'finish' && last.result.runId).toBe(runId);
    expect(brief(events)[0]).toBe('tool-result pay-1 pay paid');
    expect((await loadRun(store, runId)).status).toBe('completed');
  });

  test('a stored run that pauses again ends with deferred, then finish', async () => {
    const store = memoryStore();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'pay-1', name: 'pay' }]),
      toolCallResponse([{ id: 'pay-2', name: 'pay' }]),
    ]);
    const agent = new Agent({ model, tools: [pay], store, deferredTools: true });
    const paused = await agent.run('pay twice');

    const stream = agent.resumeStream(paused.runId ?? '', {
      approvals: { 'pay-1': { approved: true } },
    });
    const events = await all(stream.events);

    expect(events.map((e) => e.type).slice(-2)).toEqual(['deferred', 'finish']);
    const deferred = events[events.length - 2];
    expect(deferred?.type === 'deferred' && deferred.pending.approvals[0]?.callId).toBe('pay-2');
    expect((await stream.result).pending?.approvals).toHaveLength(1);
  });

  test('invalid resolutions reject the events iteration and result before any model call', async () => {
    const model = payModel();
    const agent = new Agent({ model, tools: [pay], deferredTools: true });
    const paused = await agent.run('pay 5');

    const stream = agent.resumeStream(paused.messages, { approvals: { nope: { approved: true } } });
    const thrown = await rejection(all(stream.events));

    expect(thrown).toBe(await rejection(stream.result));
    expect(RunError.is(thrown)).toBe(false);
    expect(model.calls).toBe(1);
  });

  test('a model that cannot stream is refused with ConfigError', async () => {
    const agent = new Agent({
      model: new FunctionModel(() => toolCallResponse([{ id: 'pay-1', name: 'pay' }])),
      tools: [pay],
      deferredTools: true,
    });
    const paused = await agent.run('pay 5');

    const stream = agent.resumeStream(paused.messages, {
      approvals: { 'pay-1': { approved: true } },
    });

    expect(ConfigError.is(await rejection(all(stream.events)))).toBe(true);
    expect(ConfigError.is(await rejection(stream.result))).toBe(true);
  });

  test('breaking the reader aborts the resumed run; the model sees it', async () => {
    let reason: unknown;
    const model = new StreamFunctionModel(async (request, emit, options) => {
      if (request.messages[request.messages.length - 1]?.role !== 'tool')
        return toolCallResponse([{ id: 'pay-1', name: 'pay' }]);
      await emit({ content: 'working' });
      reason = await new Promise((resolve) => {
        const signal = options.signal;
        if (signal?.aborted === true) resolve(signal.reason);
        signal?.addEventListener('abort', () => {
          resolve(signal.reason);
        });
      });
      throw reason;
    });
    const agent = new Agent({ model, tools: [pay], deferredTools: true });
    const paused = await agent.run('pay');
    const stream = agent.resumeStream(paused.messages, {
      approvals: { 'pay-1': { approved: true } },
    });

    for await (const text of stream.textStream) if (text === 'working') break;

    const error = await rejection(stream.result);
    expect(StreamAbandonedError.is(reason)).toBe(true);
    expect(RunError.is(error) && error.partial?.interrupted?.content).toBe('working');
  });
});
