import { SpanKind } from '@opentelemetry/api';
import { Agent, defineTool } from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';

// Handoffs as spans with the real SDK: the target's work nests under its own `invoke_agent`.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

test('a handoff opens invoke_agent {target} under the run span; its chat and tool spans nest there', async () => {
  const refund = defineTool({
    name: 'refund',
    description: 'refund',
    schema: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => 'ok',
  });
  const billing = new Agent({
    name: 'billing',
    model: new ScriptedModel(
      [toolCallResponse([{ id: 'r1', name: 'refund' }]), textResponse('Refunded.')],
      { name: 'openai:gpt-4o-mini' },
    ),
    tools: [refund],
  });
  const triage = new Agent({
    name: 'triage',
    model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])], {
      name: 'openai:gpt-4o-mini',
    }),
    handoffs: [billing],
    instrumentation: otelInstrumentation({
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    }),
  });
  await triage.run('refund please');
  const spans = otel.spans();
  expect(spanTree(spans)).toBe(
    [
      'invoke_agent triage',
      '  chat gpt-4o-mini',
      '  invoke_agent billing',
      '    chat gpt-4o-mini',
      '    execute_tool refund',
      '    chat gpt-4o-mini',
    ].join('\n'),
  );
  const [segment] = named(spans, 'invoke_agent billing');
  expect(segment?.kind).toBe(SpanKind.INTERNAL);
  expect(segment?.attributes).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'billing',
    'golem.handoff.from': 'triage',
    'golem.agent.root': 'triage',
    'gen_ai.tool.call.id': 't1',
    'golem.turn': 0,
  });
  expect(segment?.ended).toBe(true);
});
