/**
 * The Anthropic Messages API wire features, on our own fixtures written from the documented
 * format (test/src/providers/anthropic/fixtures): non-streamed text, parallel tool calls,
 * structured output, signed thinking replayed on the next turn, and 400/404 error bodies. The
 * same features on recorded third-party traffic run in `npm run test:recorded`.
 */
import { Agent, ModelHTTPError, type ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireResponse } from '../../../support/wire-response';
import { API_KEY, jsonReply, modelFor, ownFixture } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const ask = (text: string, more: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [],
  ...more,
});

test('text: content, usage, finish reason stop and the model name of the message', async () => {
  server.push(jsonReply(ownFixture('message-text.json')));
  const response = await modelFor(server).generate(ask('When does water boil?'));
  expect(response).toEqual({
    message: { role: 'assistant', content: 'The kettle boils at 100 °C at sea level.' },
    usage: { inputTokens: 14, outputTokens: 13 },
    finishReason: 'stop',
    modelName: 'claude-own-test-1',
    responseId: 'msg_own_text_01',
  });
});

test('text: POST /v1/messages with x-api-key, anthropic-version and the minimal JSON body', async () => {
  server.push(jsonReply(ownFixture('message-text.json')));
  await modelFor(server).generate(ask('When does water boil?'));
  const request = server.requests[0];
  expect([request?.method, request?.url]).toEqual(['POST', '/v1/messages']);
  expect(request?.headers['x-api-key']).toBe(API_KEY);
  expect(request?.headers['anthropic-version']).toBe('2023-06-01');
  expect(request?.headers['content-type']).toBe('application/json');
  expect(request?.headers.accept).toBe('application/json');
  expect(request?.headers.authorization).toBeUndefined();
  expect(request?.json).toEqual({
    model: 'claude-test',
    max_tokens: 1024,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'When does water boil?' }] }],
    stream: false,
  });
});

test('parallel tool_use blocks: every call in order with its id and input as JSON text', async () => {
  server.push(jsonReply(ownFixture('message-parallel-tools.json')));
  const tide = {
    name: 'tide_table',
    description: 'Tide times of a harbour.',
    schema: {
      type: 'object',
      properties: { harbour: { type: 'string' }, days: { type: 'integer' } },
      required: ['harbour', 'days'],
    },
  };
  const response = await modelFor(server).generate(ask('Tides?', { tools: [tide] }));
  expect(response).toEqual({
    message: {
      role: 'assistant',
      content: 'I will look up all three harbours at once.',
      toolCalls: [
        { id: 'toolu_own_harbour_a', name: 'tide_table', args: '{"harbour":"Porto","days":1}' },
        { id: 'toolu_own_harbour_b', name: 'tide_table', args: '{"harbour":"Mindelo","days":2}' },
        { id: 'toolu_own_harbour_c', name: 'tide_table', args: '{"harbour":"Dakar","days":3}' },
      ],
    },
    usage: { inputTokens: 310, outputTokens: 121 },
    finishReason: 'tool_calls',
    modelName: 'claude-own-test-1',
    responseId: 'msg_own_tools_01',
  });
  const sent = server.requests[0]?.json as { tools: unknown[]; tool_choice?: unknown };
  expect(sent.tools).toEqual([
    {
      name: 'tide_table',
      description: 'Tide times of a harbour.',
      input_schema: tide.schema,
    },
  ]);
  expect(sent.tool_choice).toBeUndefined();
});

test('structured output: output_config.format json_schema goes out; the JSON text is the content', async () => {
  server.push(jsonReply(ownFixture('message-structured-output.json')));
  const schema = {
    type: 'object',
    properties: { title: { type: 'string' }, minutes: { type: 'integer' } },
    required: ['title', 'minutes'],
    additionalProperties: false,
  };
  const response = await modelFor(server).generate(ask('A film?', { outputSchema: schema }));
  expect(response.message).toEqual({
    role: 'assistant',
    content: '{"title":"Night Train","minutes":95}',
  });
  expect(JSON.parse(response.message.content ?? '')).toEqual({ title: 'Night Train', minutes: 95 });
  expect((server.requests[0]?.json as { output_config: unknown }).output_config).toEqual({
    format: { type: 'json_schema', schema },
  });
});

test('thinking: the signed thinking block comes before the text; the request enables thinking', async () => {
  server.push(jsonReply(ownFixture('message-thinking.json')));
  const response = await modelFor(server).generate(
    ask('Jars left?', {
      settings: { maxTokens: 4096, thinking: { mode: 'enabled', budgetTokens: 1024 } },
    }),
  );
  expect(wireResponse(response).message).toEqual({
    role: 'assistant',
    content: '75 jars are left.',
    thinking: [
      {
        text: 'Seven crates of twelve jars is 84 jars; minus the 9 broken ones leaves 75.',
        signature: 'b3duLXNpZ25hdHVyZS1mb3ItdGhlLWphcnMtYW5zd2Vy',
      },
    ],
  });
  expect(server.requests[0]?.json).toMatchObject({
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 1024 },
  });
});

test('thinking: a continued conversation replays the signed thinking block of the earlier answer first', async () => {
  server.push(
    jsonReply(ownFixture('message-thinking.json')),
    jsonReply(ownFixture('message-text.json')),
  );
  const agent = new Agent({
    model: modelFor(server),
    modelSettings: { thinking: { mode: 'enabled', budgetTokens: 1024 }, maxTokens: 4096 },
  });
  const first = await agent.run('How many jars are left?');
  await agent.run('Thanks!', { history: first.messages });
  const answered = JSON.parse(ownFixture('message-thinking.json')) as { content: unknown[] };
  expect((server.requests[1]?.json as { messages: unknown[] }).messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'How many jars are left?' }] },
    { role: 'assistant', content: answered.content },
    { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
  ]);
});

test.each([
  [
    'error-400.json',
    400,
    'invalid_request_error',
    'max_tokens: must be greater than or equal to 1',
  ],
  ['error-404.json', 404, 'not_found_error', 'model: claude-does-not-exist'],
])(
  '%s: ModelHTTPError with the status, the error type as code and the API message; not retryable',
  async (file, status, code, message) => {
    const body = ownFixture(file);
    server.push(jsonReply(body, status));
    const error: unknown = await modelFor(server)
      .generate(ask('hello'))
      .catch((e: unknown) => e);
    if (!ModelHTTPError.is(error))
      throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
    expect({
      status: error.status,
      code: error.code,
      retryable: error.retryable,
      provider: error.provider,
      message: error.message,
      body: error.body,
    }).toEqual({
      status,
      code,
      retryable: false,
      provider: 'anthropic',
      message: `anthropic: HTTP ${status}: ${message}`,
      body,
    });
  },
);
