/**
 * Retry-After parsing (issue 12): a provider's requested wait is read exactly (rounded up, never
 * shorter), saturated at MAX_TIMEOUT_MS when no timer could hold it ("at least that long"), and
 * ignored when it is garbage — never NaN, negative or a value Node would clamp to 1 ms.
 */
import fc from 'fast-check';
import { Agent, ModelHTTPError, RunError, findError, type Sleep } from 'golem';
import { MAX_TIMEOUT_MS } from '../../../../src/core/kit/timeouts';
import { userMessage } from '../../../../src/core/contract/message';
import { openai } from 'golem/providers/openai';
import { retryInfoMs } from '../../../../src/providers/gemini/errors';
import { retryAfterMs } from '../../../../src/providers/shared/retry-after';
import { startReplayServer } from '../../../support/replay-server';
import { RetryAfterTooLongError } from '../../../support/internal-errors';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = (): number => NOW;

function parse(headers: Record<string, string>): number | undefined {
  return retryAfterMs(new Headers(headers), now);
}

describe('delay-seconds and retry-after-ms', () => {
  test.each<[Record<string, string>, number]>([
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': ' 2 ' }, 2000],
    [{ 'retry-after-ms': '1500' }, 1500],
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 1500],
  ])('%p → %p ms', (headers, ms) => {
    expect(parse(headers)).toBe(ms);
  });

  test('fractions round up, so the wait is never shorter than asked', () => {
    expect(parse({ 'retry-after-ms': '0.0004' })).toBe(1);
    expect(parse({ 'retry-after': '1.0004' })).toBe(1001);
  });

  test.each([
    ['99999999 seconds', { 'retry-after': '99999999' }],
    ['3 000 000 seconds (above 2^31 ms)', { 'retry-after': '3000000' }],
    ['retry-after-ms above 2^31', { 'retry-after-ms': '2147483648' }],
    ['a number too large for a double', { 'retry-after': '9'.repeat(400) }],
    ['an HTTP date in 2100', { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' }],
  ])('%s saturates at MAX_TIMEOUT_MS ("at least that long"), not a clamped 1 ms', (_n, headers) => {
    expect(parse(headers)).toBe(MAX_TIMEOUT_MS);
  });
});

describe('HTTP dates', () => {
  test.each([
    ['IMF-fixdate', 'Wed, 15 Jan 2025 12:00:30 GMT'],
    ['RFC 850', 'Wednesday, 15-Jan-25 12:00:30 GMT'],
    ['asctime', 'Wed Jan 15 12:00:30 2025'],
  ])('%s 30 s ahead → 30000 ms', (_form, date) => {
    expect(parse({ 'retry-after': date })).toBe(30_000);
  });

  test('a date in the past means retry now (0), it is not garbage', () => {
    expect(parse({ 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' })).toBe(0);
  });

  test('a two-digit RFC 850 year more than 50 years ahead is in the past century', () => {
    expect(parse({ 'retry-after': 'Sunday, 06-Nov-94 08:49:37 GMT' })).toBe(0);
  });
});

describe('garbage is ignored (the backoff applies), never read as "retry now"', () => {
  test.each([
    '-5',
    '-0.5',
    'soon',
    'foo 1',
    'x 2024',
    '5, 10',
    '1e3',
    '',
    'NaN',
    'Infinity',
    '2100-01-01',
    'Sun, 30 Feb 2100 00:00:00 GMT',
    'Sun, 01 Jan 2100 25:00:00 GMT',
    'Sun, 01 Foo 2100 00:00:00 GMT',
  ])('Retry-After %p → undefined', (value) => {
    expect(parse({ 'retry-after': value })).toBeUndefined();
  });

  test('a garbage retry-after-ms falls back to Retry-After', () => {
    expect(parse({ 'retry-after-ms': '-1', 'retry-after': '3' })).toBe(3000);
    expect(parse({ 'retry-after-ms': 'soon' })).toBeUndefined();
  });

  test('no header → undefined', () => {
    expect(parse({})).toBeUndefined();
  });
});

describe('properties', () => {
  const sane = (ms: number | undefined): boolean =>
    ms === undefined || (Number.isInteger(ms) && ms >= 0 && ms <= MAX_TIMEOUT_MS);

  test('any header text yields undefined or an integer in [0, MAX_TIMEOUT_MS]', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(sane(parse({ 'retry-after': a }))).toBe(true);
        expect(sane(parse({ 'retry-after-ms': b }))).toBe(true);
      }),
    );
  });

  test('delay-seconds: never shorter than asked unless saturated, never silently capped below it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e13, noNaN: true })), (seconds) => {
        const text = seconds.toFixed(3);
        const asked = Number(text) * 1000;
        const ms = parse({ 'retry-after': text });
        if (asked >= MAX_TIMEOUT_MS) expect(ms).toBe(MAX_TIMEOUT_MS);
        else expect(ms).toBe(Math.ceil(asked));
      }),
    );
  });

  test('retry-after-ms: the exact wait rounded up, or the saturated maximum', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e15, noNaN: true }), (value) => {
        const text = value.toFixed(4);
        const ms = parse({ 'retry-after-ms': text });
        const asked = Number(text);
        expect(ms).toBe(asked >= MAX_TIMEOUT_MS ? MAX_TIMEOUT_MS : Math.ceil(asked));
      }),
    );
  });

  test('IMF-fixdate: the time until the date, 0 in the past, saturated beyond a timer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(9999, 11, 31) }),
        (instant) => {
          const at = Math.floor(instant / 1000) * 1000;
          const ms = parse({ 'retry-after': new Date(at).toUTCString() });
          const asked = Math.max(0, at - NOW);
          expect(ms).toBe(asked >= MAX_TIMEOUT_MS ? MAX_TIMEOUT_MS : asked);
        },
      ),
    );
  });

  test('a negative number is never a wait', () => {
    fc.assert(
      fc.property(fc.double({ max: -Number.MIN_VALUE, noNaN: true }), (value) => {
        expect(parse({ 'retry-after': String(value) })).toBeUndefined();
        expect(parse({ 'retry-after-ms': String(value) })).toBeUndefined();
      }),
    );
  });
});

describe('Gemini RetryInfo (retryInfoMs)', () => {
  const body = (retryDelay: unknown) => ({
    error: { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] },
  });

  test.each<[unknown, number | undefined]>([
    ['34.4s', 34_400],
    ['0.0001s', 1],
    ['99999999999s', MAX_TIMEOUT_MS],
    ['-1s', undefined],
    ['soon', undefined],
    [12, undefined],
  ])('retryDelay %p → %p', (delay, ms) => {
    expect(retryInfoMs(body(delay))).toBe(ms);
  });
});

describe('through an adapter to the retry policy', () => {
  test('a 429 asking to wait until 2100 ends the run with RetryAfterTooLongError after one request, never an early retry', async () => {
    const server = await startReplayServer([
      {
        status: 429,
        headers: {
          'content-type': 'application/json',
          'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT',
        },
        body: JSON.stringify({ error: { message: 'slow down', type: 'requests' } }),
      },
    ]);
    try {
      const sleep = jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());
      const agent = new Agent({
        model: openai({
          model: 'gpt-4o',
          preset: 'openai',
          apiKey: 'sk-test',
          baseURL: server.url,
        }),
        maxAttempts: 5,
        sleep,
      });

      const error = await agent.run('Hi').then(
        () => undefined,
        (e: unknown) => e,
      );

      expect(RunError.is(error) && error.stage).toBe('model');
      const refused = findError(error, RetryAfterTooLongError.is);
      expect(refused).toMatchObject({ requested: MAX_TIMEOUT_MS, allowed: 60_000, attempts: 1 });
      expect(ModelHTTPError.is(refused?.cause)).toBe(true);
      expect(server.requests).toHaveLength(1);
      expect(sleep).not.toHaveBeenCalled();
    } finally {
      await server.close();
    }
  });

  test('the adapter reports a saturated retryAfter for a request beyond any timer', async () => {
    const server = await startReplayServer([
      { status: 503, headers: { 'retry-after': '99999999' }, body: '' },
    ]);
    try {
      const model = openai({
        model: 'gpt-4o',
        preset: 'openai',
        apiKey: 'sk-test',
        baseURL: server.url,
      });
      const error = await model.generate({ messages: [userMessage('hi')], tools: [] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ status: 503, retryAfter: MAX_TIMEOUT_MS });
    } finally {
      await server.close();
    }
  });
});
