/**
 * The API key stays out of everything a user or a log can see (issue 12): error messages, the
 * whole `cause` chain, `ModelHTTPError.body`, redirect locations and run events, whatever form
 * the key has (spaces, padding, quotes, Latin-1) and wherever the server echoes it. A key HTTP
 * cannot carry is a `model` `ConfigError` that names the header, never the key.
 */
import { Agent, isRetryable, type ModelRequest, type RunEvent, ConfigError } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import { visibleText } from '../../../support/visible-text';
import { sse, sseReply } from './support';

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

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

function modelWith(key: string) {
  return anthropic({ model: 'claude-test', apiKey: key, baseURL: server.url });
}

/** Asserts `key` (as configured, and as sent: trimmed) appears nowhere in `value`. */
function expectNoKey(value: unknown, key: string): void {
  const text = visibleText(value);
  expect(text).not.toContain(key);
  expect(text).not.toContain(key.trim());
  expect(text).not.toContain(JSON.stringify(key).slice(1, -1));
}

const keys: [string, string][] = [
  ['spaces', 'sk-ant key with spaces 0123456789'],
  ['padding', '  sk-ant-padded-0123456789  '],
  ['quotes and a backslash', 'sk-ant-"quoted"\\-0123456789'],
  ['Latin-1 letters', 'sk-ant-clé-ñandú-0123456789'],
];

/** Replies that echo `key` (as the server received it) back in every way a server can. */
const echoes: [string, (key: string) => Reply, 'generate' | 'stream'][] = [
  [
    'a 401 error body',
    (key) => ({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'error',
        error: { type: 'authentication_error', message: `invalid x-api-key: ${key}` },
      }),
    }),
    'generate',
  ],
  [
    'a 200 error envelope',
    (key) => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'error', error: { type: 'api_error', message: key } }),
    }),
    'generate',
  ],
  [
    'a 200 body that is not JSON',
    (key) => ({ headers: { 'content-type': 'application/json' }, body: `${key} is not JSON` }),
    'generate',
  ],
  [
    'a stream error event',
    (key) =>
      sseReply(sse({ type: 'error', error: { type: 'overloaded_error', message: `for ${key}` } })),
    'stream',
  ],
  ['a stream frame that is not JSON', (key) => sseReply(`data: ${key} oops\n\n`), 'stream'],
  [
    'a stream frame that is not an object',
    (key) => sseReply(`data: ${JSON.stringify(key)}\n\n`),
    'stream',
  ],
];

describe.each(keys)('a key with %s', (_, key) => {
  const sent = key.trim();

  test.each(echoes)('echoed in %s: redacted everywhere', async (_what, reply, kind) => {
    server.push(reply(sent));
    const model = modelWith(key);
    const error = await failure(
      kind === 'generate' ? model.generate(request) : model.stream(request, () => undefined),
    );
    expect(server.requests[0]?.headers['x-api-key']).toBe(sent);
    expectNoKey(error, key);
  });

  test('in the path of a cross-origin redirect: the location is redacted', async () => {
    server.push({
      status: 307,
      headers: { location: `${other.url}/${encodeURIComponent(sent)}/v1/messages` },
    });
    const error = await failure(modelWith(key).generate(request));
    expectNoKey(error, key);
    expect(visibleText(error)).not.toContain(encodeURIComponent(sent));
    expect(other.requests).toEqual([]);
  });

  test('run events and the RunError of an Agent carry no key', async () => {
    server.push(echoes[0]?.[1](sent) as Reply);
    const events: RunEvent[] = [];
    const agent = new Agent({ model: modelWith(key), onEvent: (event) => events.push(event) });
    const error = await failure(agent.run('hi'));
    const errors = events.flatMap((event) => ('error' in event ? [event.error] : []));
    expect(errors.some((error) => error !== undefined)).toBe(true);
    for (const error of errors) expectNoKey(error, key);
    expect(JSON.stringify(events)).not.toContain(sent);
    expectNoKey(error, key);
  });
});

describe.each([
  ['a newline inside', 'sk-ant-line\nbreak-0123456789'],
  ['a trailing newline', 'sk-ant-pasted-0123456789\n'],
  ['a carriage return', 'sk-ant-cr\r-0123456789'],
  ['a character above U+00FF', 'sk-ant-ключ-0123456789'],
])('a key with %s', (_, key) => {
  test.each(['generate', 'stream'] as const)(
    '%s: a non-retryable model ConfigError naming the header, not the key; nothing is sent',
    async (kind) => {
      const model = modelWith(key);
      const error = await failure(
        kind === 'generate' ? model.generate(request) : model.stream(request, () => undefined),
      );
      expect(ConfigError.is(error, 'model')).toBe(true);
      expect(isRetryable(error)).toBe(false);
      expect((error as Error).message).toContain('"x-api-key"');
      expectNoKey(error, key);
      expect(visibleText(error)).not.toContain('sk-ant-');
      expect(server.requests).toEqual([]);
    },
  );
});
