export type { Role, Message, ToolCall } from './contract/message';
export {
  ROLES,
  systemMessage,
  userMessage,
  assistantMessage,
  toolResultMessage,
  cloneMessage,
} from './contract/message';
export type { Part, PartKind, DocumentOptions } from './contract/part';
export {
  imageUrl,
  imageData,
  documentData,
  documentUrl,
  textDocument,
  audioData,
  audioUrl,
  partProblem,
} from './contract/part';
export {
  DOCUMENT_MEDIA_TYPES,
  AUDIO_MEDIA_TYPES,
  MAX_PART_BYTES,
  mediaEssence,
} from './contract/part-media';
export type { PartLocation } from './contract/unsupported';
export {
  UnsupportedPartError,
  UnsupportedHostedToolError,
  describePart,
} from './contract/unsupported';
export type {
  HostedTool,
  HostedToolType,
  HostedToolProviderOptions,
  WebSearchTool,
  FileSearchTool,
  CodeInterpreterTool,
  SearchLocation,
} from './contract/hosted-tool';
export {
  webSearchTool,
  fileSearchTool,
  codeInterpreterTool,
  hostedToolProblem,
} from './contract/hosted-tool';
export type { HostedToolCall, Citation } from './contract/evidence';
export type { ThinkingBlock } from './contract/thinking';
export {
  thinkingText,
  signedThinking,
  redactedThinking,
  thinkingProblem,
} from './contract/thinking';
export type { Usage, UsageDetail } from './contract/usage';
export { emptyUsage, addUsage, usageOf, USAGE_DETAILS } from './contract/usage';
export type { CacheSettings, ResolvedCache, BreakpointPlan } from './contract/cache';
export { resolveCache, planBreakpoints, MAX_CACHE_BREAKPOINTS } from './contract/cache';
export type { ModelPrice, Cost, PriceLookup, PriceTable, PriceTableOptions } from './contract/cost';
export { priceTable, costOf, addCost, checkPrice } from './contract/cost';
export type { ModelRef } from './contract/model-name';
export { modelRef } from './contract/model-name';
export type { JsonValue, JsonObject, JsonSchema } from './kit/json';
export type { ToolSpec, ModelSettings, ThinkingSettings, ModelRequest } from './contract/request';
export type { ModelResponse } from './contract/response';
export type { Delta, ToolCallDelta, ThinkingDelta } from './contract/delta';
export type {
  Model,
  StreamingModel,
  GenerateOptions,
  DeltaHandler,
  FallbackTransition,
} from './contract/model';
export { isStreamingModel } from './contract/model';
export { GolemError, describeError } from './kit/error-base';
export { checkPeers } from './kit/missing-peer';
export type { PeerLoader } from './kit/missing-peer';
export { errorChain, findError } from './kit/error-chain';
export {
  CancelledError,
  DeadlineExceededError,
  isCancellation,
  isDeadlineExceeded,
  cancellationError,
  throwIfCancelled,
} from './errors/cancellation';
export type { ModelHTTPErrorInit } from './errors/errors';
export {
  ModelRetry,
  ModelHTTPError,
  ModelResponseError,
  isRetryable,
  isRetryableStatus,
  retryAfterOf,
} from './errors/errors';
export type { JsonLimits } from './kit/safe-json';
export { UnsafeJsonError, parseUntrustedJson, isValidJson } from './kit/safe-json';
export { isArrayValue, isRecord } from './kit/guards';
export { showValue } from './kit/error-base';
export { HistoryFormatError } from './errors/history-error';
export {
  encodeMessages,
  encodeMessage,
  decodeMessages,
  parseHistory,
  ARGS_MAX_DEPTH,
  HISTORY_DEFAULT_LIMITS,
} from './codec/codec';
export type { JsonPathSegment, RawJsonOptions } from './kit/raw-json';
export { RawJson, JsonParseError, parseJsonWithRaw, compactJson } from './kit/raw-json';
export type { FallbackOptions } from './engine/fallback';
export { FallbackModel, FallbackExhaustedError } from './engine/fallback';
export {
  ModelTransportError,
  StreamInterruptedError,
  ModelProtocolError,
  ModelRedirectError,
  ResponseTooLargeError,
} from './errors/provider-errors';
export { MAX_TIMEOUT_MS, timeoutProblem } from './kit/timeouts';
