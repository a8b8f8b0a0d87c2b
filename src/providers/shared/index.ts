export type { FetchLike, ProviderErrorInfo, PostJsonOptions } from './http';
export { postJson, httpError, redact } from './http';
export { retryAfterMs } from './retry-after';
export type { SseEvent, ReadSseOptions } from './sse';
export { readSse, SseLineTooLongError } from './sse';
