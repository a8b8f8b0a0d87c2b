/**
 * Gemini and thinking provenance: decoded thought blocks and call signatures record the adapter
 * and its model (generate and stream); on replay, reasoning from another issuer is left out and a
 * call left without a Gemini signature gets Google's documented stand-in on the first call.
 */
import type { Message, ThinkingBlock, ToolCall } from 'golem';
import { gemini, type GeminiModel } from 'golem/providers/gemini';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';

const MODEL = 'gemini-3-pro-preview';
const SKIP = 'skip_thought_signature_validator';
let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(id = MODEL): GeminiModel {
  return gemini({
    model: id,
    apiKey: 'test-gemini-key-0123456789',
    baseURL: `${server.url}/v1beta`,
  });
}

function reply(parts: unknown[], finishReason = 'STOP'): Record<string, unknown> {
  return { candidates: [{ content: { role: 'model', parts }, finishReason }], modelVersion: MODEL };
}

const callTurn = reply([
  { text: 'Plan: call the tool.', thought: true, thoughtSignature: 'sig-thought' },
  { functionCall: { name: 'get_weather', args: { city: 'Lagos' } }, thoughtSignature: 'sig-call' },
  { functionCall: { name: 'get_weather', args: { city: 'Accra' } } },
]);

const STAMP = { provider: 'gemini', model: MODEL };
const SIGNED = { signatureProvider: 'gemini', signatureModel: MODEL };
const hi = { messages: [{ role: 'user' as const, content: 'Weather?' }], tools: [] };

describe('decoding records provenance', () => {
  const expected = {
    thinking: [{ text: 'Plan: call the tool.', signature: 'sig-thought', ...STAMP }],
    toolCalls: [
      {
        id: 'get_weather_1',
        name: 'get_weather',
        args: '{"city":"Lagos"}',
        signature: 'sig-call',
        ...SIGNED,
      },
      { id: 'get_weather_2', name: 'get_weather', args: '{"city":"Accra"}' },
    ],
  };

  test('generate: thought blocks and signed calls are stamped; an unsigned call is not', async () => {
    server.push({ body: JSON.stringify(callTurn) });
    const response = await model().generate(hi);
    expect(response.message).toEqual({ role: 'assistant', ...expected });
  });

  test('stream: the assembled response is stamped the same way', async () => {
    server.push({
      headers: { 'content-type': 'text/event-stream' },
      body: `data: ${JSON.stringify(callTurn)}\n\n`,
    });
    const response = await model().stream(hi, () => undefined);
    expect(response.message).toEqual({ role: 'assistant', ...expected });
  });
});

/** The `model` content sent for an assistant message with `thinking` and `calls`. */
async function replayed(thinking: ThinkingBlock[], calls: ToolCall[], target = model()) {
  const history: Message[] = [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: 'Checking.', thinking, toolCalls: calls },
    ...calls.map((c) => ({
      role: 'tool' as const,
      content: 'sunny',
      toolCallId: c.id,
      toolName: c.name,
    })),
  ];
  server.push({ body: JSON.stringify(reply([{ text: 'ok' }])) });
  await target.generate({ messages: history, tools: [] });
  const sent = server.requests.at(-1)?.json as { contents: { parts: unknown[] }[] };
  return sent.contents[1]?.parts;
}

const call = (id: string, more: Partial<ToolCall> = {}): ToolCall => ({
  id,
  name: 'get_weather',
  args: '{"city":"Lagos"}',
  ...more,
});
const fc = (id: string) => ({ name: 'get_weather', args: { city: 'Lagos' }, id });

describe('encoding replays only what this model issued', () => {
  test('same provider and model: thought signature and call signature replayed', async () => {
    const parts = await replayed(
      [{ text: 'Plan.', signature: 'sig-thought', ...STAMP }],
      [call('c1', { signature: 'sig-call', ...SIGNED }), call('c2')],
    );
    expect(parts).toEqual([
      { text: 'Plan.', thought: true, thoughtSignature: 'sig-thought' },
      { text: 'Checking.' },
      { functionCall: fc('c1'), thoughtSignature: 'sig-call' },
      { functionCall: fc('c2') },
    ]);
  });

  test('another provider: its blocks are left out and the first call gets the stand-in signature', async () => {
    const parts = await replayed(
      [
        { text: 'Claude thinking', signature: 'sig-claude', provider: 'anthropic', model: 'c' },
        { redacted: 'claude-redacted', provider: 'anthropic', model: 'c' },
        { text: 'deepseek reasoning', provider: 'deepseek', model: 'deepseek-reasoner' },
      ],
      [call('toolu_1'), call('toolu_2')],
    );
    expect(parts).toEqual([
      { text: 'Checking.' },
      { functionCall: fc('toolu_1'), thoughtSignature: SKIP },
      { functionCall: fc('toolu_2') },
    ]);
  });

  test('another Gemini model: its signatures are not sent (the stand-in takes the first call’s place)', async () => {
    const parts = await replayed(
      [
        { text: 'Plan.', signature: 'sig-thought', ...STAMP },
        { signature: 'sig-only', ...STAMP },
      ],
      [call('c1', { signature: 'sig-call', ...SIGNED })],
      model('gemini-2.5-flash'),
    );
    expect(parts).toEqual([
      { text: 'Checking.' },
      { functionCall: fc('c1'), thoughtSignature: SKIP },
    ]);
    expect(server.requests.at(-1)?.body).not.toMatch(/sig-(thought|only|call)/);
  });

  test('a foreign call signature is replaced, never forwarded', async () => {
    const parts = await replayed(
      [],
      [call('c1', { signature: 'foreign-sig', signatureProvider: 'vertex-proxy' })],
    );
    expect(parts).toEqual([
      { text: 'Checking.' },
      { functionCall: fc('c1'), thoughtSignature: SKIP },
    ]);
  });

  test('unstamped blocks and call signatures (older stored histories) are trusted', async () => {
    const parts = await replayed(
      [{ text: 'Old plan.', signature: 'old-sig' }],
      [call('c1', { signature: 'old-call-sig' })],
    );
    expect(parts).toEqual([
      { text: 'Old plan.', thought: true, thoughtSignature: 'old-sig' },
      { text: 'Checking.' },
      { functionCall: fc('c1'), thoughtSignature: 'old-call-sig' },
    ]);
  });
});
