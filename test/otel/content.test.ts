import { SpanStatusCode } from '@opentelemetry/api';
import { Agent, RunError, defineTool, imageUrl } from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { openai } from 'golem/providers/openai';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { startReplayServer, type ReplayServer } from '../support/replay-server';
import { everyText, named, otelHarness, type OtelHarness } from './harness';

// Content capture (opt-in, capped, scrubbed) and secrets: no key ever reaches a span.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

const weather = defineTool({
  name: 'weather',
  description: 'Weather in a city',
  schema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: () => '{"celsius":31}',
});

function capturing(captureContent: boolean | { maxLength: number }, secrets: string[] = []) {
  return otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
    captureContent,
    secrets,
  });
}

test('captured content follows the convention JSON shapes on chat, execute_tool and invoke_agent', async () => {
  const agent = new Agent({
    name: 'weather',
    instructions: 'You are concise.',
    model: new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'weather', args: { city: 'Lagos' } }]),
      textResponse('31°C.'),
    ]),
    tools: [weather],
    instrumentation: capturing(true),
  });

  await agent.run('Weather in Lagos?', { parts: [imageUrl('https://example.com/sky.png')] });

  const spans = otel.spans();
  const [first, second] = named(spans, 'chat scripted');
  expect(first?.attributes['gen_ai.system_instructions']).toBe(
    JSON.stringify([{ type: 'text', content: 'You are concise.' }]),
  );
  expect(JSON.parse(String(first?.attributes['gen_ai.input.messages']))).toEqual([
    {
      role: 'user',
      parts: [
        { type: 'text', content: 'Weather in Lagos?' },
        { type: 'uri', modality: 'image', mime_type: null, uri: 'https://example.com/sky.png' },
      ],
    },
  ]);
  expect(JSON.parse(String(first?.attributes['gen_ai.output.messages']))).toEqual([
    {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Lagos' } }],
      finish_reason: 'tool_calls',
    },
  ]);
  expect(
    (JSON.parse(String(second?.attributes['gen_ai.input.messages'])) as unknown[]).slice(1),
  ).toEqual([
    {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Lagos' } }],
    },
    { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '{"celsius":31}' }] },
  ]);
  const [tool] = named(spans, 'execute_tool weather');
  expect(tool?.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Lagos"}');
  expect(tool?.attributes['gen_ai.tool.call.result']).toBe('{"celsius":31}');
  const [run] = named(spans, 'invoke_agent weather');
  expect(run?.attributes['gen_ai.input.messages']).toBe(first?.attributes['gen_ai.input.messages']);
  expect(JSON.parse(String(run?.attributes['gen_ai.output.messages']))).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: '31°C.' }], finish_reason: 'stop' },
  ]);
});

test('content is truncated to maxLength and stays valid JSON; the newest messages are kept', async () => {
  const long = 'x'.repeat(5000);
  const agent = new Agent({
    model: new ScriptedModel([textResponse(long)]),
    instrumentation: capturing({ maxLength: 300 }),
  });
  await agent.run('a question', {
    history: [
      { role: 'user', content: long },
      { role: 'assistant', content: 'ok' },
    ],
  });
  const [chat] = named(otel.spans(), 'chat scripted');
  for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages']) {
    const text = String(chat?.attributes[key]);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(() => JSON.parse(text) as unknown).not.toThrow();
  }
  const input = JSON.parse(String(chat?.attributes['gen_ai.input.messages'])) as {
    parts: { content: string }[];
  }[];
  expect(input.at(-1)?.parts[0]?.content).toBe('a question');
  expect(String(chat?.attributes['gen_ai.output.messages'])).toContain('…[truncated');
});

test('no secret reaches a span: a provider error echoing the key, a tool error, captured content', async () => {
  const KEY = 'sk-proj-TESTKEY0123456789abcdefSECRET';
  const DB_PASSWORD = 'hunter2-db-password';
  const server: ReplayServer = await startReplayServer();
  try {
    server.push({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    });
    const provider = new Agent({
      name: 'provider',
      model: openai({ model: 'gpt-4o-mini', apiKey: KEY, baseURL: server.url }),
      instrumentation: capturing(true),
    });
    const failed = await provider.run(`my key is ${KEY}, remember it`).catch((e: unknown) => e);
    expect(RunError.is(failed)).toBe(true);

    const leaky = defineTool({
      name: 'db',
      schema: { type: 'object' },
      execute: () => {
        throw new Error(`connect failed for postgres://app:${DB_PASSWORD}@db/prod with key ${KEY}`);
      },
    });
    const tooling = new Agent({
      name: 'tooling',
      model: new ScriptedModel([
        toolCallResponse([{ id: 'c1', name: 'db', args: { token: KEY } }]),
      ]),
      tools: [leaky],
      instrumentation: capturing(true, [DB_PASSWORD]),
    });
    await tooling.run('query').catch(() => undefined);

    const spans = otel.spans();
    expect(named(spans, 'chat gpt-4o-mini')[0]?.attributes['error.type']).toBe('401');
    expect(named(spans, 'chat gpt-4o-mini')[0]?.status.code).toBe(SpanStatusCode.ERROR);
    const text = everyText(spans);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('TESTKEY0123456789');
    expect(text).not.toContain(DB_PASSWORD);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`); // the key was really used
  } finally {
    await server.close();
  }
});
