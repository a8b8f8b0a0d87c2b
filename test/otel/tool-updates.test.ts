import { join } from 'node:path';
import { Agent, defineTool } from 'golem';
import { connectMcp } from 'golem/mcp';
import { otelInstrumentation, type OtelInstrumentationOptions } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { named, otelHarness, type OtelHarness } from './harness';

// A running tool's progress and log reports (tool_progress / tool_log run events) become span
// events on its execute_tool span, with the real SDK's in-memory exporter.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

const reporting = defineTool({
  name: 'index_docs',
  description: 'Index the documents',
  schema: { type: 'object', properties: {} },
  execute: (_args, ctx) => {
    ctx.report?.({
      kind: 'progress',
      progress: 1,
      total: 2,
      message: 'read sk-abcdefghijklmnop123',
    });
    ctx.report?.({ kind: 'log', level: 'warning', logger: 'indexer', data: { skipped: 'a.pdf' } });
    ctx.report?.({ kind: 'progress', progress: 2 });
    return 'indexed';
  },
});

async function runWith(options: OtelInstrumentationOptions): Promise<void> {
  const agent = new Agent({
    model: new ScriptedModel([
      toolCallResponse([{ id: 'call_1', name: 'index_docs', args: {} }]),
      textResponse('Done.'),
    ]),
    tools: [reporting],
    instrumentation: otelInstrumentation({ tracerProvider: otel.tracerProvider, ...options }),
  });
  await agent.run('Index them.');
}

function toolEvents(name: string) {
  const [span] = named(otel.spans(), name);
  return (span?.events ?? []).map((event) => ({ name: event.name, attributes: event.attributes }));
}

test('progress and log reports are span events of the tool span; content stays out by default', async () => {
  await runWith({ metrics: false });
  expect(toolEvents('execute_tool index_docs')).toEqual([
    {
      name: 'golem.tool.progress',
      attributes: { 'golem.tool.progress.value': 1, 'golem.tool.progress.total': 2 },
    },
    {
      name: 'golem.tool.log',
      attributes: { 'golem.tool.log.level': 'warning', 'golem.tool.log.logger': 'indexer' },
    },
    { name: 'golem.tool.progress', attributes: { 'golem.tool.progress.value': 2 } },
  ]);
  const [run] = named(otel.spans(), 'invoke_agent agent');
  expect(run?.events.map((event) => event.name)).toEqual([]);
});

test('with content capture, the progress message and the log data are recorded, scrubbed', async () => {
  await runWith({ metrics: false, captureContent: true });
  const events = toolEvents('execute_tool index_docs');
  expect(events[0]?.attributes).toEqual({
    'golem.tool.progress.value': 1,
    'golem.tool.progress.total': 2,
    'golem.tool.progress.message': 'read [redacted]',
  });
  expect(events[1]?.attributes).toEqual({
    'golem.tool.log.level': 'warning',
    'golem.tool.log.logger': 'indexer',
    'golem.tool.log.data': '{"skipped":"a.pdf"}',
  });
});

test("an MCP server's progress and log notifications reach the bridged tool's span", async () => {
  const client = await connectMcp({
    name: 'features',
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [join(__dirname, '..', 'src', 'mcp', 'servers', 'features-server.js')],
    },
  });
  try {
    const steps = (await client.tools()).filter((tool) => tool.name === 'steps');
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([{ id: 'call_1', name: 'steps', args: {} }]),
        textResponse('Done.'),
      ]),
      tools: steps,
      instrumentation: otelInstrumentation({
        tracerProvider: otel.tracerProvider,
        metrics: false,
        captureContent: true,
      }),
    });
    await agent.run('Go.');
  } finally {
    await client.close();
  }
  const events = toolEvents('execute_tool steps');
  expect(events.map((event) => event.name)).toEqual([
    'golem.tool.progress',
    'golem.tool.progress',
    'golem.tool.progress',
    'golem.tool.log',
  ]);
  expect(events[2]?.attributes).toEqual({
    'golem.tool.progress.value': 3,
    'golem.tool.progress.total': 3,
    'golem.tool.progress.message': 'step 3',
  });
  expect(events[3]?.attributes).toEqual({
    'golem.tool.log.level': 'warning',
    'golem.tool.log.logger': 'steps',
    'golem.tool.log.data': 'halfway',
  });
}, 30_000);
