/* eslint-disable @typescript-eslint/no-require-imports -- the optional peer is loaded by literal name, when a rate limit is created */
import { isModuleNotFound, missingPeerError } from '../core/kit/missing-peer';

/** What a limiter answers (`RateLimiterRes` of rate-limiter-flexible). Internal. */
export interface LimiterRes {
  readonly msBeforeNext: number;
  readonly remainingPoints: number;
  readonly consumedPoints: number;
}

/** The parts of a rate-limiter-flexible limiter `rateLimit()` uses. Internal. */
export interface Limiter {
  readonly points: number;
  consume(key: string, points: number): Promise<LimiterRes>;
  reward(key: string, points: number): Promise<LimiterRes>;
  penalty(key: string, points: number): Promise<LimiterRes>;
  block(key: string, seconds: number): Promise<LimiterRes>;
  get(key: string): Promise<LimiterRes | null>;
}

/** A limiter's options (points per `duration` seconds, under `keyPrefix`). Internal. */
export interface LimiterOptions {
  points: number;
  duration: number;
  keyPrefix: string;
  storeClient?: unknown;
}

/** The classes of rate-limiter-flexible `rateLimit()` builds on. Internal. */
export interface RateLimiterModule {
  RateLimiterMemory: new (options: LimiterOptions) => Limiter;
  RateLimiterRedis: new (options: LimiterOptions) => Limiter;
}

/** The npm package behind `rateLimit()` (an optional peer dependency of golem). */
export const RATE_LIMITER_PACKAGE = 'rate-limiter-flexible';

/** Loads rate-limiter-flexible (a `require` of its literal name). Internal. */
export type RateLimiterLoader = () => RateLimiterModule;

const requireRateLimiter: RateLimiterLoader = () =>
  require('rate-limiter-flexible') as RateLimiterModule;

/**
 * Loads the peer; a missing install is the standard `missing-peer` ConfigError naming the command
 * that fixes it. Internal.
 */
export function loadRateLimiter(loader: RateLimiterLoader = requireRateLimiter): RateLimiterModule {
  try {
    return loader();
  } catch (error) {
    if (isModuleNotFound(error))
      throw missingPeerError('golem/middleware rateLimit()', [RATE_LIMITER_PACKAGE]);
    throw error;
  }
}
