import { context, trace } from '@opentelemetry/api';
import { Agent, defineTool, type RunStartInfo } from 'golem';
import {
  extractTraceContext,
  injectTraceContext,
  otelInstrumentation,
  withTraceContext,
} from 'golem/otel';
import {
  FunctionModel,
  ScriptedModel,
  TestModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';
import { configErrorOf } from '../support/config-error';

// Context propagation: runs join the caller's trace; model calls and tools run inside their span.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

const instrumentation = () =>
  otelInstrumentation({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });

test('a run joins the active span; spans opened inside a model call or a tool are their children', async () => {
  const app = otel.tracerProvider.getTracer('app');
  const lookup = defineTool({
    name: 'lookup',
    schema: { type: 'object' },
    execute: () => {
      app.startSpan('db.query').end(); // the active context is the execute_tool span's
      return 'found';
    },
  });
  let turn = 0;
  const model = new FunctionModel(() => {
    app.startSpan('http.request').end(); // the active context is the chat span's
    return turn++ === 0 ? toolCallResponse([{ id: 'c1', name: 'lookup' }]) : textResponse('done');
  });
  const agent = new Agent({
    name: 'inner',
    model,
    tools: [lookup],
    instrumentation: instrumentation(),
  });

  await app.startActiveSpan('POST /ask', async (request) => {
    await agent.run('go');
    request.end();
  });

  expect(spanTree(otel.spans())).toBe(
    [
      'POST /ask',
      '  invoke_agent inner',
      '    chat function',
      '      http.request',
      '    execute_tool lookup',
      '      db.query',
      '    chat function',
      '      http.request',
    ].join('\n'),
  );
  const traceIds = new Set(otel.spans().map((s) => s.spanContext().traceId));
  expect(traceIds.size).toBe(1);
});

test('an agent used as a tool: its run nests under the delegating execute_tool span', async () => {
  const researcher = new Agent({
    name: 'researcher',
    model: new ScriptedModel([textResponse('Lagos is in Nigeria.')]),
    instrumentation: instrumentation(),
  });
  const lead = new Agent({
    name: 'lead',
    model: new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'research', args: { prompt: 'Where is Lagos?' } }]),
      textResponse('Nigeria.'),
    ]),
    tools: [researcher.asTool('research', 'Ask the researcher')],
    instrumentation: instrumentation(),
  });

  await lead.run('Where is Lagos?');

  expect(spanTree(otel.spans())).toBe(
    [
      'invoke_agent lead',
      '  chat scripted',
      '  execute_tool research',
      '    invoke_agent researcher',
      '      chat scripted',
      '  chat scripted',
    ].join('\n'),
  );
});

test('a carrier continues the trace elsewhere (a queued run): inject, then withTraceContext', async () => {
  const app = otel.tracerProvider.getTracer('app');
  const producer = app.startSpan('enqueue');
  const carrier = context.with(trace.setSpan(context.active(), producer), () =>
    injectTraceContext(),
  );
  producer.end();
  expect(Object.keys(carrier)).toEqual(['traceparent']);
  expect(JSON.parse(JSON.stringify(carrier))).toEqual(carrier); // plain strings, storable in a job

  const worker = new Agent({
    name: 'worker',
    model: new TestModel(),
    instrumentation: instrumentation(),
  });
  await withTraceContext(carrier, () => worker.run('job'));

  const [run] = named(otel.spans(), 'invoke_agent worker');
  expect(run?.spanContext().traceId).toBe(producer.spanContext().traceId);
  expect(run?.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
  // A hostile carrier is ignored, not thrown on.
  expect(() => extractTraceContext({ traceparent: 42, junk: { a: 1 } })).not.toThrow();
  expect(trace.getSpanContext(extractTraceContext('nonsense'))).toBeUndefined();
});

test('with no SDK registered the instrumentation declines every run (nothing is built)', () => {
  const info: RunStartInfo = {
    agent: 'a',
    model: new TestModel(),
    stream: false,
    tools: [],
    outputType: 'text',
  };
  expect(otelInstrumentation().startRun(info)).toBeUndefined();
  // metrics on an SDK meter keep the run traced even when spans do not record
  expect(otelInstrumentation({ meterProvider: otel.meterProvider }).startRun(info)).toBeDefined();
});

test('invalid options are an otel ConfigError naming the option', () => {
  const bad: unknown[] = [
    { tracerProvider: {} },
    { meterProvider: 1 },
    { metrics: 'yes' },
    { captureContent: { maxLength: 10 } },
    { secrets: [1] },
    null,
  ];
  for (const options of bad) {
    expect(() => otelInstrumentation(options as never)).toThrow(configErrorOf('otel'));
  }
  expect(() => otelInstrumentation({ captureContent: { maxLength: 10 } })).toThrow(
    /captureContent\.maxLength` must be an integer >= 64/,
  );
});
