/**
 * An OpenAI Responses compaction item (`Message.compaction`) is replayed only to the adapter that
 * issued it: every other adapter family (OpenAI chat completions, Azure, Anthropic, Gemini,
 * Bedrock) encodes a history holding one without it — the full history goes instead — and the
 * adapters without provider-side compaction ignore `settings.compaction`. End to end, a fallback
 * from the Responses adapter to Claude sends Claude the messages the compaction stood for.
 */
import { NodeHttpHandler } from '@smithy/node-http-handler';
import {
  Agent,
  FallbackModel,
  defineTool,
  type Message,
  type ModelRequest,
  type StreamingModel,
} from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { azure } from 'golem/providers/azure';
import { bedrock, type BedrockModel } from 'golem/providers/bedrock';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import { openaiResponses } from 'golem/providers/openai-responses';
import { startReplayServer, type Reply, type ReplayServer } from '../../support/replay-server';

let server: ReplayServer;
const bedrocks: BedrockModel[] = [];
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  for (const model of bedrocks.splice(0)) model.destroy();
  await server.close();
});

const ENC = 'ENC-COMPACTION-0001';
const json = (body: unknown, status = 200): Reply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const history: Message[] = [
  { role: 'user', content: 'Read the logs.' },
  { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'read_log', args: '{}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'read_log', content: 'disk full' },
  {
    role: 'assistant',
    content: 'The disk is full.',
    compaction: { provider: 'openai-responses', model: 'gpt-5', id: 'cmp_1', data: ENC },
  },
  { role: 'user', content: 'Next step?' },
];
const request: ModelRequest = {
  messages: history,
  tools: [{ name: 'read_log', description: 'Logs.', schema: { type: 'object' } }],
};

const families: [string, () => StreamingModel, Reply][] = [
  [
    'openai',
    () => openai({ model: 'gpt-5', apiKey: 'sk-test', baseURL: server.url }),
    json({
      id: 'chatcmpl-1',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Ok.' }, finish_reason: 'stop' },
      ],
    }),
  ],
  [
    'azure',
    () => azure({ endpoint: server.url, deployment: 'd', apiVersion: '2024-10-21', apiKey: 'k' }),
    json({
      id: 'chatcmpl-2',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Ok.' }, finish_reason: 'stop' },
      ],
    }),
  ],
  [
    'gemini',
    () =>
      gemini({
        model: 'gemini-2.5-flash',
        apiKey: 'test-key-0123',
        baseURL: `${server.url}/v1beta`,
      }),
    json({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Ok.' }] }, finishReason: 'STOP' }],
    }),
  ],
  [
    'bedrock',
    () => {
      const made = bedrock({
        model: 'us.amazon.nova-micro-v1:0',
        region: 'us-east-1',
        endpoint: server.url,
        credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret-0123456789' },
        client: { requestHandler: new NodeHttpHandler() },
      });
      bedrocks.push(made);
      return made;
    },
    json({
      output: { message: { role: 'assistant', content: [{ text: 'Ok.' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 9, outputTokens: 1, totalTokens: 10 },
    }),
  ],
];

test.each(families)(
  '%s: the compaction item is never sent, the history before it is, and settings.compaction is ignored',
  async (_, build, reply) => {
    server.push(reply);
    const response = await build().generate({
      ...request,
      settings: { compaction: { triggerTokens: 1000, keepToolUses: 1 } },
    });
    expect(response.message.content).toBe('Ok.');
    const body = server.requests[0]?.body ?? '';
    expect(body).not.toContain(ENC);
    expect(body).not.toMatch(/compaction|context_management|cmp_1/);
    expect(body).toContain('Read the logs.');
    expect(body).toContain('disk full');
  },
);

test('anthropic: the compaction item is never sent; the whole history is', async () => {
  server.push(
    json({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Ok.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 9, output_tokens: 1 },
    }),
  );
  await anthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
  }).generate(request);
  const body = server.requests[0]?.body ?? '';
  expect(body).not.toContain(ENC);
  expect(body).not.toMatch(/compaction|cmp_1/);
  expect((server.requests[0]?.json as { messages: unknown[] }).messages).toHaveLength(5);
});

test('Responses → Claude fallback: the Responses retry sends the compaction, Claude the full history', async () => {
  const readLog = defineTool({
    name: 'read_log',
    description: 'Logs.',
    schema: { type: 'object' },
    execute: () => 'disk full',
  });
  server.push(
    json({
      id: 'resp_1',
      status: 'completed',
      model: 'gpt-5',
      output: [
        { type: 'compaction', id: 'cmp_1', encrypted_content: ENC },
        { type: 'function_call', call_id: 'call_1', name: 'read_log', arguments: '{}' },
      ],
      usage: { input_tokens: 9000, output_tokens: 5 },
    }),
    json({ error: { message: 'busy', type: 'server_error' } }, 500),
    json({
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Free some space.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 20, output_tokens: 4 },
    }),
  );
  const primary = openaiResponses({ model: 'gpt-5', apiKey: 'sk-test', baseURL: server.url });
  const backup = anthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
  });
  const agent = new Agent({ model: new FallbackModel([primary, backup]), tools: [readLog] });
  const result = await agent.run('Read the logs.');
  expect(result.output).toBe('Free some space.');
  expect(server.requests).toHaveLength(3);
  const retried = server.requests[1]?.json as { input: Record<string, unknown>[] };
  expect(retried.input[0]).toEqual({ type: 'compaction', id: 'cmp_1', encrypted_content: ENC });
  expect(JSON.stringify(retried.input)).not.toContain('Read the logs.');
  const claude = server.requests[2];
  expect(claude?.body).not.toContain(ENC);
  expect(claude?.json).toMatchObject({
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Read the logs.' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_1', name: 'read_log', input: {} }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'disk full' }],
      },
    ],
  });
  const stored = result.messages.find((m) => m.compaction !== undefined);
  expect(stored?.compaction).toEqual({
    provider: 'openai-responses',
    model: 'gpt-5',
    id: 'cmp_1',
    data: ENC,
  });
});
