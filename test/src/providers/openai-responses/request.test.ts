/**
 * Request encoding of the Responses adapter: the conversation as input items (reasoning replayed
 * only to its producer, function calls and outputs), parts as input content, server-side chaining
 * with `previous_response_id`, strict schemas, hosted tools, and every up-front refusal (nothing
 * is sent).
 */
import {
  UnsupportedPartError,
  audioData,
  documentData,
  documentUrl,
  imageData,
  imageUrl,
  webSearchTool,
  type Message,
  ConfigError,
} from 'golem';
import { openaiResponses } from 'golem/providers/openai-responses';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { ask, jsonReply, modelFor, sent } from './support';
import { UnsupportedHostedToolError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const REASONING = {
  text: 'Look it up.',
  signature: 'enc-1',
  id: 'rs_1',
  provider: 'openai-responses',
  model: 'gpt-5',
};
const history: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Lagos?' },
  {
    role: 'assistant',
    toolCalls: [{ id: 'call_1', name: 'get_weather', args: '{"city":"Lagos"}' }],
    thinking: [
      REASONING,
      { ...REASONING, id: 'rs_other', model: 'gpt-4.1' }, // another model: not replayed
      { text: 'from Claude', signature: 'sig', provider: 'anthropic', model: 'claude-x' },
      { text: 'no id', signature: 'enc-2', provider: 'openai-responses', model: 'gpt-5' },
    ],
    responseId: 'resp_1',
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'sunny, 31°C' },
];

test('a tool round trip: reasoning of the same model replayed with its encrypted content, then the call and its output', async () => {
  server.push(jsonReply('response-text.json'));
  await modelFor(server, { model: 'gpt-5' }).generate({ messages: history, tools: [] });
  expect(sent(server)).toEqual({
    model: 'gpt-5',
    instructions: 'Be brief.',
    input: [
      { role: 'user', content: 'Weather in Lagos?' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Look it up.' }],
        encrypted_content: 'enc-1',
      },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Lagos"}',
      },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny, 31°C' },
    ],
    include: ['reasoning.encrypted_content'],
    store: false,
  });
});

test('an assistant text turn replays as an assistant message; reasoning without text or calls after it is left out', async () => {
  server.push(jsonReply('response-text.json'));
  await modelFor(server, { model: 'gpt-5' }).generate({
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', thinking: [REASONING] },
      { role: 'assistant', content: 'b', thinking: [REASONING] },
      { role: 'user', content: 'c' },
    ],
    tools: [],
  });
  expect(sent(server).input).toEqual([
    { role: 'user', content: 'a' },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Look it up.' }],
      encrypted_content: 'enc-1',
    },
    { role: 'assistant', content: 'b' },
    { role: 'user', content: 'c' },
  ]);
});

test("previousResponseId 'auto': stored responses, previous_response_id of the last resp_ message, only later messages sent", async () => {
  server.push(jsonReply('response-text.json'));
  await modelFor(server, { model: 'gpt-5', previousResponseId: 'auto' }).generate({
    messages: history,
    tools: [],
  });
  expect(sent(server)).toEqual({
    model: 'gpt-5',
    instructions: 'Be brief.',
    previous_response_id: 'resp_1',
    input: [{ type: 'function_call_output', call_id: 'call_1', output: 'sunny, 31°C' }],
    store: true,
  });
});

test('with store on, a reasoning item without encrypted content is replayed by id', async () => {
  server.push(jsonReply('response-text.json'));
  const block = { text: 'Plan.', id: 'rs_9', provider: 'openai-responses', model: 'gpt-own' };
  await modelFor(server, { store: true }).generate({
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b', thinking: [block] },
    ],
    tools: [],
  });
  expect((sent(server).input as unknown[])[1]).toEqual({
    type: 'reasoning',
    id: 'rs_9',
    summary: [{ type: 'summary_text', text: 'Plan.' }],
  });
});

test('parts: images as input_image, documents as input_file by data (with a filename) or URL', async () => {
  server.push(jsonReply('response-text.json'));
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
  const docx = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);
  await modelFor(server).generate({
    messages: [
      {
        role: 'user',
        content: 'Compare.',
        parts: [
          imageUrl('https://example.com/a.png'),
          imageData('image/png', new Uint8Array([1, 2, 3])),
          documentData('application/pdf', pdf, { name: 'report.pdf' }),
          documentData(
            'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            docx,
          ),
          documentUrl('https://example.com/letter.pdf', { name: 'letter.pdf' }),
        ],
      },
    ],
    tools: [],
  });
  expect(sent(server).input).toEqual([
    {
      role: 'user',
      content: [
        { type: 'input_text', text: 'Compare.' },
        { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
        { type: 'input_image', image_url: 'data:image/png;base64,AQID', detail: 'auto' },
        {
          type: 'input_file',
          filename: 'report.pdf',
          file_data: 'data:application/pdf;base64,JVBERg==',
        },
        {
          type: 'input_file',
          filename: 'document.docx',
          file_data:
            'data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,UEsDBA==',
        },
        { type: 'input_file', file_url: 'https://example.com/letter.pdf', filename: 'letter.pdf' },
      ],
    },
  ]);
});

test('audio is refused up front with UnsupportedPartError naming the provider and the part', async () => {
  const request = {
    messages: [
      {
        role: 'user' as const,
        content: 'Transcribe',
        parts: [audioData('audio/wav', new Uint8Array([1]))],
      },
    ],
    tools: [],
  };
  const error: unknown = await modelFor(server)
    .generate(request)
    .catch((e: unknown) => e);
  expect(UnsupportedPartError.is(error)).toBe(true);
  expect(error).toMatchObject({
    provider: 'openai-responses',
    partKind: 'audio',
    location: { message: 0, part: 0 },
  });
  expect((error as Error).message).toBe(
    'openai-responses: cannot send message 0 part 0 (audio, audio/wav, 1 bytes): the Responses API takes no audio input; use golem/providers/openai (input_audio, WAV or MP3) or transcribe it first',
  );
  expect(server.requests).toHaveLength(0);
});

test('strictSchemas: function tools compiled to the strict dialect with strict: true; nulls stripped from args', async () => {
  server.push({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'resp_s',
      status: 'completed',
      output: [
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":"x","b":null}' },
      ],
    }),
  });
  const schema = {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'string' } },
    required: ['a'],
  };
  const response = await modelFor(server, { strictSchemas: true }).generate(
    ask('x', { tools: [{ name: 'f', description: '', schema }] }),
  );
  expect(sent(server).tools).toEqual([
    {
      type: 'function',
      name: 'f',
      strict: true,
      parameters: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: ['string', 'null'] } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    },
  ]);
  expect(response.message.toolCalls).toEqual([{ id: 'c1', name: 'f', args: '{"a":"x"}' }]);
});

test.each<[string, () => unknown, string]>([
  [
    'blocked domains have no web_search equivalent',
    () =>
      openaiResponses({ model: 'm', apiKey: 'k' }).generate(
        ask('x', { hostedTools: [webSearchTool({ blockedDomains: ['a.com'] })] }),
      ),
    'openai-responses: cannot offer the hosted tool "web_search": web_search takes an allow-list only; use allowedDomains instead of blockedDomains',
  ],
  [
    'a file search without vector stores',
    () =>
      openaiResponses({ model: 'm', apiKey: 'k' }).generate(
        ask('x', { hostedTools: [{ type: 'file_search', vectorStoreIds: [] }] }),
      ),
    'openai-responses: hostedTools[0]: file_search needs vectorStoreIds: at least one vector store id',
  ],
  [
    'extraBody replacing the input',
    () =>
      openaiResponses({ model: 'm', apiKey: 'k' }).generate(
        ask('x', { settings: { extraBody: { input: [] } } }),
      ),
    'openai-responses: settings.extraBody cannot set "input"; the adapter owns it',
  ],
  [
    'a tool result without its call id',
    () =>
      openaiResponses({ model: 'm', apiKey: 'k' }).generate({
        messages: [{ role: 'tool', content: 'x' }],
        tools: [],
      }),
    'openai-responses: message 0: a tool result needs the toolCallId of the call it answers',
  ],
  [
    'a malformed part',
    () =>
      openaiResponses({ model: 'm', apiKey: 'k' }).generate({
        messages: [{ role: 'user', parts: [{ kind: 'document' }] }],
        tools: [],
      }),
    'openai-responses: message 0 part 0: document part has neither url nor data; set exactly one',
  ],
])('refused before sending: %s', async (_name, call, message) => {
  const error = await Promise.resolve()
    .then(call)
    .catch((e: unknown) => e);
  expect(
    ConfigError.is(error, 'model') ||
      UnsupportedHostedToolError.is(error) ||
      UnsupportedPartError.is(error),
  ).toBe(true);
  expect((error as Error).message).toBe(message);
});

test.each<[string, Record<string, unknown>, string]>([
  ['no model', {}, 'openai-responses: model is required (a non-empty string)'],
  [
    'chaining without store',
    { model: 'm', previousResponseId: 'auto', store: false },
    'openai-responses: previousResponseId "auto" needs stored responses; leave store unset or set it to true',
  ],
  [
    'an unknown chaining mode',
    { model: 'm', previousResponseId: 'always' },
    'openai-responses: previousResponseId must be "auto" or "off"',
  ],
  [
    'a bad summary',
    { model: 'm', reasoningSummary: 'long' },
    'openai-responses: reasoningSummary must be "auto", "concise" or "detailed"',
  ],
  [
    'a base URL with a query',
    { model: 'm', baseURL: 'https://x.test/v1?k=1' },
    'openai-responses: baseURL must not carry a query string or fragment',
  ],
  [
    'a negative timeout',
    { model: 'm', timeout: -1 },
    'openai-responses: timeout must be a whole number ≥ 0',
  ],
  [
    'an out-of-range temperature',
    { model: 'm', settings: { temperature: 3 } },
    'openai-responses: settings.temperature must be between 0 and 2, got 3',
  ],
])('options: %s is a model ConfigError', (_name, options, message) => {
  expect(() => openaiResponses(options as never)).toThrow(message);
});

test('encrypted reasoning is requested by default for reasoning models only, and never with stored responses', async () => {
  for (const [model, extra, expected] of [
    ['gpt-4.1', {}, undefined],
    ['o4-mini', {}, ['reasoning.encrypted_content']],
    ['gpt-5', { store: true }, undefined],
    ['gpt-4.1', { encryptedReasoning: true }, ['reasoning.encrypted_content']],
  ] as const) {
    server.push(jsonReply('response-text.json'));
    await modelFor(server, { model, ...extra }).generate(ask('x'));
    expect(sent(server, server.requests.length - 1).include).toEqual(expected);
  }
});
