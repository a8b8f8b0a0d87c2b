import { Agent, defineTool } from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { histogram, otelHarness, type OtelHarness } from './harness';

// One instrumentation shared by several agents and runs: golem/otel builds each kind of span's
// starting attributes once per agent, model and tool; no run's attributes leak into another's.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

/** The spans of one operation (`invoke_agent`, `chat`, `execute_tool`), in start order. */
function operation(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans
    .filter((s) => s.attributes['gen_ai.operation.name'] === name)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
}

const lookup = (description: string) =>
  defineTool({ name: 'lookup', description, schema: { type: 'object' }, execute: () => 'found' });

const toolThenText = () =>
  new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'lookup', args: {} }]),
    textResponse('done', { inputTokens: 3, outputTokens: 1 }),
  ]);

test('agents, runs and tools sharing one instrumentation keep their own attributes', async () => {
  const instrumentation = otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
    attributes: { 'deployment.environment.name': 'test' },
  });
  const a = new Agent({
    name: 'a',
    model: toolThenText(),
    tools: [lookup('Looks up A')],
    instrumentation,
  });
  const b = new Agent({
    name: 'b',
    model: toolThenText(),
    tools: [lookup('Looks up B')],
    instrumentation,
  });
  await a.run('one');
  await b.run('two');
  const runs = operation(otel.spans(), 'invoke_agent');
  expect(runs.map((s) => s.name)).toEqual(['invoke_agent a', 'invoke_agent b']);
  for (const [span, agent] of [
    [runs[0], 'a'],
    [runs[1], 'b'],
  ] as const) {
    expect(span?.attributes).toMatchObject({
      'deployment.environment.name': 'test',
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': agent,
      'gen_ai.output.type': 'text',
    });
    expect(span?.attributes['gen_ai.conversation.id']).toBeUndefined();
    expect(span?.attributes['golem.stream']).toBeUndefined();
  }
  expect(operation(otel.spans(), 'execute_tool').map((s) => s.attributes)).toEqual([
    {
      'deployment.environment.name': 'test',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Looks up A',
      'gen_ai.tool.call.id': 'c1',
      'golem.turn': 0,
    },
    {
      'deployment.environment.name': 'test',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Looks up B',
      'gen_ai.tool.call.id': 'c1',
      'golem.turn': 0,
    },
  ]);
  const chats = operation(otel.spans(), 'chat');
  expect(chats).toHaveLength(4);
  expect(
    chats.map((s) => [s.attributes['golem.turn'], s.attributes['gen_ai.usage.input_tokens']]),
  ).toEqual([
    [0, 0],
    [1, 3],
    [0, 0],
    [1, 3],
  ]);
  // Four model calls, every one counted; input and output tokens apart.
  const tokens = await histogram(otel.reader, 'gen_ai.client.token.usage');
  expect(tokens.map((p) => [p.attributes['gen_ai.token.type'], p.value.count])).toEqual([
    ['input', 4],
    ['output', 4],
  ]);
});

test('a run with a conversation id or streaming gets those attributes; the next run does not', async () => {
  const instrumentation = otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    metrics: false,
  });
  const agent = new Agent({
    name: 'chat',
    model: new ScriptedModel([textResponse('1'), textResponse('2'), textResponse('3')]),
    instrumentation,
  });
  const stream = agent.runStream('streamed');
  const deltas: string[] = [];
  for await (const delta of stream) if (delta.content !== undefined) deltas.push(delta.content);
  await stream.result;
  expect(deltas).toEqual(['1']);
  await agent.run('plain');
  await agent.run('plain again');
  const runs = operation(otel.spans(), 'invoke_agent').map((s) => s.attributes);
  expect(runs[0]?.['golem.stream']).toBe(true);
  expect(runs[1]?.['golem.stream']).toBeUndefined();
  expect(runs[2]).toEqual(runs[1]);
  const chats = operation(otel.spans(), 'chat').map((s) => s.attributes);
  expect(chats[0]?.['golem.stream']).toBe(true);
  expect(chats[1]?.['golem.stream']).toBeUndefined();
});
