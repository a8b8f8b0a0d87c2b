export type { Role, Message, ToolCall } from './message';
export {
  ROLES,
  systemMessage,
  userMessage,
  assistantMessage,
  toolResultMessage,
  cloneMessage,
} from './message';
export type { Part, PartKind } from './part';
export { imageUrl, imageData, partProblem } from './part';
export type { ThinkingBlock } from './thinking';
export { thinkingText, signedThinking, redactedThinking, thinkingProblem } from './thinking';
export type { Usage } from './usage';
export { emptyUsage, addUsage } from './usage';
export type { JsonValue, JsonObject, JsonSchema } from './json';
export type { ToolSpec, ModelSettings, ThinkingSettings, ModelRequest } from './request';
export type { ModelResponse } from './response';
export type { Delta, ToolCallDelta, ThinkingDelta } from './delta';
export type { Model, StreamingModel, GenerateOptions, DeltaHandler } from './model';
export { isStreamingModel } from './model';
export { GolemError, describeError } from './error-base';
export { errorChain, findError } from './error-chain';
export {
  CancelledError,
  DeadlineExceededError,
  isCancellation,
  isDeadlineExceeded,
  cancellationError,
  throwIfCancelled,
} from './cancellation';
export type { ModelHTTPErrorInit } from './errors';
export {
  ModelRetry,
  ModelHTTPError,
  ModelResponseError,
  isRetryable,
  isRetryableStatus,
  retryAfterOf,
} from './errors';
export type { JsonLimits } from './safe-json';
export { UnsafeJsonError, parseUntrustedJson, isValidJson } from './safe-json';
export { isArrayValue, isRecord } from './guards';
export { showValue } from './error-base';
export { HistoryFormatError } from './history-error';
export {
  encodeMessages,
  encodeMessage,
  decodeMessages,
  parseHistory,
  ARGS_MAX_DEPTH,
  HISTORY_DEFAULT_LIMITS,
} from './codec';
export type { JsonPathSegment, RawJsonOptions } from './raw-json';
export { RawJson, JsonParseError, parseJsonWithRaw, compactJson } from './raw-json';
export type { FallbackOptions } from './fallback';
export { FallbackModel, FallbackExhaustedError, FallbackConfigError } from './fallback';
export {
  ModelTransportError,
  StreamInterruptedError,
  ModelProtocolError,
  ModelRedirectError,
  ResponseTooLargeError,
  ModelConfigError,
} from './provider-errors';
export { MAX_TIMEOUT_MS, timeoutProblem } from './timeouts';
