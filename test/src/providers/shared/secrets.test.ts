/**
 * No secret reaches anything a user or log can see (issue 12): messages, the whole `cause`
 * chain, `ModelHTTPError.body`, whatever form the key takes.
 */
import fc from 'fast-check';
import { ModelHTTPError, ConfigError } from 'golem';
import { postJson } from '../../../../src/providers/shared/http';
import { redact, redactCause } from '../../../../src/core/kit/redact';
import { startReplayServer } from '../../../support/replay-server';
import { visibleText } from '../../../support/visible-text';
import { ModelTransportError } from '../../../support/internal-errors';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('a key HTTP headers cannot carry', () => {
  test.each([
    ['a newline', 'sk-abc\ndef-0123'],
    ['a carriage return', 'sk-abc\rdef-0123'],
    ['a NUL', 'sk-abc\u0000def-0123'],
    ['unicode', 'sk-abc☃def-0123'],
    ['an emoji', 'sk-abc🔑def-0123'],
  ])('with %s is a model ConfigError naming the header, never the key', async (_, key) => {
    const error = await failure(
      postJson({
        provider: 'p',
        url: 'http://127.0.0.1:1/',
        headers: { 'x-api-key': key },
        body: {},
        secrets: [key],
      }),
    );
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain('x-api-key');
    const text = visibleText(error);
    expect(text).not.toContain(key);
    expect(text).not.toContain('sk-abc');
  });
});

describe('keys in error bodies and transport failures', () => {
  test.each([
    ['with spaces', ' sk key with spaces '],
    ['plain', 'sk-plain-0123456789'],
    ['with JSON-escaped characters', 'sk-"quoted"\\slash'],
  ])('a key %s echoed by the server is redacted from message and body', async (_, key) => {
    const srv = await startReplayServer([
      {
        status: 401,
        body: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }),
      },
    ]);
    try {
      const error = await failure(
        postJson({
          provider: 'p',
          url: srv.url,
          headers: { authorization: `Bearer ${key}` },
          body: {},
          secrets: [key],
          parseError: (b) => ({ message: (b as { error: { message: string } }).error.message }),
        }),
      );
      expect(ModelHTTPError.is(error)).toBe(true);
      const text = visibleText(error);
      expect(text).not.toContain(key.trim());
      expect(text).not.toContain(JSON.stringify(key.trim()).slice(1, -1));
      expect((error as ModelHTTPError).body).toContain('[redacted]');
    } finally {
      await srv.close();
    }
  });

  test('a key that is a substring of the response is still redacted', async () => {
    const key = 'error';
    const srv = await startReplayServer([{ status: 500, body: '{"error":"internal error"}' }]);
    try {
      const error = (await failure(
        postJson({ provider: 'p', url: srv.url, headers: { k: key }, body: {}, secrets: [key] }),
      )) as ModelHTTPError;
      expect(error.body).not.toContain(key);
      expect(error.status).toBe(500);
    } finally {
      await srv.close();
    }
  });

  test('a transport failure carries a redacted copy of its cause chain', async () => {
    const key = 'sk-in-the-cause-0123';
    const inner = new Error(`socket closed while sending ${key}`);
    const outer = new TypeError(`fetch failed for ${key}`, { cause: inner });
    const error = await failure(
      postJson({
        provider: 'p',
        url: 'http://127.0.0.1:1/',
        headers: {},
        body: {},
        secrets: [key],
        fetch: () => Promise.reject(outer),
      }),
    );
    expect(ModelTransportError.is(error)).toBe(true);
    expect(visibleText(error)).not.toContain(key);
    const cause = (error as Error).cause as Error & { cause: Error };
    expect(cause.name).toBe('TypeError');
    expect(cause.cause.message).toBe('socket closed while sending [redacted]');
  });
});

describe('redact', () => {
  test('removes every occurrence of every form of any secret (property)', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 4, maxLength: 30, unit: 'grapheme' })
          .filter((s) => s.trim().length >= 4),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (secret, before, after) => {
          const forms = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];
          for (const form of forms) {
            const out = redact(`${before}${form}${after}${form}`, [secret]);
            expect(out.includes(secret.trim())).toBe(false);
          }
        },
      ),
    );
  });

  test('redactCause never throws on hostile values and keeps names and codes', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const hostile = {
      get message(): string {
        throw new Error('getter');
      },
    };
    expect(() => redactCause(revoked.proxy, ['secret'])).not.toThrow();
    expect(() => redactCause(hostile, ['secret'])).not.toThrow();
    const copy = redactCause(Object.assign(new Error('boom secret'), { code: 'ECONNRESET' }), [
      'secret',
    ]) as Error & { code: string };
    expect(copy.message).toBe('boom [redacted]');
    expect(copy.code).toBe('ECONNRESET');
  });
});
