/**
 * The Gemini `generateContent` wire on our own fixtures written from the documented format
 * (test/src/providers/gemini/fixtures): text with thought tokens kept out of the output count, a
 * function call carrying a `thoughtSignature` that goes back on the next turn, parallel calls
 * where only the first is signed, structured output, and 404/400 error bodies. Streams are in
 * documented-wire-stream.test.ts; recorded traffic runs in `npm run test:recorded`.
 */
import { ModelHTTPError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireResponse } from '../../../support/wire-response';
import { API_KEY, jsonReply, modelFor, ownText, rejection, request } from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const own = (file: string): unknown => JSON.parse(ownText(file));

test('text: content, usage with thought tokens as output and reasoning, finish reason stop, the model version', async () => {
  server.push(jsonReply(own('text.json')));
  const response = await modelFor(server).generate(request([userMessage('Good evening!')]));
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Good evening! What shall we cook tonight?' },
    usage: { inputTokens: 7, outputTokens: 37, reasoningTokens: 27 },
    finishReason: 'stop',
    modelName: 'gemini-own-flash',
    responseId: 'own-text-01',
  });
});

test('text: POST models/<model>:generateContent with x-goog-api-key and user contents', async () => {
  server.push(jsonReply(own('text.json')));
  await modelFor(server).generate(request([userMessage('Good evening!')]));
  const sent = server.requests[0];
  expect([sent?.method, sent?.url]).toEqual([
    'POST',
    '/v1beta/models/gemini-2.5-flash:generateContent',
  ]);
  expect(sent?.headers['x-goog-api-key']).toBe(API_KEY);
  expect((sent?.json as { contents: unknown }).contents).toEqual([
    { role: 'user', parts: [{ text: 'Good evening!' }] },
  ]);
});

test('a function call with a thoughtSignature: STOP means tool_calls; the signature stays on the call', async () => {
  server.push(jsonReply(own('tool-call.json')));
  const response = await modelFor(server, { model: 'gemini-own-pro' }).generate(
    request([userMessage('Paella for four?')]),
  );
  expect(wireResponse(response)).toEqual({
    message: {
      role: 'assistant',
      toolCalls: [
        {
          id: 'find_recipe_1',
          name: 'find_recipe',
          args: '{"dish":"paella","servings":4}',
          signature: 'T3duU2lnbmF0dXJlLWZpbmQtcmVjaXBlLTAx',
        },
      ],
    },
    usage: { inputTokens: 48, outputTokens: 114, reasoningTokens: 96 },
    finishReason: 'tool_calls',
    modelName: 'gemini-own-pro',
    responseId: 'own-tool-01',
  });
});

test('the signed call goes back on the next turn with its thoughtSignature, then the function response', async () => {
  server.push(
    jsonReply(own('tool-call.json')),
    jsonReply(own('text.json')), // any answer will do for the second turn
  );
  const model = modelFor(server, { model: 'gemini-own-pro' });
  const first = await model.generate(request([userMessage('Paella for four?')]));
  const call = first.message.toolCalls?.[0];
  await model.generate(
    request([
      userMessage('Paella for four?'),
      first.message,
      { role: 'tool', toolCallId: call?.id, toolName: 'find_recipe', content: 'rice, saffron' },
    ]),
  );
  const contents = (server.requests[1]?.json as { contents: unknown[] }).contents;
  expect(contents[1]).toEqual({
    role: 'model',
    parts: [
      {
        functionCall: {
          id: 'find_recipe_1',
          name: 'find_recipe',
          args: { dish: 'paella', servings: 4 },
        },
        thoughtSignature: 'T3duU2lnbmF0dXJlLWZpbmQtcmVjaXBlLTAx',
      },
    ],
  });
  expect(contents[2]).toMatchObject({
    role: 'user',
    parts: [{ functionResponse: { name: 'find_recipe' } }],
  });
});

test('parallel calls: numbered ids in order, args {} when absent; only the first is signed', async () => {
  server.push(jsonReply(own('parallel-tools.json')));
  const response = await modelFor(server).generate(request([userMessage('Roll three dice.')]));
  expect(wireResponse(response).message.toolCalls).toEqual([
    {
      id: 'roll_die_1',
      name: 'roll_die',
      args: '{}',
      signature: 'T3duU2lnbmF0dXJlLXJvbGwtZGllLTAx',
    },
    { id: 'roll_die_2', name: 'roll_die', args: '{}' },
    { id: 'roll_die_3', name: 'roll_die', args: '{}' },
  ]);
  expect(response.finishReason).toBe('tool_calls');
});

test('structured output: responseMimeType and responseJsonSchema go out; the JSON text is the content', async () => {
  server.push(jsonReply(own('structured-output.json')));
  const schema = {
    type: 'object',
    properties: { mountain: { type: 'string' }, metres: { type: 'integer' } },
    required: ['mountain', 'metres'],
  };
  const response = await modelFor(server).generate(
    request([userMessage('Highest mountain of the Americas?')], { outputSchema: schema }),
  );
  expect(JSON.parse(response.message.content ?? '')).toEqual({
    mountain: 'Aconcagua',
    metres: 6961,
  });
  expect((server.requests[0]?.json as { generationConfig: unknown }).generationConfig).toEqual({
    responseMimeType: 'application/json',
    responseJsonSchema: schema,
  });
});

test.each([
  [
    'error-404.json',
    404,
    'NOT_FOUND',
    'models/gemini-own-missing is not found for API version v1beta, or is not supported for generateContent.',
  ],
  [
    'error-400.json',
    400,
    'INVALID_ARGUMENT',
    'Request contains an invalid argument: the image URL could not be fetched.',
  ],
])(
  '%s: ModelHTTPError with the status string as code and the API message; not retryable',
  async (file, status, code, text) => {
    server.push(jsonReply(own(file), status));
    const error = await rejection(modelFor(server).generate(request([userMessage('hello')])));
    if (!ModelHTTPError.is(error))
      throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
    expect([error.status, error.code, error.retryable, error.provider, error.message]).toEqual([
      status,
      code,
      false,
      'gemini',
      `gemini: HTTP ${status}: ${text}`,
    ]);
  },
);
