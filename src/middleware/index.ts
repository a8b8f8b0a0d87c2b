/**
 * `golem/middleware`: layers around model calls and tool executions (the core's `Middleware`
 * contract, `wrapModel`), and the ones Golem ships: default settings, request logging with
 * redaction, PII redaction, a response cache, shared rate limits and spend caps.
 * @packageDocumentation
 */
export type { Middleware } from '../core/engine/middleware';
export type { ModelCall, StreamCall, ToolInvocation } from '../core/engine/middleware';
export { wrapModel } from '../core/engine/middleware-chain';
// Shipped middleware (defaults, logging, PII).
export { defaultSettings } from './default-settings';
export { logRequests } from './log-requests';
export type { LogRequestsOptions, RequestLogger, LogDetail } from './log-requests';
export { redactPii } from './redact-pii';
export type { RedactPiiOptions, PiiFinding, PiiField } from './redact-pii';
export { piiDetector, detectPii, luhnValid, ibanValid, PII_KINDS } from './pii-detectors';
export type { PiiDetector, PiiDetectorOptions, PiiSpan, PiiKind } from './pii-detectors';
// Response cache.
export { responseCache, isCacheableResponse } from './response-cache';
export type { ResponseCacheOptions, ResponseCacheErrorContext } from './response-cache';
export { responseCacheKey } from './cache-key';
export { memoryCacheStore } from './memory-cache-store';
export type { MemoryCacheStoreOptions } from './memory-cache-store';
export type { ResponseCacheStore } from '../core/durable/response-cache-port';
// Rate limits.
export { rateLimit } from './rate-limit';
export type { RateLimitOptions, RateBudget } from './rate-limit-options';
export { RateLimitedError } from './rate-limited-error';
export type { RateLimitKind } from './rate-limited-error';
// Spend caps.
export { spendCap } from './spend-cap';
export type { SpendCapOptions } from './spend-cap';
export type { SpendCapRule, SpendCapSubject, SpendPeriod } from './spend-windows';
export { BudgetExceededError } from './budget-error';
export type { SpendCapHit } from './budget-error';
export { memorySpendStore } from './memory-spend-store';
export { spendReport } from './spend-report';
export type { SpendReportOptions } from './spend-report';
export type {
  SpendStore,
  SpendWindow,
  SpendReservation,
  SpendReserveResult,
  SpendEntry,
  SpendQuery,
  SpendRow,
  SpendDimension,
  SpendTotals,
} from '../core/durable/spend-port';
