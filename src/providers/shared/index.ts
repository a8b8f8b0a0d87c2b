export type { FetchLike, ProviderErrorInfo, PostJsonOptions } from './http';
export { postJson, httpError, checkHeaders } from './http';
export { redact, redactCause, describeTransportFailure } from './redact';
export { retryAfterMs } from './retry-after';
export type { SseEvent, ReadSseOptions, SseVerdict } from './sse';
export { readSse, STOP } from './sse';
export type { CallScopeOptions } from './call-scope';
export { CallScope } from './call-scope';
export type { ReadBodyOptions, ErrorBody } from './body';
export {
  readBodyText,
  readBodyJson,
  readErrorBody,
  expectEventStream,
  DEFAULT_MAX_RESPONSE_BYTES,
  ERROR_BODY_MAX_BYTES,
  DEFAULT_ERROR_BODY_TIMEOUT_MS,
} from './body';
export type { RedirectPolicyOptions } from './redirects';
export { fetchWithRedirectPolicy, MAX_REDIRECTS } from './redirects';
