/** rateLimit: option validation and the missing-peer error. */
import { ConfigError } from 'golem';
import { rateLimit, type RateLimitOptions } from 'golem/middleware';
import { loadRateLimiter } from '../../../src/middleware/rate-limit-peers';

describe('rateLimit: options and peer', () => {
  test('bad options are ConfigErrors of component middleware', () => {
    for (const options of [
      { requests: { limit: 0, interval: 1000 } },
      { requests: { limit: 1, interval: 1500 } },
      { tokens: { limit: 1, interval: 500 } },
      { maxWait: -1 },
      { key: '' },
      { prefix: '' },
      { outputReserve: 1.5 },
    ] as RateLimitOptions[]) {
      let error: unknown;
      try {
        rateLimit(options);
      } catch (e) {
        error = e;
      }
      expect(ConfigError.is(error)).toBe(true);
      expect(error).toMatchObject({ component: 'middleware' });
    }
  });

  test('a missing rate-limiter-flexible is the standard missing-peer error', () => {
    let error: unknown;
    try {
      loadRateLimiter(() => {
        throw Object.assign(new Error("Cannot find module 'rate-limiter-flexible'"), {
          code: 'MODULE_NOT_FOUND',
        });
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigError.is(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'missing-peer',
      packages: ['rate-limiter-flexible'],
      command: 'npm install rate-limiter-flexible',
    });
  });
});
