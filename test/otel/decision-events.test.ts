import { Agent, deferExternal, defineTool, verdict } from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';

// What a run decides without a model call or a tool execution — a call resolved on resume, a
// guardrail's verdict — recorded as span events, with the real SDK.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

function instrumentation(captureContent = false) {
  return otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
    captureContent,
    secrets: ['hunter2'],
  });
}

function eventsOf(spanName: string) {
  return (named(otel.spans(), spanName)[0]?.events ?? []).map((e) => [e.name, e.attributes]);
}

describe('tool_resolved: a golem.tool.resolved event on invoke_agent', () => {
  const pay = defineTool({
    name: 'pay',
    schema: { type: 'object' },
    approval: true,
    execute: () => 'paid',
  });
  const report = defineTool({
    name: 'fetch_report',
    schema: { type: 'object' },
    execute: () => {
      throw deferExternal('the batch job answers');
    },
  });

  async function resumed(captureContent: boolean) {
    const agent = new Agent({
      name: 'clerk',
      model: new ScriptedModel([
        toolCallResponse([
          { id: 'r1', name: 'fetch_report' },
          { id: 'p1', name: 'pay' },
        ]),
        textResponse('done'),
      ]),
      tools: [pay, report],
      deferredTools: true,
      instrumentation: instrumentation(captureContent),
    });
    const paused = await agent.run('settle up');
    otel.exporter.reset();
    await agent.resume(paused.messages, {
      approvals: { p1: { approved: false, reason: 'over budget' } },
      external: { r1: 'Q3: 12 invoices (token hunter2)' },
    });
  }

  test('one event per denied or external call, in order; no execute_tool span (nothing ran)', async () => {
    await resumed(false);

    expect(spanTree(otel.spans())).toBe(['invoke_agent clerk', '  chat scripted'].join('\n'));
    expect(eventsOf('invoke_agent clerk')).toEqual([
      [
        'golem.tool.resolved',
        {
          'gen_ai.tool.name': 'fetch_report',
          'gen_ai.tool.call.id': 'r1',
          'golem.tool.resolution': 'external',
        },
      ],
      [
        'golem.tool.resolved',
        {
          'gen_ai.tool.name': 'pay',
          'gen_ai.tool.call.id': 'p1',
          'golem.tool.resolution': 'denied',
        },
      ],
    ]);
  });

  test('with content capture, the text the model sees, scrubbed', async () => {
    await resumed(true);

    const results = (named(otel.spans(), 'invoke_agent clerk')[0]?.events ?? []).map(
      (e) => e.attributes?.['gen_ai.tool.call.result'],
    );
    expect(results).toEqual([
      'Q3: 12 invoices (token [redacted])',
      expect.stringContaining('over budget') as unknown,
    ]);
  });
});

describe('guardrail: a golem.guardrail event per check', () => {
  function guarded() {
    return new Agent({
      name: 'guarded',
      model: new ScriptedModel([
        toolCallResponse([{ id: 't1', name: 'noop', args: {} }]),
        textResponse('ok'),
      ]),
      tools: [defineTool({ name: 'noop', schema: { type: 'object' }, execute: () => 'x' })],
      instrumentation: instrumentation(),
      guardrails: {
        input: [{ name: 'in', check: () => undefined }],
        output: [{ name: 'out', check: (o: string) => verdict.rewrite(o.toUpperCase()) }],
        tool: [{ name: 'tl', before: () => verdict.pass(), after: () => undefined }],
      },
    });
  }

  test('input and output checks on invoke_agent; tool checks on the call’s execute_tool', async () => {
    await guarded().run('?');

    expect(eventsOf('invoke_agent guarded')).toEqual([
      [
        'golem.guardrail',
        {
          'golem.guardrail.name': 'in',
          'golem.guardrail.phase': 'input',
          'golem.guardrail.outcome': 'pass',
        },
      ],
      [
        'golem.guardrail',
        {
          'golem.guardrail.name': 'out',
          'golem.guardrail.phase': 'output',
          'golem.guardrail.outcome': 'rewrite',
        },
      ],
    ]);
    const tool = { 'gen_ai.tool.name': 'noop', 'gen_ai.tool.call.id': 't1' };
    expect(eventsOf('execute_tool noop')).toEqual([
      [
        'golem.guardrail',
        {
          'golem.guardrail.name': 'tl',
          'golem.guardrail.phase': 'tool_input',
          'golem.guardrail.outcome': 'pass',
          ...tool,
        },
      ],
      [
        'golem.guardrail',
        {
          'golem.guardrail.name': 'tl',
          'golem.guardrail.phase': 'tool_output',
          'golem.guardrail.outcome': 'pass',
          ...tool,
        },
      ],
    ]);
  });

  test('a trip’s reason is content: recorded only with content capture on, scrubbed', async () => {
    const tripping = (captureContent: boolean) =>
      new Agent({
        name: 'strict',
        model: new ScriptedModel([textResponse('never')]),
        instrumentation: instrumentation(captureContent),
        guardrails: {
          input: [{ name: 'pii', check: () => verdict.trip('saw hunter2 in the prompt') }],
        },
      });

    await expect(tripping(false).run('?')).rejects.toThrow();
    expect(eventsOf('invoke_agent strict')).toContainEqual([
      'golem.guardrail',
      {
        'golem.guardrail.name': 'pii',
        'golem.guardrail.phase': 'input',
        'golem.guardrail.outcome': 'trip',
      },
    ]);

    otel.exporter.reset();
    await expect(tripping(true).run('?')).rejects.toThrow();
    expect(eventsOf('invoke_agent strict')).toContainEqual([
      'golem.guardrail',
      {
        'golem.guardrail.name': 'pii',
        'golem.guardrail.phase': 'input',
        'golem.guardrail.outcome': 'trip',
        'golem.guardrail.reason': 'saw [redacted] in the prompt',
      },
    ]);
  });
});
