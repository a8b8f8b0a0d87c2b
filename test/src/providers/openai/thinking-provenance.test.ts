/**
 * OpenAI-compatible adapters and thinking provenance: `reasoning_content` is recorded as a block
 * stamped with the preset name and the model the response names (generate and stream); chat
 * completions take no reasoning and no signatures, so nothing of it is ever sent back — neither
 * the endpoint's own reasoning nor another provider's signed blocks or call signatures.
 */
import type { Message, ModelRequest } from 'golem';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const deepseek = () =>
  openai({
    model: 'deepseek-reasoner',
    preset: 'deepseek',
    apiKey: 'sk-test',
    baseURL: server.url,
  });
const hi: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const STAMP = { provider: 'deepseek', model: 'deepseek-reasoner' };

function completion(message: Record<string, unknown>): string {
  return JSON.stringify({
    id: 'c',
    object: 'chat.completion',
    model: 'deepseek-reasoner',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 2 },
  });
}

describe('decoding records provenance', () => {
  test('generate: reasoning_content becomes a block stamped with the preset and the model', async () => {
    server.push({ body: completion({ content: 'Hi.', reasoning_content: 'Greet back.' }) });
    const response = await deepseek().generate(hi);
    expect(response.message.thinking).toEqual([{ text: 'Greet back.', ...STAMP }]);
  });

  test('stream: the assembled block is stamped the same way', async () => {
    const frames = [
      {
        choices: [{ index: 0, delta: { reasoning_content: 'Greet ' } }],
        model: 'deepseek-reasoner',
      },
      { choices: [{ index: 0, delta: { reasoning_content: 'back.' } }] },
      { choices: [{ index: 0, delta: { content: 'Hi.' }, finish_reason: 'stop' }] },
    ];
    server.push({
      headers: { 'content-type': 'text/event-stream' },
      body: `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`,
    });
    const response = await deepseek().stream(hi, () => undefined);
    expect(response.message.thinking).toEqual([{ text: 'Greet back.', ...STAMP }]);
  });
});

test('encoding: no reasoning and no signature reaches the wire, own or foreign', async () => {
  const history: Message[] = [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: 'Checking.',
      thinking: [
        { text: 'own reasoning', ...STAMP },
        { text: 'claude thinking', signature: 'sig-claude', provider: 'anthropic', model: 'c' },
        { redacted: 'claude-redacted', provider: 'anthropic', model: 'c' },
      ],
      toolCalls: [
        {
          id: 'call_1',
          name: 'get_weather',
          args: '{"city":"Lagos"}',
          signature: 'sig-gemini-call',
          signatureProvider: 'gemini',
          signatureModel: 'gemini-3-pro-preview',
        },
      ],
    },
    { role: 'tool', content: 'sunny', toolCallId: 'call_1', toolName: 'get_weather' },
  ];
  server.push({ body: completion({ content: 'Sunny.' }) });
  await deepseek().generate({ messages: history, tools: [] });
  const sent = server.requests[0]?.json as { messages: unknown[] };
  expect(sent.messages[1]).toEqual({
    role: 'assistant',
    content: 'Checking.',
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Lagos"}' },
      },
    ],
  });
  expect(server.requests[0]?.body).not.toMatch(/reasoning|sig-|claude|redacted/);
});
