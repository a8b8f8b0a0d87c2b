/**
 * Request translation: the exact body, path and headers the adapter sends for messages, images,
 * tools and the output schema (spec §25).
 */
import { imageData, imageUrl, signedThinking, ConfigError } from 'golem';
import {
  assistantMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
} from '../../../../src/core/contract/message';
import type { ModelRequest } from 'golem';
import { openai, openaiCompatible, type OpenAIOptions } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { completion } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: Partial<OpenAIOptions> = {}) {
  return openai({
    model: 'gpt-4o-mini',
    preset: 'openai',
    apiKey: 'sk-test',
    baseURL: server.url,
    ...options,
  });
}

async function sent(request: ModelRequest, options: Partial<OpenAIOptions> = {}): Promise<unknown> {
  server.push({ body: JSON.stringify(completion({ content: 'ok' })) });
  await model(options).generate(request);
  return server.requests.at(-1)?.json;
}

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

test('POSTs to {baseURL}/chat/completions with bearer auth and JSON content type', async () => {
  await sent(hi, {
    baseURL: `${server.url}/v1/`,
    organization: 'org-1',
    headers: { 'x-trace': 't1' },
  });
  const request = server.requests[0];
  expect(request?.method).toBe('POST');
  expect(request?.url).toBe('/v1/chat/completions');
  expect(request?.headers.authorization).toBe('Bearer sk-test');
  expect(request?.headers['openai-organization']).toBe('org-1');
  expect(request?.headers['x-trace']).toBe('t1');
  expect(request?.headers['content-type']).toBe('application/json');
});

test('a local preset without a key sends no Authorization header', async () => {
  server.push({ body: JSON.stringify(completion({ content: 'ok' })) });
  const local = openaiCompatible('ollama', { model: 'llama3.2', baseURL: server.url });
  await local.generate(hi);
  expect(server.requests[0]?.headers.authorization).toBeUndefined();
  expect(local.name).toBe('ollama:llama3.2');
});

test('every role is translated; thinking is never replayed; empty args become "{}"', async () => {
  const body = await sent({
    messages: [
      systemMessage('Be brief.'),
      userMessage('What is 2+2? And the weather?'),
      {
        role: 'assistant',
        content: 'Let me check.',
        thinking: [signedThinking('plan', 'sig')],
        toolCalls: [
          { id: 'call_a', name: 'add', args: '{"a":2,"b":2}' },
          { id: 'call_b', name: 'weather', args: ' ' },
        ],
      },
      toolResultMessage({ id: 'call_a', name: 'add' }, '4'),
      toolResultMessage({ id: 'call_b', name: 'weather' }, 'sunny'),
      assistantMessage('2+2 is 4 and it is sunny.'),
      userMessage('Thanks'),
    ],
    tools: [],
  });
  expect(body).toEqual({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is 2+2? And the weather?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } },
          { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '4' },
      { role: 'tool', tool_call_id: 'call_b', content: 'sunny' },
      { role: 'assistant', content: '2+2 is 4 and it is sunny.' },
      { role: 'user', content: 'Thanks' },
    ],
  });
});

test('an assistant message with only tool calls sends no content field', async () => {
  const body = (await sent({
    messages: [
      userMessage('go'),
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'go', args: '{}' }] },
      toolResultMessage({ id: 'c1', name: 'go' }, 'done'),
    ],
    tools: [],
  })) as { messages: unknown[] };
  expect(body.messages[1]).toEqual({
    role: 'assistant',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'go', arguments: '{}' } }],
  });
});

test('image parts: URL as image_url, inline bytes as a base64 data URL, text first', async () => {
  const body = (await sent({
    messages: [
      userMessage('compare', [
        imageUrl('https://example.com/a.png'),
        imageData('image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47])),
      ]),
    ],
    tools: [],
  })) as { messages: unknown[] };
  expect(body.messages[0]).toEqual({
    role: 'user',
    content: [
      { type: 'text', text: 'compare' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
    ],
  });
});

test('an invalid image part fails before any request with model ConfigError naming it', async () => {
  const error: unknown = await model()
    .generate({ messages: [userMessage('x', [{ kind: 'image' }])], tools: [] })
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect((error as Error).message).toBe(
    'openai: message 0 part 0: image part has neither url nor data; set exactly one',
  );
  expect(server.requests).toHaveLength(0);
});

test('a tool result without toolCallId fails before any request', async () => {
  const error: unknown = await model()
    .generate({ messages: [{ role: 'tool', content: 'x' }], tools: [] })
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect(server.requests).toHaveLength(0);
});

test('tools are function tools with name, description and parameters; no strict by default', async () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const body = (await sent({
    messages: [userMessage('weather?')],
    tools: [{ name: 'weather', description: 'Current weather.', schema }],
  })) as { tools: unknown };
  expect(body.tools).toEqual([
    {
      type: 'function',
      function: { name: 'weather', description: 'Current weather.', parameters: schema },
    },
  ]);
});

test('strictSchemas: tools get strict:true and schemas compiled to the strict dialect', async () => {
  const body = (await sent(
    {
      messages: [userMessage('weather?')],
      tools: [
        {
          name: 'weather',
          description: 'Current weather.',
          schema: {
            type: 'object',
            properties: { city: { type: 'string', minLength: 1 }, unit: { enum: ['C', 'F'] } },
            required: ['city'],
          },
        },
      ],
    },
    { strictSchemas: true },
  )) as { tools: unknown };
  expect(body.tools).toEqual([
    {
      type: 'function',
      function: {
        name: 'weather',
        description: 'Current weather.',
        strict: true,
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { enum: ['C', 'F', null] } },
          required: ['city', 'unit'],
          additionalProperties: false,
        },
      },
    },
  ]);
});

test('strictSchemas with a schema strict mode cannot express fails before any request', async () => {
  const error: unknown = await model({ strictSchemas: true })
    .generate({
      messages: [userMessage('x')],
      tools: [
        {
          name: 'tag',
          description: '',
          schema: { type: 'object', additionalProperties: { type: 'string' } },
        },
      ],
    })
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect((error as Error).message).toContain(
    'tool "tag": schema at # cannot be used in OpenAI strict mode',
  );
  expect(server.requests).toHaveLength(0);
});

test('outputSchema becomes response_format json_schema named "output", strict, compiled', async () => {
  const body = (await sent({
    messages: [userMessage('a city')],
    tools: [],
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
      required: ['city'],
    },
  })) as { response_format: unknown };
  expect(body.response_format).toEqual({
    type: 'json_schema',
    json_schema: {
      name: 'output',
      strict: true,
      schema: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          population: { type: ['integer', 'null'], minimum: 0 },
        },
        required: ['city', 'population'],
        additionalProperties: false,
      },
    },
  });
});

test('strictSchemas: nulls written for optional arguments are removed from the call args', async () => {
  server.push({
    body: JSON.stringify(
      completion(
        {
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Oslo","unit":null}' },
            },
          ],
        },
        'tool_calls',
      ),
    ),
  });
  const response = await model({ strictSchemas: true }).generate({
    messages: [userMessage('weather?')],
    tools: [
      {
        name: 'weather',
        description: 'Current weather.',
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { enum: ['C', 'F'] } },
          required: ['city'],
        },
      },
    ],
  });
  expect(response.message.toolCalls).toEqual([
    { id: 'call_1', name: 'weather', args: '{"city":"Oslo"}' },
  ]);
});
