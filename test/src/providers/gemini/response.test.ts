/** Response normalisation: text, thinking and signatures, tool-call ids, usage, finish reasons. */
import { type Message, type ModelRequest, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, jsonReply, modelFor, ownText, rejection, request } from './helpers';
import { ModelProtocolError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

async function generate(body: unknown, req: ModelRequest = request([userMessage('q')])) {
  server.push(jsonReply(body));
  return modelFor(server).generate(req);
}

const call = (name: string, args?: unknown, more: Record<string, unknown> = {}) => ({
  functionCall: args === undefined ? { name } : { name, args },
  ...more,
});

/** The provenance the adapter stamps on what it decodes (docs/guides/thinking.md). */
const STAMP = { provider: 'gemini', model: 'gemini-2.5-flash' };

describe('text and thinking', () => {
  test('text parts are concatenated without a separator; unknown parts are ignored', async () => {
    const response = await generate(
      chunk(
        [
          { text: 'Hello' },
          { executableCode: { language: 'PYTHON', code: 'print(1)' } },
          { text: ', world' },
        ],
        { finishReason: 'STOP' },
      ),
    );
    expect(response.message).toEqual({ role: 'assistant', content: 'Hello, world' });
  });

  test('consecutive thought parts form one block; a signature on a thought part closes it', async () => {
    const response = await generate(
      chunk(
        [
          { text: 'A', thought: true },
          { text: 'B', thought: true, thoughtSignature: 'sig-ab' },
          { text: 'C', thought: true },
          { text: 'answer' },
          { text: 'D', thought: true },
        ],
        { finishReason: 'STOP' },
      ),
    );
    expect(response.message.thinking).toEqual([
      { text: 'AB', signature: 'sig-ab', ...STAMP },
      { text: 'C', ...STAMP },
      { text: 'D', ...STAMP },
    ]);
  });

  test('a signature on the answer text attaches to the last unsigned thinking block (g10 shape)', async () => {
    const response = await generate(
      chunk(
        [
          { text: 'Thinking…', thought: true },
          { text: 'Answer', thoughtSignature: 'sig-text' },
        ],
        { finishReason: 'STOP' },
      ),
    );
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Answer',
      thinking: [{ text: 'Thinking…', signature: 'sig-text', ...STAMP }],
    });
  });

  test('a second text-part signature after a signed block starts a new signature-only block', async () => {
    const response = await generate(
      chunk(
        [
          { text: 'T', thought: true, thoughtSignature: 's1' },
          { text: 'x', thoughtSignature: 's2' },
        ],
        { finishReason: 'STOP' },
      ),
    );
    expect(response.message.thinking).toEqual([
      { text: 'T', signature: 's1', ...STAMP },
      { signature: 's2', ...STAMP },
    ]);
  });
});

describe('tool calls', () => {
  test('calls get <name>_<n> ids, args as JSON text ({} when absent, PA-4), signatures kept', async () => {
    const response = await generate(
      chunk(
        [
          call('get_weather', { city: 'Lagos' }, { thoughtSignature: 'sig-1' }),
          call('get_time'),
          call('get_weather', {}),
        ],
        { finishReason: 'STOP' },
      ),
    );
    expect(response.message.toolCalls).toEqual([
      {
        id: 'get_weather_1',
        name: 'get_weather',
        args: '{"city":"Lagos"}',
        signature: 'sig-1',
        signatureProvider: 'gemini',
        signatureModel: 'gemini-2.5-flash',
      },
      { id: 'get_time_2', name: 'get_time', args: '{}' },
      { id: 'get_weather_3', name: 'get_weather', args: '{}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  test('ids continue from the calls already in the conversation (unique across turns)', async () => {
    const history: Message[] = [
      userMessage('q'),
      {
        role: 'assistant',
        toolCalls: [
          { id: 'get_weather_1', name: 'get_weather', args: '{}' },
          { id: 'toolu_other_provider', name: 'lookup', args: '{}' },
        ],
      },
      { role: 'tool', content: 'a', toolCallId: 'get_weather_1', toolName: 'get_weather' },
      { role: 'tool', content: 'b', toolCallId: 'toolu_other_provider', toolName: 'lookup' },
    ];
    const response = await generate(
      chunk([call('get_weather', {})], { finishReason: 'STOP' }),
      request(history),
    );
    expect(response.message.toolCalls?.map((c) => c.id)).toEqual(['get_weather_3']);
  });

  test('provider ids are kept when fresh; repeated or already used ones are replaced', async () => {
    const history: Message[] = [
      { role: 'assistant', toolCalls: [{ id: 'abc', name: 'f', args: '{}' }] },
      { role: 'tool', content: 'x', toolCallId: 'abc', toolName: 'f' },
      // an id from elsewhere that looks like ours
      { role: 'assistant', toolCalls: [{ id: 'f_3', name: 'f', args: '{}' }] },
      { role: 'tool', content: 'x', toolCallId: 'f_3', toolName: 'f' },
    ];
    const response = await generate(
      chunk(
        [
          { functionCall: { name: 'f', args: {}, id: 'fresh' } },
          { functionCall: { name: 'f', args: {}, id: 'fresh' } },
          { functionCall: { name: 'f', args: {}, id: 'abc' } },
        ],
        { finishReason: 'STOP' },
      ),
      request(history),
    );
    expect(response.message.toolCalls?.map((c) => c.id)).toEqual(['fresh', 'f_4', 'f_5']);
  });

  test('the same request always yields the same ids (deterministic)', async () => {
    const body = chunk([call('a', {}), call('b', {})], { finishReason: 'STOP' });
    const first = await generate(body);
    const second = await generate(body);
    expect(second.message.toolCalls).toEqual(first.message.toolCalls);
  });
});

describe('usage, finish reason, model name', () => {
  test('usage: promptTokenCount in; candidates and thoughts out (thoughts also as reasoning); absent → zeros', async () => {
    const withUsage = await generate(
      chunk([{ text: 'x' }], {
        finishReason: 'STOP',
        usage: { promptTokenCount: 9, candidatesTokenCount: 4, thoughtsTokenCount: 30 },
      }),
    );
    expect(withUsage.usage).toEqual({ inputTokens: 9, outputTokens: 34, reasoningTokens: 30 });
    const without = await generate(chunk([{ text: 'x' }], { finishReason: 'STOP' }));
    expect(without.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  test.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['IMAGE_SAFETY', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'malformed_function_call'],
    ['LANGUAGE', false, 'language'],
    ['OTHER', false, 'other'],
  ])('finishReason %s (calls: %s) → %s', async (raw, calls, normalised) => {
    const parts = calls ? [call('f', {})] : [{ text: 'x' }];
    expect((await generate(chunk(parts, { finishReason: raw }))).finishReason).toBe(normalised);
  });

  test('modelName is modelVersion, or the configured model when absent', async () => {
    const body = { candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: 'STOP' }] };
    expect((await generate(body)).modelName).toBe('gemini-2.5-flash');
    expect(
      (await generate(chunk([{ text: 'x' }], { model: 'gemini-2.5-flash-001' }))).modelName,
    ).toBe('gemini-2.5-flash-001');
  });

  test('PA-5: only the first candidate counts', async () => {
    const response = await generate({
      candidates: [
        { content: { parts: [{ text: 'first' }] }, finishReason: 'STOP' },
        { content: { parts: [{ text: 'second' }] }, finishReason: 'MAX_TOKENS' },
      ],
    });
    expect([response.message.content, response.finishReason]).toEqual(['first', 'stop']);
  });

  test('a candidate stopped by safety without content is an empty content_filter response', async () => {
    const response = await generate({ candidates: [{ finishReason: 'SAFETY', index: 0 }] });
    expect(response).toMatchObject({
      message: { role: 'assistant' },
      finishReason: 'content_filter',
    });
    expect(response.message.content).toBeUndefined();
  });

  test('a blocked prompt (no candidates, promptFeedback.blockReason) finishes as content_filter', async () => {
    const response: ModelResponse = await generate(JSON.parse(ownText('blocked-prompt.json')));
    expect(response).toEqual({
      message: { role: 'assistant' },
      usage: { inputTokens: 12, outputTokens: 0 },
      finishReason: 'content_filter',
      modelName: 'gemini-2.5-flash',
      responseId: 'hand-written-blocked',
    });
  });
});

describe('malformed responses are ModelProtocolError (never a raw SyntaxError)', () => {
  test.each([
    ['no candidates', { modelVersion: 'x' }, 'has no candidates'],
    ['candidates not an array', { candidates: {} }, 'candidates is not an array'],
    ['a candidate not an object', { candidates: [7] }, 'a candidate is not an object'],
    ['parts not an array', { candidates: [{ content: { parts: 'x' } }] }, 'parts is not an array'],
    [
      'a part not an object',
      { candidates: [{ content: { parts: [null] } }] },
      'part is not an object',
    ],
    [
      'args not an object',
      chunk([{ functionCall: { name: 'f', args: [1] } }]),
      'args is not an object',
    ],
    ['a call without a name', chunk([{ functionCall: { args: {} } }]), 'without a name'],
    ['a body that is not an object', [1, 2], 'not a JSON object'],
  ])('%s', async (_label, body, message) => {
    const error = await rejection(generate(body));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  test('a body that is not JSON', async () => {
    server.push({ status: 200, body: '{"candidates": [' });
    const error = await rejection(modelFor(server).generate(request([userMessage('q')])));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(error).not.toBeInstanceOf(SyntaxError);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });
});
