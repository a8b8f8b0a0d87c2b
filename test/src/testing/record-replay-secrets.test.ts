/**
 * Secrets never reach a fixture: whatever the key, sent as each adapter's credential header and
 * echoed back by the provider in an error body or inside a streamed answer, the written file
 * holds no trace of it (as is, JSON-escaped or URL-encoded). Query-string keys, custom credential
 * headers and listed secrets are redacted too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { recordingFetch, replayFetch, serializeFixture } from 'golem/testing';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import { ADAPTERS, call, tempDir } from './record-replay-support';
import { FixtureSecretError } from '../../support/internal-errors';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

/** Keys as header values can carry them (printable ASCII without spaces), long enough to redact. */
const keys = fc.stringMatching(/^[A-Za-z0-9._~+/=!#$%&'*^`|-]{12,60}$/);

function traces(key: string): string[] {
  return [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)];
}

test('property: a key sent by any adapter and echoed by the provider is never written', async () => {
  const dir = tempDir();
  await fc.assert(
    fc.asyncProperty(keys, fc.constantFrom(...ADAPTERS), async (key, adapter) => {
      const file = join(dir, 'secret.json');
      const echo = JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } });
      server.push(
        { status: 401, headers: { 'content-type': 'application/json' }, body: echo },
        {
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'x-echo': key },
          body: `data: ${JSON.stringify({ note: key })}\n\n`,
        },
      );
      const recorder = recordingFetch({ file, keepHeaders: ['x-echo'] });
      const model = adapter.build(server.url, recorder, key);
      await expect(call(model, 'generate')).rejects.toThrow();
      await call(model, 'stream').catch(() => undefined); // the echo is not a valid stream
      const fixture = await recorder.settled();
      const text = readFileSync(file, 'utf8');
      expect(fixture.exchanges).toHaveLength(2);
      expect(text).toBe(serializeFixture(fixture));
      for (const trace of traces(key)) expect(text).not.toContain(trace);
    }),
    { numRuns: 40 },
  );
});

test('query keys, custom credential headers and listed secrets are redacted', async () => {
  server.push({
    status: 200,
    headers: { 'content-type': 'application/json', 'set-cookie': 'session=abc' },
    body: JSON.stringify({ echoed: 'tenant-secret-99887766' }),
  });
  const recorder = recordingFetch({
    secrets: ['tenant-secret-99887766'],
    redactHeaders: ['x-tenant'],
  });
  const response = await recorder(
    `${server.url}/v1beta/models/m:generateContent?key=AIzaQueryKey123456&alt=sse`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-tenant': 'tenant-7',
        'x-goog-user-project': 'my-project',
        'x-custom-token': 'tok-abcdef123456',
      },
      body: JSON.stringify({ note: 'tenant-secret-99887766' }),
    },
  );
  expect(await response.json()).toEqual({ echoed: 'tenant-secret-99887766' }); // the caller sees it all
  const { exchanges } = await recorder.settled();
  expect(exchanges[0]).toEqual({
    request: {
      method: 'POST',
      url: `${server.url}/v1beta/models/m:generateContent?key=%5Bredacted%5D&alt=sse`,
      headers: { 'content-type': 'application/json', 'x-goog-user-project': 'my-project' },
      body: { note: '[redacted]' },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { echoed: '[redacted]' },
    },
  });
  expect(server.requests.at(-1)?.headers['x-tenant']).toBe('tenant-7');
});

test('a binary body is kept as base64 and replays byte for byte; one holding a secret is refused', async () => {
  const bytes = Uint8Array.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x7f]);
  const binary = { 'content-type': 'application/octet-stream' };
  server.push({ status: 200, headers: binary, body: bytes });
  const recorder = recordingFetch();
  await (await recorder(`${server.url}/blob`, { method: 'GET' })).arrayBuffer();
  const fixture = await recorder.settled();
  expect(fixture.exchanges[0]?.response.bodyBase64).toEqual([
    Buffer.from(bytes).toString('base64'),
  ]);
  const replayed = await replayFetch(fixture)(`${server.url}/blob`, { method: 'GET' });
  expect(new Uint8Array(await replayed.arrayBuffer())).toEqual(bytes);

  const secret = 'binary-secret-0123456789';
  server.push({
    status: 200,
    headers: binary,
    body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(secret)]),
  });
  const file = join(tempDir(), 'binary.json');
  const refusing = recordingFetch({ file, secrets: [secret] });
  await (await refusing(`${server.url}/blob`, { method: 'GET' })).arrayBuffer();
  await expect(refusing.settled()).rejects.toThrow(FixtureSecretError);
  expect(existsSync(file)).toBe(false);
});
