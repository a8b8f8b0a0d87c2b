import type { ModelResponse } from '../core/contract/response';
import { throwIfCancelled } from '../core/errors/cancellation';
import type { Middleware, ModelCall } from '../core/engine/middleware';
import { timerSleep } from '../core/engine/retry';
import { ModelHTTPError, retryAfterOf } from '../core/errors/errors';
import { errorChain } from '../core/kit/error-chain';
import type { Limiter, LimiterRes } from './rate-limit-peers';
import { loadRateLimiter } from './rate-limit-peers';
import type { RateLimitOptions } from './rate-limit-options';
import { checkRateLimit } from './rate-limit-options';
import { RateLimitedError } from './rate-limited-error';
import type { RateLimitKind } from './rate-limited-error';
import { estimateInputTokens, reservedOutputTokens } from './request-tokens';

/**
 * A correction (a reward) is only given back while the window that took the points has at least
 * this long to live, so it never lands in the next window and lets that one over its limit.
 */
const REWARD_MARGIN_MS = 1000;

/** What a call holds once admitted. */
interface Admission {
  readonly tokens: number;
  /** When the token window that holds them ends (by `now`). */
  readonly tokensUntil: number;
}

/**
 * Shared rate limits on model calls: before each call it takes one request and its estimated
 * tokens (estimated input + `maxTokens`, or `outputReserve`) from the budgets of its key, waiting
 * (up to `maxWait`, honouring the call's signal) while they are used up, and throwing the
 * retryable {@link RateLimitedError} when the wait would be longer. After the call the tokens are
 * corrected with the reported usage. The provider's own limits count too: a response whose
 * rate-limit headers say nothing is left, or a 429 with `Retry-After`, blocks the key for every
 * worker until the reset.
 *
 * With `redis` (an `ioredis` client) the budgets are shared by every process; without, by the
 * agents of this process. Needs the optional peer `rate-limiter-flexible`.
 *
 * Guarantee: the calls admitted on a key in one window (`interval` ms from the window's first
 * call) never exceed `requests.limit`, across every process sharing the store.
 *
 * ```ts
 * const agent = new Agent({ model, middleware: [rateLimit({ requests: { limit: 60, interval: 60_000 }, redis })] });
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): Middleware {
  const config = checkRateLimit(options);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? wait;
  const lib = loadRateLimiter();
  const make = (points: number, seconds: number, name: string): Limiter => {
    const keyPrefix = `${config.prefix}:${name}`;
    return config.redis === undefined
      ? new lib.RateLimiterMemory({ points, duration: seconds, keyPrefix })
      : new lib.RateLimiterRedis({
          points,
          duration: seconds,
          keyPrefix,
          storeClient: config.redis,
        });
  };
  const requests =
    config.requests === undefined
      ? undefined
      : make(config.requests.limit, config.requests.interval / 1000, 'req');
  const tokens =
    config.tokens === undefined
      ? undefined
      : make(config.tokens.limit, config.tokens.interval / 1000, 'tok');
  // Blocked keys (the provider's headers, a 429): one point, more than that is a block.
  const gate = make(1, 1, 'block');

  /** Takes `points` or says how long until they may be there; a store failure rejects. */
  const take = async (
    limiter: Limiter,
    key: string,
    points: number,
  ): Promise<{ ok: true; res: LimiterRes } | { ok: false; ms: number }> => {
    try {
      return { ok: true, res: await limiter.consume(key, points) };
    } catch (error) {
      if (error instanceof Error || !isRes(error)) throw error;
      // Refused points still count in the window: give them back while it lives.
      if (error.msBeforeNext > REWARD_MARGIN_MS) await limiter.reward(key, points);
      return { ok: false, ms: Math.max(1, error.msBeforeNext) };
    }
  };

  const admit = async (call: ModelCall, key: string, estimate: number): Promise<Admission> => {
    const signal = call.options?.signal;
    const deadline = now() + config.maxWait;
    for (;;) {
      throwIfCancelled(signal);
      let ms: number;
      let kind: RateLimitKind;
      const blocked = await gate.get(key);
      if (blocked !== null && blocked.consumedPoints > gate.points && blocked.msBeforeNext > 0) {
        ms = blocked.msBeforeNext;
        kind = 'provider';
      } else {
        const request = requests === undefined ? undefined : await take(requests, key, 1);
        if (request !== undefined && !request.ok) {
          ms = request.ms;
          kind = 'requests';
        } else {
          if (tokens === undefined) return { tokens: 0, tokensUntil: 0 };
          const points = Math.min(estimate, tokens.points);
          const taken = await take(tokens, key, points);
          if (taken.ok) return { tokens: points, tokensUntil: now() + taken.res.msBeforeNext };
          // The request point stays used (giving it back could land in the next window).
          ms = taken.ms;
          kind = 'tokens';
        }
      }
      const left = deadline - now();
      if (ms > left) throw new RateLimitedError(key, kind, ms, config.maxWait);
      await sleep(ms, signal);
    }
  };

  /** Blocks `key` for every worker for `ms` (whole seconds, rounded up). */
  const block = (key: string, ms: number): Promise<unknown> =>
    gate.block(key, Math.max(1, Math.ceil(ms / 1000)));

  const around = async (
    call: ModelCall,
    run: () => Promise<ModelResponse>,
  ): Promise<ModelResponse> => {
    const key = config.key(call);
    const estimate =
      tokens === undefined
        ? 0
        : estimateInputTokens(call.request) +
          reservedOutputTokens(call.request, config.outputReserve);
    const admitted = await admit(call, key, estimate);
    let response: ModelResponse;
    try {
      response = await run();
    } catch (error) {
      const after = tooMany(error);
      if (after !== undefined && after > 0) await block(key, after);
      throw error;
    }
    if (tokens !== undefined) {
      const { usage } = response;
      const used = (usage.cachedResponses ?? 0) > 0 ? 0 : usage.inputTokens + usage.outputTokens;
      const diff = Math.round(used) - admitted.tokens;
      if (diff > 0) await tokens.penalty(key, diff);
      else if (diff < 0 && now() + REWARD_MARGIN_MS < admitted.tokensUntil)
        await tokens.reward(key, -diff);
    }
    const headers = response.rateLimit;
    if (headers !== undefined) {
      let ms = 0;
      if (headers.remainingRequests === 0) ms = Math.max(ms, headers.resetRequestsMs ?? 0);
      if (headers.remainingTokens === 0) ms = Math.max(ms, headers.resetTokensMs ?? 0);
      if (ms > 0) await block(key, ms);
    }
    return response;
  };

  return {
    name: 'rateLimit',
    generate: (call, next) => around(call, () => next(call.request)),
    stream: (call, next) => around(call, () => next(call.request, call.onDelta)),
  };
}

/** The wait a provider's 429 asked for (its `retryAfter`), or `undefined`. */
function tooMany(error: unknown): number | undefined {
  for (const e of errorChain(error))
    if (ModelHTTPError.is(e) && e.status === 429) return retryAfterOf(e);
  return undefined;
}

function isRes(value: unknown): value is LimiterRes {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { msBeforeNext?: unknown }).msBeforeNext === 'number'
  );
}

/** The signal of a call made outside a run: nothing aborts it. */
const NEVER = new AbortController().signal;

/** A timer that rejects with the typed cancellation error when `signal` aborts (the engine's). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return timerSleep(ms, signal ?? NEVER);
}
