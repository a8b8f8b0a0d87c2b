export type { Role, Message, ToolCall } from './message';
export {
  ROLES,
  systemMessage,
  userMessage,
  assistantMessage,
  toolResultMessage,
  cloneMessage,
} from './message';
export type { Part, PartKind, DocumentOptions } from './part';
export {
  imageUrl,
  imageData,
  documentData,
  documentUrl,
  textDocument,
  audioData,
  audioUrl,
  partProblem,
} from './part';
export {
  DOCUMENT_MEDIA_TYPES,
  AUDIO_MEDIA_TYPES,
  MAX_PART_BYTES,
  mediaEssence,
} from './part-media';
export type { PartLocation } from './unsupported';
export { UnsupportedPartError, UnsupportedHostedToolError, describePart } from './unsupported';
export type {
  HostedTool,
  HostedToolType,
  HostedToolProviderOptions,
  WebSearchTool,
  FileSearchTool,
  CodeInterpreterTool,
  SearchLocation,
} from './hosted-tool';
export {
  webSearchTool,
  fileSearchTool,
  codeInterpreterTool,
  hostedToolProblem,
} from './hosted-tool';
export type { HostedToolCall, Citation } from './evidence';
export type { ThinkingBlock } from './thinking';
export { thinkingText, signedThinking, redactedThinking, thinkingProblem } from './thinking';
export type { Usage, UsageDetail } from './usage';
export { emptyUsage, addUsage, usageOf, USAGE_DETAILS } from './usage';
export type { CacheSettings, ResolvedCache, BreakpointPlan } from './cache';
export { resolveCache, planBreakpoints, MAX_CACHE_BREAKPOINTS } from './cache';
export type { ModelPrice, Cost, PriceLookup, PriceTable, PriceTableOptions } from './cost';
export { priceTable, costOf, addCost, checkPrice, PriceTableError } from './cost';
export type { ModelRef } from './model-name';
export { modelRef } from './model-name';
export type { JsonValue, JsonObject, JsonSchema } from './json';
export type { ToolSpec, ModelSettings, ThinkingSettings, ModelRequest } from './request';
export type { ModelResponse } from './response';
export type { Delta, ToolCallDelta, ThinkingDelta } from './delta';
export type {
  Model,
  StreamingModel,
  GenerateOptions,
  DeltaHandler,
  FallbackTransition,
} from './model';
export { isStreamingModel } from './model';
export { GolemError, describeError } from './error-base';
export { MissingPeerError, checkPeers } from './missing-peer';
export type { PeerLoader } from './missing-peer';
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
