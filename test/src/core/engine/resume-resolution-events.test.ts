/**
 * Resuming with deferred results: every pending call's resolution is observable, in order, before
 * the next turn — approved re-runs as `tool_start`/`tool_end`, denials and external results as
 * `tool_resolved` (run events) and `tool-result` with `resolution` (typed stream events).
 */
import { Agent, deferExternal, defineTool } from 'golem';
import type { RunEvent, RunStreamEvent } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

const pay = defineTool({
  name: 'pay',
  description: 'Pay an invoice',
  schema: { type: 'object', properties: { amount: { type: 'number' } } },
  approval: true,
  execute: (args) => `paid ${(args as { amount: number }).amount}`,
});
const report = defineTool({
  name: 'fetch_report',
  description: 'Produced by a batch job',
  schema: { type: 'object' },
  execute: () => {
    throw deferExternal('the batch job answers');
  },
});

const DENIAL =
  'Your tool call was denied: over budget. Do not call it again; continue without its result.';

/** One turn with three calls (external, approval, approval); then an answer listing the results. */
function model(): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit) => {
    const results = request.messages.filter((m) => m.role === 'tool');
    if (results.length === 0)
      return toolCallResponse([
        { id: 'r1', name: 'fetch_report' },
        { id: 'p1', name: 'pay', args: { amount: 5 } },
        { id: 'p2', name: 'pay', args: { amount: 900 } },
      ]);
    await emit({ content: 'done' });
    return textResponse('done');
  });
}

async function paused(observer?: (e: RunEvent) => void) {
  const agent = new Agent({
    model: model(),
    tools: [pay, report],
    deferredTools: true,
    ...(observer === undefined ? {} : { onEvent: observer }),
  });
  const result = await agent.run('settle up');
  expect(result.pending?.approvals.map((p) => p.callId)).toEqual(['p1', 'p2']);
  expect(result.pending?.external.map((p) => p.callId)).toEqual(['r1']);
  return { agent, result };
}

const RESOLUTIONS = {
  approvals: { p1: { approved: true }, p2: { approved: false, reason: 'over budget' } },
  external: { r1: 'Q3: 12 invoices' },
};

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('resume: resolution events', () => {
  test('resumeStream emits a tool-result per resolution, in emission order, before the next turn', async () => {
    const { agent, result } = await paused();

    const stream = agent.resumeStream(result.messages, RESOLUTIONS);
    const events = await all(stream.events);

    const toolResults = events.filter(
      (e): e is Extract<RunStreamEvent<string>, { type: 'tool-result' }> =>
        e.type === 'tool-result',
    );
    expect(toolResults).toEqual([
      {
        type: 'tool-result',
        turn: 0,
        callId: 'r1',
        toolName: 'fetch_report',
        result: 'Q3: 12 invoices',
        resolution: 'external',
      },
      { type: 'tool-result', turn: 0, callId: 'p1', toolName: 'pay', result: 'paid 5' },
      {
        type: 'tool-result',
        turn: 0,
        callId: 'p2',
        toolName: 'pay',
        result: DENIAL,
        resolution: 'denied',
      },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'tool-result',
      'tool-result',
      'tool-result',
      'turn-start',
      'text-delta',
      'turn-end',
      'finish',
    ]);
    expect((await stream.result).output).toBe('done');
  });

  test('a resume that runs no tool still streams a tool-result for every call', async () => {
    const { agent, result } = await paused();

    const stream = agent.resumeStream(result.messages, {
      approvals: { p1: { approved: false }, p2: { approved: false, reason: 'over budget' } },
      external: { r1: '' },
    });
    const events = await all(stream.events);

    expect(
      events
        .filter((e) => e.type === 'tool-result')
        .map((e) => `${e.callId} ${e.resolution ?? 'ran'}`),
    ).toEqual(['r1 external', 'p1 denied', 'p2 denied']);
  });

  test('observers get tool_resolved (no tool_start, not counted as a tool call)', async () => {
    const events: RunEvent[] = [];
    const { agent, result } = await paused((e) => events.push(e));
    events.length = 0;

    const resumed = await agent.resume(result.messages, RESOLUTIONS);

    expect(events.filter((e) => 'callId' in e)).toEqual([
      {
        kind: 'tool_resolved',
        turn: 0,
        callId: 'r1',
        toolName: 'fetch_report',
        args: '{}',
        result: 'Q3: 12 invoices',
        resolution: 'external',
      },
      {
        kind: 'tool_start',
        turn: 0,
        callId: 'p1',
        toolName: 'pay',
        args: '{"amount":5}',
      },
      {
        kind: 'tool_end',
        turn: 0,
        callId: 'p1',
        toolName: 'pay',
        args: '{"amount":5}',
        result: 'paid 5',
      },
      {
        kind: 'tool_resolved',
        turn: 0,
        callId: 'p2',
        toolName: 'pay',
        args: '{"amount":900}',
        result: DENIAL,
        resolution: 'denied',
      },
    ]);
    expect(events.map((e) => e.kind).slice(-2)).toEqual(['model_start', 'model_end']);
    expect(resumed.toolCalls).toBe(1);
  });
});
