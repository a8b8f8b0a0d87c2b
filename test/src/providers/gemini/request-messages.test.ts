/** The exact request the adapter sends: URL, headers, messages and tools. */
import {
  HistoryFormatError,
  imageData,
  imageUrl,
  redactedThinking,
  signedThinking,
  thinkingText,
  type Message,
  type ModelRequest,
} from 'golem';
import {
  systemMessage,
  toolResultMessage,
  userMessage,
} from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { API_KEY, chunk, jsonReply, modelFor, rejection, request } from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const ok = () => jsonReply(chunk([{ text: 'ok' }], { finishReason: 'STOP' }));

async function sent(req: ModelRequest, options = {}): Promise<Record<string, unknown>> {
  server.push(ok());
  await modelFor(server, options).generate(req);
  return server.requests[0]?.json as Record<string, unknown>;
}

const weather = {
  name: 'get_weather',
  description: 'Weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('URL and headers', () => {
  test('POSTs to {baseURL}/models/{model}:generateContent with the key in x-goog-api-key', async () => {
    await sent(request([userMessage('hi')]));
    const recorded = server.requests[0];
    expect(recorded?.method).toBe('POST');
    expect(recorded?.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(recorded?.headers['x-goog-api-key']).toBe(API_KEY);
    expect(recorded?.headers['content-type']).toBe('application/json');
    expect(recorded?.url).not.toContain(API_KEY);
  });

  test('streams from :streamGenerateContent?alt=sse', async () => {
    server.push({
      headers: { 'content-type': 'text/event-stream' },
      chunks: [`data: ${JSON.stringify(chunk([{ text: 'x' }], { finishReason: 'STOP' }))}\n\n`],
    });
    await modelFor(server).stream(request([userMessage('hi')]), () => undefined);
    expect(server.requests[0]?.url).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  test('an access token goes in Authorization (Vertex), extra headers are added', async () => {
    server.push(ok());
    const model = modelFor(server, {
      apiKey: undefined,
      accessToken: () => 'ya29.token-value',
      headers: { 'x-goog-user-project': 'my-project' },
    });
    await model.generate(request([userMessage('hi')]));
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer ya29.token-value');
    expect(headers?.['x-goog-user-project']).toBe('my-project');
    expect(headers?.['x-goog-api-key']).toBeUndefined();
  });
});

describe('messages', () => {
  test('system, user text and images (inline bytes and URLs)', async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
    const body = await sent(
      request([
        systemMessage('Be brief.'),
        systemMessage('Answer in English.'),
        userMessage('What is this?', [
          imageData('image/jpeg', bytes),
          imageUrl('https://example.com/a.png'),
          { kind: 'image', url: 'gs://bucket/b.png', mediaType: 'image/png' },
        ]),
      ]),
    );
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in English.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is this?' },
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4A==' } },
            { fileData: { fileUri: 'https://example.com/a.png' } },
            { fileData: { mimeType: 'image/png', fileUri: 'gs://bucket/b.png' } },
          ],
        },
      ],
    });
  });

  test('assistant turn: thought parts, text, signature-only part, calls with signatures; tool results merged with the next prompt', async () => {
    const history: Message[] = [
      userMessage('Weather in Lagos and Accra?'),
      {
        role: 'assistant',
        content: 'Checking both.',
        thinking: [
          signedThinking('Two cities: two calls.', 'sig-thought'),
          redactedThinking('opaque-from-another-provider'),
          thinkingText('Unsigned thought.'),
          { signature: 'sig-trailing' },
        ],
        toolCalls: [
          {
            id: 'get_weather_1',
            name: 'get_weather',
            args: '{"city":"Lagos"}',
            signature: 'sig-1',
          },
          { id: 'get_weather_2', name: 'get_weather', args: ' ' },
        ],
      },
      toolResultMessage({ id: 'get_weather_1', name: 'get_weather' }, 'sunny'),
      { role: 'tool', content: 'rainy', toolCallId: 'get_weather_2' },
      userMessage('And tomorrow?'),
    ];
    const body = await sent(request(history, { tools: [weather] }));
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Lagos and Accra?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Two cities: two calls.', thought: true, thoughtSignature: 'sig-thought' },
          { text: 'Unsigned thought.', thought: true },
          { text: 'Checking both.' },
          { text: '', thoughtSignature: 'sig-trailing' },
          {
            functionCall: { name: 'get_weather', args: { city: 'Lagos' }, id: 'get_weather_1' },
            thoughtSignature: 'sig-1',
          },
          { functionCall: { name: 'get_weather', args: {}, id: 'get_weather_2' } },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'get_weather',
              id: 'get_weather_1',
              response: { result: 'sunny' },
            },
          },
          {
            functionResponse: {
              name: 'get_weather',
              id: 'get_weather_2',
              response: { result: 'rainy' },
            },
          },
          { text: 'And tomorrow?' },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather of a city.',
            parameters: {
              type: 'OBJECT',
              properties: { city: { type: 'STRING' } },
              required: ['city'],
            },
          },
        ],
      },
    ]);
    expect(body.generationConfig).toBeUndefined();
  });

  test('an assistant message with nothing Gemini can take is left out; an empty prompt is an empty text part', async () => {
    const body = await sent(
      request([
        userMessage('a'),
        { role: 'assistant', thinking: [redactedThinking('x')] },
        userMessage(''),
      ]),
    );
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'a' }, { text: '' }] }]);
  });

  test.each([
    [
      'args that are not JSON',
      [{ role: 'assistant', toolCalls: [{ id: 'c', name: 't', args: '{"a":' }] }],
      'history message 0: toolCalls[0].args is not valid JSON',
    ],
    [
      'args that are not an object',
      [{ role: 'assistant', toolCalls: [{ id: 'c', name: 't', args: '[1]' }] }],
      'history message 0: toolCalls[0].args must be a JSON object',
    ],
    [
      'a tool result whose tool name cannot be found',
      [{ role: 'tool', content: 'x', toolCallId: 'nope' }],
      'history message 0: toolName is required',
    ],
  ] as [string, Message[], string][])(
    '%s fails before any request with HistoryFormatError',
    async (_label, history, message) => {
      const error = await rejection(modelFor(server).generate(request(history)));
      expect(HistoryFormatError.is(error)).toBe(true);
      expect((error as Error).message).toContain(message);
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe('tools', () => {
  test('a schema the dialect cannot express fails before any request, naming the tool', async () => {
    const tree = {
      name: 'tree',
      description: 'A recursive tree.',
      schema: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#' } } },
      },
    };
    const error = await rejection(
      modelFor(server).generate(request([userMessage('x')], { tools: [tree] })),
    );
    expect((error as Error).message).toBe(
      'gemini: tool "tree" schema: recursive $ref "#" cannot be inlined',
    );
    expect(server.requests).toHaveLength(0);
  });

  test('an empty description and a property-less object schema are omitted', async () => {
    const body = await sent(
      request([userMessage('x')], {
        tools: [{ name: 'now', description: '', schema: { type: 'object', properties: {} } }],
      }),
    );
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'now' }] }]);
  });
});
