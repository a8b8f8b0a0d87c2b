/**
 * Every recorded non-streaming Anthropic fixture goes through `generate`: the request body the
 * adapter sends equals the recorded request for the same input, and the normalised response (or
 * typed error) equals the fixture's `*.expected.json`.
 */
import { ModelHTTPError, type ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { API_KEY, jsonReply, modelFor } from '../../../src/providers/anthropic/support';
import { recordedView } from '../../recorded-view';
import { expectedResponse, fixtureJson, fixtureText } from './recorded';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const userText = (text: string): ModelRequest['messages'] => [{ role: 'user', content: text }];

test('a01 plain text: normalised text, usage, finish reason stop and model name', async () => {
  server.push(jsonReply(fixtureText('a01-text.json')));
  const response = await modelFor(server).generate({ messages: userText('Hi'), tools: [] });
  expect(recordedView(response, { provider: 'anthropic' })).toEqual(expectedResponse('a01-text'));
  expect(server.requests[0]?.json).toEqual({
    model: 'claude-test',
    max_tokens: 1024,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    stream: false,
  });
});

test('a01 request goes to POST /v1/messages with x-api-key, anthropic-version and JSON headers', async () => {
  server.push(jsonReply(fixtureText('a01-text.json')));
  await modelFor(server).generate({ messages: userText('Hi'), tools: [] });
  const request = server.requests[0];
  expect(request?.method).toBe('POST');
  expect(request?.url).toBe('/v1/messages');
  expect(request?.headers['x-api-key']).toBe(API_KEY);
  expect(request?.headers['anthropic-version']).toBe('2023-06-01');
  expect(request?.headers['content-type']).toBe('application/json');
  expect(request?.headers.accept).toBe('application/json');
  expect(request?.headers['anthropic-beta']).toBeUndefined();
  expect(request?.headers.authorization).toBeUndefined();
});

test('a03 parallel tool calls: the recorded request (minus tool_choice) and four calls in order', async () => {
  const recorded = fixtureJson('a03-parallel-tool-calls.request.json') as {
    system: string;
    tools: {
      name: string;
      description: string;
      input_schema: ModelRequest['tools'][0]['schema'];
    }[];
  };
  server.push(jsonReply(fixtureText('a03-parallel-tool-calls.json')));
  const tool = recorded.tools[0]!;
  const response = await modelFor(server, { model: 'claude-haiku-4-5' }).generate({
    messages: [
      { role: 'system', content: recorded.system },
      {
        role: 'user',
        content: 'Alice, Bob, Charlie and Daisy are a family. Who is the youngest?',
      },
    ],
    tools: [{ name: tool.name, description: tool.description, schema: tool.input_schema }],
    settings: { maxTokens: 4096 },
  });
  expect(recordedView(response, { provider: 'anthropic', model: 'claude-haiku-4-5' })).toEqual(
    expectedResponse('a03-parallel-tool-calls'),
  );
  // The contract has no tool choice: the adapter leaves `tool_choice` at the API default (auto).
  expect(server.requests[0]?.json).toEqual({ ...(recorded as object), tool_choice: undefined });
});

test('a07 structured output: output_config.format json_schema as recorded; the JSON text is the content', async () => {
  const recorded = fixtureJson('a07-structured-output.request.json') as {
    output_config: { format: { schema: ModelRequest['tools'][0]['schema'] } };
  };
  server.push(jsonReply(fixtureText('a07-structured-output.json')));
  const response = await modelFor(server, { model: 'claude-sonnet-4-5' }).generate({
    messages: userText('Return exactly this payment amount: 12.34'),
    tools: [],
    outputSchema: recorded.output_config.format.schema,
    settings: { maxTokens: 4096 },
  });
  expect(recordedView(response, { provider: 'anthropic', model: 'claude-sonnet-4-5' })).toEqual(
    expectedResponse('a07-structured-output'),
  );
  expect(server.requests[0]?.json).toEqual(recorded);
});

test('a08 thinking: the recorded thinking request and a signed thinking block before the text', async () => {
  server.push(jsonReply(fixtureText('a08-thinking.json')));
  const response = await modelFor(server, { model: 'claude-sonnet-4-5' }).generate({
    messages: userText('How do I cross the street?'),
    tools: [],
    settings: { maxTokens: 4096, thinking: { mode: 'enabled', budgetTokens: 1024 } },
  });
  expect(recordedView(response, { provider: 'anthropic', model: 'claude-sonnet-4-5' })).toEqual(
    expectedResponse('a08-thinking'),
  );
  expect(server.requests[0]?.json).toEqual(fixtureJson('a08-thinking.request.json'));
});

test('a11 image input: a URL part becomes an image block with a url source, as recorded', async () => {
  server.push(jsonReply(fixtureText('a11-image-input.json')));
  const url =
    'https://t3.ftcdn.net/jpg/00/85/79/92/360_F_85799278_0BBGV9OAdQDTLnKwAPBCcg1J7QtiieJY.jpg';
  const response = await modelFor(server, { model: 'claude-haiku-4-5' }).generate({
    messages: [
      { role: 'user', content: 'What is this vegetable?', parts: [{ kind: 'image', url }] },
    ],
    tools: [],
    settings: { maxTokens: 4096 },
  });
  expect(recordedView(response, { provider: 'anthropic', model: 'claude-haiku-4-5' })).toEqual(
    expectedResponse('a11-image-input'),
  );
  expect(server.requests[0]?.json).toEqual(fixtureJson('a11-image-input.request.json'));
});

test('a12 error 400: the recorded effort request; ModelHTTPError with the API message and type, not retryable', async () => {
  const body = fixtureText('a12-error-400.json');
  server.push(jsonReply(body, 400));
  const error: unknown = await modelFor(server, { model: 'claude-opus-4-6', effort: 'xhigh' })
    .generate({
      messages: userText('What is 2+2?'),
      tools: [],
      settings: { maxTokens: 4096 },
    })
    .catch((e: unknown) => e);
  expect(server.requests[0]?.json).toEqual(fixtureJson('a12-error-400.request.json'));
  expect(ModelHTTPError.is(error)).toBe(true);
  const http = error as ModelHTTPError;
  expect({
    status: http.status,
    code: http.code,
    retryable: http.retryable,
    provider: http.provider,
    message: http.message,
    body: http.body,
  }).toEqual({
    status: 400,
    code: 'invalid_request_error',
    retryable: false,
    provider: 'anthropic',
    message:
      "anthropic: HTTP 400: This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium.",
    body,
  });
});

test('a13 error 404: the recorded request; ModelHTTPError not_found_error, not retryable', async () => {
  const body = fixtureText('a13-error-404.json');
  server.push(jsonReply(body, 404));
  const error: unknown = await modelFor(server, { model: 'claude-sonet-4-5' })
    .generate({ messages: userText('hello'), tools: [], settings: { maxTokens: 4096 } })
    .catch((e: unknown) => e);
  expect(server.requests[0]?.json).toEqual(fixtureJson('a13-error-404.request.json'));
  expect(ModelHTTPError.is(error)).toBe(true);
  const http = error as ModelHTTPError;
  expect([http.status, http.code, http.retryable, http.message]).toEqual([
    404,
    'not_found_error',
    false,
    'anthropic: HTTP 404: model: claude-sonet-4-5',
  ]);
});
