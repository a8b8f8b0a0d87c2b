/**
 * Credentials stay out of everything a user or a log can see (issue 12): error messages, the
 * whole `cause` chain, `ModelHTTPError.body` and `code`, redirect locations and run events — the
 * API key in any form (spaces, padding, quotes, Latin-1), an access token, and configured
 * credential headers — wherever the server echoes them. The key travels only in the
 * `x-goog-api-key` header (`baseURL` refuses a query), so URLs carry no secret. A credential HTTP
 * cannot carry is a `model` `ConfigError` naming the header, never the value.
 */
import { Agent, isRetryable, type RunEvent, ConfigError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import type { GeminiOptions } from 'golem/providers/gemini';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import { visibleText } from '../../../support/visible-text';
import { chunk, modelFor, rejection, request, sse, sseReply } from './helpers';

let server: ReplayServer;
let other: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
  other = await startReplayServer();
});
afterEach(async () => {
  await server.close();
  await other.close();
});

const ask = request([userMessage('hi')]);

/** Asserts `secret` (as configured, and as sent: trimmed) appears nowhere in `value`. */
function expectNo(value: unknown, secret: string): void {
  const text = visibleText(value);
  expect(text).not.toContain(secret);
  expect(text).not.toContain(secret.trim());
  expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
}

const googleError = (code: number, status: string, message: string): Reply => ({
  status: code,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    error: {
      code,
      message,
      status,
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
    },
  }),
});

/** Replies that echo `secret` (as the server received it) back in every way a server can. */
const echoes: [string, (secret: string) => Reply, 'generate' | 'stream'][] = [
  [
    'a 400 error body',
    (s) => googleError(400, 'INVALID_ARGUMENT', `API key not valid: ${s}`),
    'generate',
  ],
  ['a 429 error status and RetryInfo', (s) => googleError(429, s, 'quota'), 'generate'],
  [
    'a 200 body that is not JSON',
    (s) => ({ headers: { 'content-type': 'application/json' }, body: `${s} is not JSON` }),
    'generate',
  ],
  [
    'a stream error frame with a code',
    (s) => sseReply(sse({ error: { code: 503, status: s, message: `for ${s}` } })),
    'stream',
  ],
  [
    'a stream error frame without a code',
    (s) => sseReply(sse({ error: { message: `for ${s}` } })),
    'stream',
  ],
  ['a stream frame that is not JSON', (s) => sseReply(`data: ${s} oops\n\n`), 'stream'],
  [
    'a stream frame that is not an object',
    (s) => sseReply(`data: ${JSON.stringify(s)}\n\n`),
    'stream',
  ],
];

function call(options: Partial<GeminiOptions>, kind: 'generate' | 'stream') {
  const model = modelFor(server, options);
  return kind === 'generate' ? model.generate(ask) : model.stream(ask, () => undefined);
}

describe.each([
  ['spaces', 'gm key with spaces 0123456789'],
  ['padding', '  gm-padded-0123456789  '],
  ['quotes and a backslash', 'gm-"quoted"\\-0123456789'],
  ['Latin-1 letters', 'gm-clé-ñandú-0123456789'],
])('an API key with %s', (_, key) => {
  const sent = key.trim();

  test.each(echoes)('echoed in %s: redacted everywhere', async (_what, reply, kind) => {
    server.push(reply(sent));
    const error = await rejection(call({ apiKey: key }, kind));
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe(sent);
    expect(server.requests[0]?.url).not.toContain(encodeURIComponent(sent));
    expectNo(error, key);
  });

  test('in the path of a cross-origin redirect: the location is redacted', async () => {
    server.push({
      status: 307,
      headers: {
        location: `${other.url}/${encodeURIComponent(sent)}/x?key=${encodeURIComponent(sent)}`,
      },
    });
    const error = await rejection(call({ apiKey: key }, 'generate'));
    expectNo(error, key);
    expect(visibleText(error)).not.toContain(encodeURIComponent(sent));
    expect(other.requests).toEqual([]);
  });

  test('run events and the RunError of an Agent carry no key', async () => {
    server.push(googleError(400, 'INVALID_ARGUMENT', `API key not valid: ${sent}`));
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: modelFor(server, { apiKey: key }),
      onEvent: (event) => events.push(event),
    });
    const error = await rejection(agent.run('hi'));
    const errors = events.flatMap((event) => ('error' in event ? [event.error] : []));
    expect(errors.some((error) => error !== undefined)).toBe(true);
    for (const error of errors) expectNo(error, key);
    expect(JSON.stringify(events)).not.toContain(sent);
    expectNo(error, key);
  });
});

describe('other credentials', () => {
  const token = 'ya29.access-token-0123456789';
  const proxy = 'proxy-secret-0123456789';
  const options = {
    apiKey: undefined,
    accessToken: () => token,
    headers: { 'x-proxy-authorization': proxy, 'x-goog-user-project': 'proj-1' },
  };

  test.each(echoes)(
    'an access token and a credential header echoed in %s: redacted',
    async (_w, reply, kind) => {
      server.push(reply(`${token} ${proxy}`));
      const error = await rejection(call(options, kind));
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
      expectNo(error, token);
      expectNo(error, proxy);
    },
  );
});

describe.each([
  ['a newline inside', 'gm-line\nbreak-0123456789'],
  ['a trailing newline', 'gm-pasted-0123456789\n'],
  ['a carriage return', 'gm-cr\r-0123456789'],
  ['a character above U+00FF', 'gm-ключ-0123456789'],
])('a credential with %s', (_, secret) => {
  test.each(['generate', 'stream'] as const)(
    '%s: an API key is a non-retryable model ConfigError naming the header; nothing is sent',
    async (kind) => {
      const error = await rejection(call({ apiKey: secret }, kind));
      expect(ConfigError.is(error, 'model')).toBe(true);
      expect(isRetryable(error)).toBe(false);
      expect((error as Error).message).toContain('"x-goog-api-key"');
      expectNo(error, secret);
      expect(visibleText(error)).not.toContain('gm-');
      expect(server.requests).toEqual([]);
    },
  );

  test('an access token from a function is a model ConfigError naming authorization', async () => {
    const error = await rejection(call({ apiKey: undefined, accessToken: () => secret }, 'stream'));
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain('"authorization"');
    expectNo(error, secret);
    expect(server.requests).toEqual([]);
  });
});

test('a complete answer still decodes when the key is a substring of it', async () => {
  const key = 'gm-echo-0123456789';
  server.push(sseReply(sse(chunk([{ text: `your key is ${key}` }], { finishReason: 'STOP' }))));
  const response = await modelFor(server, { apiKey: key }).stream(ask, () => undefined);
  expect(response.message.content).toBe(`your key is ${key}`);
});
