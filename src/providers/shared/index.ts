export type { FetchLike, ProviderErrorInfo, PostJsonOptions } from './http';
export { postJson, httpError, retryAfterMs, redact } from './http';
export type { SseEvent, ReadSseOptions } from './sse';
export { readSse, SseLineTooLongError } from './sse';
