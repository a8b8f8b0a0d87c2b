/**
 * The recorded OpenAI / OpenAI-compatible error fixtures (o11–o13 in
 * ../shared/fixtures/providers/openai) through the adapter: each becomes a `ModelHTTPError` with
 * the recorded status, code and message, classified retryable or not; where the fixture recorded
 * its request, the body we send for the same conversation equals it (but for `stream: false`).
 */
import { ModelHTTPError } from 'golem';
import { userMessage, systemMessage } from '../../../../src/core/contract/message';
import type { ModelRequest } from 'golem';
import { openai, openaiCompatible } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { omit } from '../../../src/providers/openai/support';
import { fixtureBytes, fixtureJson, type ExpectedError } from './recorded';

const DIR = 'openai';
const JSON_TYPE = { 'content-type': 'application/json' };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(name: string) {
  return openai({ model: name, preset: 'openai', apiKey: 'sk-test-key', baseURL: server.url });
}

const ask = (text: string): ModelRequest => ({ messages: [userMessage(text)], tools: [] });

async function expectHttpError(
  name: string,
  run: () => Promise<unknown>,
  provider = 'openai',
): Promise<ModelHTTPError> {
  const expected = (
    fixtureJson(DIR, `${name}.expected.json`) as { expected: { error: ExpectedError } }
  ).expected.error;
  const error: unknown = await run().catch((e: unknown) => e);
  if (!ModelHTTPError.is(error)) throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
  const envelope = expected.body.error;
  expect({ status: error.status, code: error.code, message: error.message }).toEqual({
    status: expected.http_status,
    code: String(envelope.code ?? envelope.type),
    message: `${provider}: HTTP ${expected.http_status}: ${envelope.message}`,
  });
  return error;
}

test('o11 HTTP 400 invalid_request_error: code, message, not retryable', async () => {
  server.push({ status: 400, headers: JSON_TYPE, body: fixtureBytes(DIR, 'o11-error-400.json') });
  const error = await expectHttpError('o11-error-400', () =>
    model('gpt-5-mini').generate(ask('x')),
  );
  expect(error.retryable).toBe(false);
});

test('o12 HTTP 404 model_not_found: not retryable; request equal but for stream:false', async () => {
  server.push({ status: 404, headers: JSON_TYPE, body: fixtureBytes(DIR, 'o12-error-404.json') });
  const error = await expectHttpError('o12-error-404', () =>
    model('gpt-5.2-proo').generate(ask('hello')),
  );
  expect(error.retryable).toBe(false);
  expect(server.requests[0]?.json).toEqual(
    omit(fixtureJson(DIR, 'o12-error-404.request.json'), 'stream'),
  );
});

test('o13 OpenRouter 429 with a numeric code: retryable, code "429"', async () => {
  server.push({
    status: 429,
    headers: JSON_TYPE,
    body: fixtureBytes(DIR, 'o13-error-429-openrouter.json'),
  });
  const router = openaiCompatible('openrouter', {
    model: 'google/gemini-2.0-flash-exp:free',
    apiKey: 'sk-or-test-key',
    baseURL: server.url,
  });
  const error = await expectHttpError(
    'o13-error-429-openrouter',
    () =>
      router.generate({
        messages: [systemMessage('Be helpful.'), userMessage('Tell me a joke.')],
        tools: [],
      }),
    'openrouter',
  );
  expect(error.retryable).toBe(true);
  expect(server.requests[0]?.json).toEqual(
    omit(fixtureJson(DIR, 'o13-error-429-openrouter.request.json'), 'stream'),
  );
});
