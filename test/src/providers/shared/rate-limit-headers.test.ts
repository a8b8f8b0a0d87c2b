/**
 * Rate-limit headers (issue 30): OpenAI/Azure `x-ratelimit-*` (Go-style durations) and Anthropic
 * `anthropic-ratelimit-*` (RFC 3339 timestamps) read into one `ProviderRateLimit`, resets relative
 * to an injected clock; a malformed value drops its own field only and never throws.
 */
import fc from 'fast-check';
import { MAX_TIMEOUT_MS } from '../../../../src/core/kit/timeouts';
import type { ModelResponse } from '../../../../src/core/contract/response';
import { rateLimitOf, withRateLimit } from '../../../../src/providers/shared/rate-limit-headers';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = (): number => NOW;

function parse(headers: Record<string, string>) {
  return rateLimitOf(new Headers(headers), now);
}

function openaiReset(value: string): number | undefined {
  return parse({ 'x-ratelimit-reset-requests': value })?.resetRequestsMs;
}

function anthropicReset(value: string): number | undefined {
  return parse({ 'anthropic-ratelimit-requests-reset': value })?.resetRequestsMs;
}

describe('OpenAI and Azure: x-ratelimit-*', () => {
  test('all six headers, as the API documents them', () => {
    expect(
      parse({
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-limit-tokens': '150000',
        'x-ratelimit-remaining-tokens': '149984',
        'x-ratelimit-reset-tokens': '6m0s',
      }),
    ).toEqual({
      limitRequests: 60,
      remainingRequests: 59,
      resetRequestsMs: 1000,
      limitTokens: 150000,
      remainingTokens: 149984,
      resetTokensMs: 360_000,
    });
  });

  test.each<[string, number]>([
    ['1s', 1000],
    ['6m0s', 360_000],
    ['20ms', 20],
    ['1h30m', 5_400_000],
    ['2m59.56s', 179_560],
    ['0s', 0],
    ['0', 0],
    ['1.5ms', 2], // rounded up, never sooner than the provider said
    ['500us', 1],
    ['500µs', 1],
    ['999ns', 1],
    [' 7s ', 7000],
  ])('duration %p → %p ms', (value, ms) => {
    expect(openaiReset(value)).toBe(ms);
  });

  test('a duration longer than a timer can hold saturates at MAX_TIMEOUT_MS', () => {
    expect(openaiReset('999999h')).toBe(MAX_TIMEOUT_MS);
  });

  test.each([
    '',
    '5', // a bare number: seconds or an epoch? ambiguous, dropped
    '-1s',
    '1d',
    's',
    '1.s',
    '1.5.5s',
    '1s, 2s', // a repeated header
    '1 s',
    'NaN',
    'Infinity',
    '1e3ms',
    '1s garbage',
    `${'1'.repeat(70)}s`, // overlong
  ])('malformed duration %p is dropped', (value) => {
    expect(openaiReset(value)).toBeUndefined();
  });

  test('a partial set: the fields sent, no others', () => {
    expect(
      parse({ 'x-ratelimit-remaining-tokens': '10', 'x-ratelimit-reset-tokens': '9ms' }),
    ).toEqual({ remainingTokens: 10, resetTokensMs: 9 });
  });
});

describe('Anthropic: anthropic-ratelimit-*', () => {
  test('requests and tokens, resets relative to now', () => {
    expect(
      parse({
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '49',
        'anthropic-ratelimit-requests-reset': '2025-01-15T12:00:30Z',
        'anthropic-ratelimit-tokens-limit': '90000',
        'anthropic-ratelimit-tokens-remaining': '89000',
        'anthropic-ratelimit-tokens-reset': '2025-01-15T12:01:00Z',
      }),
    ).toEqual({
      limitRequests: 50,
      remainingRequests: 49,
      resetRequestsMs: 30_000,
      limitTokens: 90000,
      remainingTokens: 89000,
      resetTokensMs: 60_000,
    });
  });

  test.each<[string, number]>([
    ['2025-01-15T12:00:01Z', 1000],
    ['2025-01-15t12:00:01z', 1000],
    ['2025-01-15 12:00:01Z', 1000],
    ['2025-01-15T12:00:00.250Z', 250],
    ['2025-01-15T12:00:00.0001Z', 1], // rounded up
    ['2025-01-15T13:00:05+01:00', 5000],
    ['2025-01-15T11:30:00-00:31', 60_000],
    ['2025-01-15T11:59:59Z', 0], // already passed
    ['1999-12-31T23:59:59Z', 0],
    ['2100-01-01T00:00:00Z', MAX_TIMEOUT_MS],
  ])('timestamp %p → %p ms', (value, ms) => {
    expect(anthropicReset(value)).toBe(ms);
  });

  test.each([
    '2025-02-30T12:00:00Z', // no such day
    '2025-13-01T12:00:00Z',
    '2025-01-15T24:00:00Z',
    '2025-01-15T12:60:00Z',
    '2025-01-15T12:00:00', // no offset
    '2025-01-15T12:00:00+24:00',
    '2025-01-15',
    '30',
    '30s',
    'Wed, 15 Jan 2025 12:00:30 GMT',
    '2025-01-15T12:00:30Z, 2025-01-15T12:00:30Z',
    'garbage',
  ])('malformed timestamp %p is dropped', (value) => {
    expect(anthropicReset(value)).toBeUndefined();
  });

  test('tokens-* wins over the input/output windows (the most restrictive limit in effect)', () => {
    expect(
      parse({
        'anthropic-ratelimit-tokens-remaining': '100',
        'anthropic-ratelimit-input-tokens-limit': '1000',
        'anthropic-ratelimit-input-tokens-remaining': '5',
        'anthropic-ratelimit-output-tokens-remaining': '3',
      }),
    ).toEqual({ remainingTokens: 100 });
  });

  test('without tokens-*, the window with fewer tokens left is taken whole', () => {
    const input = {
      'anthropic-ratelimit-input-tokens-limit': '40000',
      'anthropic-ratelimit-input-tokens-remaining': '39000',
      'anthropic-ratelimit-input-tokens-reset': '2025-01-15T12:00:10Z',
    };
    const output = {
      'anthropic-ratelimit-output-tokens-limit': '8000',
      'anthropic-ratelimit-output-tokens-remaining': '2000',
      'anthropic-ratelimit-output-tokens-reset': '2025-01-15T12:00:20Z',
    };
    expect(parse({ ...input, ...output })).toEqual({
      limitTokens: 8000,
      remainingTokens: 2000,
      resetTokensMs: 20_000,
    });
    expect(
      parse({ ...input, ...output, 'anthropic-ratelimit-output-tokens-remaining': '39001' }),
    ).toEqual({ limitTokens: 40000, remainingTokens: 39000, resetTokensMs: 10_000 });
    expect(parse(output)).toEqual({
      limitTokens: 8000,
      remainingTokens: 2000,
      resetTokensMs: 20_000,
    });
  });

  test('without a usable remaining on one side, the side that has one is taken', () => {
    expect(
      parse({
        'anthropic-ratelimit-input-tokens-limit': '40000',
        'anthropic-ratelimit-input-tokens-remaining': 'lots',
        'anthropic-ratelimit-output-tokens-limit': '8000',
        'anthropic-ratelimit-output-tokens-remaining': '7000',
      }),
    ).toEqual({ limitTokens: 8000, remainingTokens: 7000 });
  });
});

describe('hostile and absent values', () => {
  test('no rate-limit headers (Gemini, Bedrock, any other server): undefined', () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ 'content-type': 'application/json', 'retry-after': '5' })).toBeUndefined();
  });

  test('only garbage: undefined, not an empty object', () => {
    expect(
      parse({ 'x-ratelimit-limit-requests': 'many', 'anthropic-ratelimit-tokens-reset': 'soon' }),
    ).toBeUndefined();
  });

  test.each([
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '',
    ' ',
    '5, 6',
    '+5',
    '9007199254740993', // beyond Number.MAX_SAFE_INTEGER
  ])('count %p is dropped, its neighbours kept', (value) => {
    expect(
      parse({
        'x-ratelimit-limit-requests': value,
        'x-ratelimit-remaining-requests': '3',
      }),
    ).toEqual({ remainingRequests: 3 });
  });

  test('counts keep their value (0 included) and ignore surrounding spaces', () => {
    expect(parse({ 'x-ratelimit-remaining-requests': ' 0 ' })).toEqual({ remainingRequests: 0 });
    expect(parse({ 'x-ratelimit-limit-tokens': '9007199254740991' })).toEqual({
      limitTokens: Number.MAX_SAFE_INTEGER,
    });
  });

  test('per field, an x-ratelimit-* value wins over an anthropic-ratelimit-* one', () => {
    expect(
      parse({
        'x-ratelimit-limit-requests': '10',
        'anthropic-ratelimit-requests-limit': '20',
        'anthropic-ratelimit-requests-remaining': '19',
      }),
    ).toEqual({ limitRequests: 10, remainingRequests: 19 });
  });

  test('any header values never throw and only give finite, non-negative numbers', () => {
    const names = [
      'x-ratelimit-limit-requests',
      'x-ratelimit-reset-requests',
      'x-ratelimit-reset-tokens',
      'anthropic-ratelimit-requests-reset',
      'anthropic-ratelimit-input-tokens-remaining',
      'anthropic-ratelimit-output-tokens-remaining',
      'anthropic-ratelimit-tokens-limit',
    ];
    const value = fc.oneof(
      fc.string({ unit: fc.constantFrom(...Array.from('0123456789.:+-TZhmsuµn ,e')) }),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), value), (raw) => {
        const headers = new Headers();
        for (const [name, v] of Object.entries(raw)) {
          try {
            headers.set(name, v);
          } catch {
            // a value `Headers` itself refuses cannot arrive in a response
          }
        }
        const limit = rateLimitOf(headers, now);
        if (limit === undefined) return;
        expect(Object.keys(limit).length).toBeGreaterThan(0);
        for (const n of Object.values(limit)) {
          expect(Number.isInteger(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER).toBe(true);
        }
      }),
      { seed: 30, numRuns: 500 },
    );
  });
});

test('withRateLimit adds the state, or leaves the response untouched without one', () => {
  const response: ModelResponse = {
    message: { role: 'assistant', content: 'ok' },
    usage: { inputTokens: 1, outputTokens: 1 },
  };
  expect(withRateLimit(response, undefined)).toBe(response);
  expect(withRateLimit(response, { remainingRequests: 1 })).toEqual({
    ...response,
    rateLimit: { remainingRequests: 1 },
  });
  expect(response).not.toHaveProperty('rateLimit');
});
