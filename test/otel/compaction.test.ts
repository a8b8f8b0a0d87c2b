import { SpanKind, trace } from '@opentelemetry/api';
import { Agent, type Message, type ModelResponse } from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { FunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';

// Compactions as spans with the real SDK: `compaction {policy}` around a policy's work (the
// summariser runs inside it), and a provider's compaction as an event on the run span.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

function instrumentation() {
  return otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
  });
}

function history(): Message[] {
  return [
    { role: 'user', content: 'Question 1?' },
    { role: 'assistant', toolCalls: [{ id: 'h1', name: 'lookup', args: '{}' }] },
    { role: 'tool', toolCallId: 'h1', toolName: 'lookup', content: 'data '.repeat(400) },
    { role: 'assistant', content: 'Answer 1.' },
  ];
}

test('summarise: a compaction span, child of the run span, around the summariser call', async () => {
  let activeInSummariser: string | undefined;
  const cheap = new FunctionModel(() => {
    activeInSummariser = trace.getActiveSpan()?.spanContext().spanId;
    return textResponse('They asked one question.', { inputTokens: 300, outputTokens: 20 });
  });
  const agent = new Agent({
    name: 'assistant',
    model: new ScriptedModel([textResponse('Fine.')], { name: 'openai:gpt-4o-mini' }),
    instrumentation: instrumentation(),
    compaction: {
      maxTokens: 200,
      keep: { turns: 1 },
      policies: ['summarise'],
      summary: { model: cheap },
    },
  });
  const result = await agent.run('And now?', { history: history() });
  const spans = otel.spans();
  expect(spanTree(spans)).toBe(
    ['invoke_agent assistant', '  compaction summarise', '  chat gpt-4o-mini'].join('\n'),
  );
  const [span] = named(spans, 'compaction summarise');
  const record = result.compactions?.[0];
  expect(span?.kind).toBe(SpanKind.INTERNAL);
  expect(span?.attributes).toEqual({
    'golem.compaction.policy': 'summarise',
    'golem.turn': 0,
    'golem.compaction.from': 0,
    'golem.compaction.to': 4,
    'golem.compaction.tokens_before': record?.tokensBefore,
    'golem.compaction.tokens_after': record?.tokensAfter,
    'gen_ai.usage.input_tokens': 300,
    'gen_ai.usage.output_tokens': 20,
  });
  // What the summariser does (an instrumented HTTP call, say) is parented by the compaction span.
  expect(activeInSummariser).toBe(span?.spanContext().spanId);
  const [chat] = named(spans, 'chat gpt-4o-mini');
  expect(chat?.attributes['golem.context.tokens']).toBe(record?.tokensAfter);
});

test('a summariser failure is recorded on the compaction span', async () => {
  const failing = new FunctionModel(() => {
    throw new TypeError('summariser down');
  });
  const agent = new Agent({
    name: 'assistant',
    model: new ScriptedModel([textResponse('Fine.')]),
    instrumentation: instrumentation(),
    compaction: {
      maxTokens: 200,
      keep: { turns: 1 },
      policies: ['summarise'],
      summary: { model: failing },
    },
  });
  await expect(agent.run('And now?', { history: history() })).rejects.toThrow('summariser down');
  const [span] = named(otel.spans(), 'compaction summarise');
  expect(span?.attributes['error.type']).toBe('TypeError');
  expect(span?.events.map((e) => e.name)).toEqual(['exception']);
});

test('provider: a compaction event on the run span', async () => {
  const edited: ModelResponse = {
    ...textResponse('Fine.', { inputTokens: 800, outputTokens: 5 }),
    contextEdits: [
      { kind: 'cleared-tool-uses', type: 'clear_tool_uses_20250919', clearedToolUses: 1 },
    ],
  };
  const agent = new Agent({
    name: 'assistant',
    model: new ScriptedModel([edited]),
    instrumentation: instrumentation(),
    compaction: { maxTokens: 5000, policies: ['provider'] },
  });
  const result = await agent.run('And now?', { history: history() });
  const spans = otel.spans();
  expect(spans.some((s) => s.name.startsWith('compaction'))).toBe(false);
  const [run] = named(spans, 'invoke_agent assistant');
  const record = result.compactions?.[0];
  expect(run?.events.filter((e) => e.name === 'golem.compaction').map((e) => e.attributes)).toEqual(
    [
      {
        'golem.compaction.policy': 'provider',
        'golem.compaction.from': 0,
        'golem.compaction.to': 5,
        'golem.compaction.tokens_before': record?.tokensBefore,
        'golem.compaction.tokens_after': 800,
        'golem.turn': 0,
      },
    ],
  );
});
